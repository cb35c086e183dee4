// The composition root: createServices() opens the stores and builds every service from the
// configuration, for the server (main.ts), the CLI and the tests alike, and closes them in reverse
// order. A test changes only what ServiceOptions names (a PostgreSQL schema of its own, the event
// store in-process, a mailer to read), never the wiring.
import { join } from "node:path";
import { createEnricher, createGeoLookup, createSessionizer, type GeoLookup, SESSION_TIMEOUT_MS } from "@lookout/ingest";
import {
  createJobQueue,
  type EventStore,
  type JobQueue,
  type LiveBus,
  type MetaConfig,
  type MetaStore,
  memoryLiveBus,
  memorySharedState,
  openClickHouseEventStore,
  openClickHouseIngestStore,
  openDuckDbEventStore,
  openDuckDbEventStoreOnThread,
  openMetaStore,
  redisLiveBus,
  redisSharedState,
  type SharedState,
} from "@lookout/storage";
import type { AppDeps } from "./app-deps.js";
import { createAuthService } from "./auth/auth-service.js";
import { createBillingService } from "./billing/service.js";
import { createCollector } from "./collect/collector.js";
import type { Config } from "./config/config.js";
import { lockDataDir } from "./config/data-dir-lock.js";
import { fairEventReads } from "./event-reads/fair-reads.js";
import { Presence } from "./live/presence.js";
import { type Mailer, outboxMailer, smtpMailer } from "./mail/mailer.js";

export interface Services extends AppDeps {
  geo: GeoLookup;
  jobs: JobQueue;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Where the outbox mailer prints (no SMTP_URL). Default: standard output. */
  print?: (line: string) => void;
  /** The metadata store to open instead of the configured one (a test's own PostgreSQL schema). */
  meta?: MetaConfig;
  /** A mailer instead of the configured one. */
  mailer?: (meta: MetaStore) => Mailer;
  /**
   * The event store on the server's own thread (tests read it directly) rather than a thread of
   * its own with the ingest log; `rollupDelayMs` and `readers` tune it.
   */
  eventsInProcess?: { rollupDelayMs?: number; readers?: number };
  /** The collector's group-commit delay (tests want their 202s at once). */
  collectMaxDelayMs?: number;
  /** Hold the data directory's lock (default true; tests use a fresh directory each). */
  lock?: boolean;
}

export function metaConfigFor(config: Config): MetaConfig {
  return config.databaseUrl
    ? { kind: "postgres", url: config.databaseUrl }
    : {
        kind: "pglite",
        dir: join(config.dataDir, "meta"),
        ...(config.pgliteTemplate ? { template: config.pgliteTemplate } : {}),
      };
}

function openEvents(config: Config, inProcess: ServiceOptions["eventsInProcess"]): Promise<EventStore> {
  // Scale-out: every server reads the one ClickHouse; appends are durable in this server's own
  // ingest log and reach ClickHouse in batches, exactly once (storage's clickhouse-ingest.ts).
  // Tests write straight to ClickHouse, so that what a call stored is there when it returns.
  const timelines = config.timelineMaxEvents > 0 && { maxEvents: config.timelineMaxEvents };
  if (config.clickhouseUrl) {
    const cluster = config.clickhouseCluster ? { cluster: config.clickhouseCluster } : {};
    if (inProcess) return openClickHouseEventStore(config.clickhouseUrl, { ...cluster, timelines });
    return openClickHouseIngestStore(config.clickhouseUrl, {
      ...cluster,
      timelines,
      logDir: join(config.dataDir, "clickhouse-ingest"),
      maxBacklogRows: config.ingestBacklogRows,
    });
  }
  const path = join(config.dataDir, "events.duckdb");
  if (inProcess)
    return openDuckDbEventStore(path, {
      rollupDelayMs: inProcess.rollupDelayMs ?? 0,
      readers: inProcess.readers ?? 2,
      timelines,
    });
  // The collector's appends are durable once in the ingest log, and reach DuckDB in transactions
  // of thousands of rows (storage's staged-appends.ts says why).
  return openDuckDbEventStoreOnThread(path, {
    threads: config.duckdbThreads,
    staging: {},
    timelines,
  });
}

export async function createServices(config: Config, opts: ServiceOptions = {}): Promise<Services> {
  const print = opts.print ?? ((l: string) => process.stdout.write(`${l}\n`));
  const unlock = opts.lock === false ? () => {} : lockDataDir(config.dataDir);
  // Opened so far, closed in reverse if a later step fails.
  const opened: (() => Promise<void> | void)[] = [unlock];
  const undo = async () => {
    for (const close of opened.reverse()) await Promise.resolve(close()).catch(() => {});
  };
  try {
    const meta = await openMetaStore(opts.meta ?? metaConfigFor(config));
    opened.push(() => meta.close());
    const mailer: Mailer = opts.mailer
      ? opts.mailer(meta)
      : config.smtpUrl
        ? smtpMailer(config.smtpUrl, config.mailFrom)
        : outboxMailer(meta, print);
    opened.push(() => mailer.close());
    // Throttles, rate limits and visits: in Redis when several servers share the work.
    const shared: SharedState = config.redisUrl
      ? await redisSharedState(config.redisUrl, config.redisPrefix)
      : memorySharedState();
    opened.push(() => shared.close());
    const auth = createAuthService({ meta, mailer, sessionTtlMs: config.sessionTtlMs, shared });
    const jobs = createJobQueue(meta.db);
    const bus: LiveBus = config.redisUrl ? await redisLiveBus(config.redisUrl, config.redisPrefix) : memoryLiveBus();
    opened.push(() => bus.close());
    const presence = new Presence(bus);
    await presence.start();
    opened.push(() => presence.stop());
    const events = await openEvents(config, opts.eventsInProcess);
    opened.push(() => events.close());
    // The one fair queue of the process: every service reads through it (event-reads/).
    const reads = fairEventReads(events);
    // Day rollups fill in the background from the start, so a property's first dashboard is fast.
    for (const p of await meta.properties.listAll()) events.dayRollupThrough?.(p.unique_id, p.timezone);
    const geo = createGeoLookup({ cityDbPath: config.geoCityDb });
    await geo.ready();
    const enricher = createEnricher({ saltStore: meta.salts, geo, sessions: createSessionizer({ state: shared }) });
    // Visits in progress before a restart continue rather than splitting in two.
    await enricher.sessions.warm(await events.recentSessions(new Date(Date.now() - SESSION_TIMEOUT_MS)));
    const collector = createCollector(
      { meta, events, enricher, presence },
      opts.collectMaxDelayMs === undefined ? undefined : { maxDelayMs: opts.collectMaxDelayMs },
    );
    opened.push(() => collector.drain());
    const billing = createBillingService({ config, meta, reads, auth });
    let closing: Promise<void> | null = null;
    return {
      config,
      meta,
      mailer,
      auth,
      presence,
      events,
      reads,
      collector,
      billing,
      geo,
      jobs,
      shared,
      close: () => {
        closing ??= undo();
        return closing;
      },
    };
  } catch (err) {
    await undo();
    throw err;
  }
}
