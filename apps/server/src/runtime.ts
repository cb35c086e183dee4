// Opens what a Lookout process needs (stores, mailer, services) from the configuration, for the
// server and the CLI alike, and closes it in reverse order.
import { join } from "node:path";
import { createEnricher, createGeoLookup, type GeoLookup, SESSION_TIMEOUT_MS } from "@lookout/ingest";
import {
  type EventStore,
  type LiveBus,
  type MetaStore,
  memoryLiveBus,
  openDuckDbEventStoreOnThread,
  openMetaStore,
  redisLiveBus,
} from "@lookout/storage";
import type { AppDeps } from "./app-deps.js";
import { createAuthService } from "./auth/auth-service.js";
import { createCollector } from "./collect/collector.js";
import type { Config } from "./config/config.js";
import { lockDataDir } from "./config/data-dir-lock.js";
import { Presence } from "./live/presence.js";
import { type Mailer, outboxMailer, smtpMailer } from "./mail/mailer.js";

export interface Runtime extends AppDeps {
  geo: GeoLookup;
  close(): Promise<void>;
}

export function openEvents(config: Config): Promise<EventStore> {
  // The collector's appends are durable once in the ingest log, and reach DuckDB in transactions
  // of thousands of rows (storage's staged-appends.ts says why).
  return openDuckDbEventStoreOnThread(join(config.dataDir, "events.duckdb"), { threads: config.duckdbThreads, staging: {} });
}

export function openMeta(config: Config): Promise<MetaStore> {
  return config.databaseUrl
    ? openMetaStore({ kind: "postgres", url: config.databaseUrl })
    : openMetaStore({ kind: "pglite", dir: join(config.dataDir, "meta") });
}

export async function openRuntime(
  config: Config,
  print: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<Runtime> {
  const unlock = lockDataDir(config.dataDir);
  let meta: MetaStore | undefined;
  let bus: LiveBus | undefined;
  let events: EventStore | undefined;
  try {
    meta = await openMeta(config);
    const mailer: Mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(meta, print);
    const auth = createAuthService({ meta, mailer, sessionTtlMs: config.sessionTtlMs });
    bus = config.redisUrl ? await redisLiveBus(config.redisUrl) : memoryLiveBus();
    const presence = new Presence(bus);
    await presence.start();
    events = await openEvents(config);
    // Day rollups fill in the background from the start, so a property's first dashboard is fast.
    for (const p of await meta.properties.listAll()) events.dayRollupThrough?.(p.unique_id, p.timezone);
    const geo = createGeoLookup({ cityDbPath: config.geoCityDb });
    await geo.ready();
    const enricher = createEnricher({ saltStore: meta.salts, geo });
    // Visits in progress before a restart continue rather than splitting in two.
    enricher.sessions.warm(await events.recentSessions(new Date(Date.now() - SESSION_TIMEOUT_MS)));
    const collector = createCollector({ meta, events, enricher, presence });
    const opened = meta;
    const openedBus = bus;
    const openedEvents = events;
    return {
      config,
      meta: opened,
      mailer,
      auth,
      presence,
      events: openedEvents,
      collector,
      geo,
      async close() {
        await collector.drain();
        await openedEvents.close();
        presence.stop();
        await openedBus.close();
        await mailer.close();
        await opened.close();
        unlock();
      },
    };
  } catch (err) {
    await events?.close().catch(() => {});
    await bus?.close().catch(() => {});
    await meta?.close().catch(() => {});
    unlock();
    throw err;
  }
}
