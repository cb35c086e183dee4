// Durable ingest into ClickHouse (issue #22 item 3): each server keeps a local ingest log
// (ingest-log.ts, the one the embedded store uses) in front of ClickHouse, so an append resolves,
// and the collector answers 202, once the rows are on this machine's disk (write + fdatasync);
// the rows then reach ClickHouse in batches, exactly once.
//
// Exactly once on a plain MergeTree (18.16 deduplicates inserts on Replicated tables only): every
// log record has an id, `<node>:<gen>:<offset>` (the node is this data directory's own random id,
// so servers never share ids), which each of its rows carries in `ingest_batch`. A delivery first
// asks which of its record ids ClickHouse already has (a check narrowed by the sort key to the
// records' properties and times) and inserts only the others, in one INSERT: one block, all or
// nothing. So a retry after a lost answer, or a replay of the log after kill -9, cannot duplicate a
// record, and a record is never half there.
//
// While ClickHouse is unreachable, appends keep succeeding and the log grows, up to `maxBacklogRows`
// rows; past it append() rejects with IngestBacklogError (the routes answer 503 with Retry-After).
// Delivery retries with backoff and catches up once ClickHouse is back. A log file is deleted once
// every record in it is delivered. On open, every record still in the log is delivered again
// (the check skips those that arrived before the crash).
//
// Visitor profiles are not logged: they are written to ClickHouse after the events, retried in
// memory while it is down (lost if the process dies meanwhile: identify calls are rare and are
// repeated by the tracker on the visitor's next visit).
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SettledVisits } from "@lookout/query";
import type { EventRow, VisitorProfile } from "@lookout/schema";
import { eventJson } from "./clickhouse-sql.js";
import {
  type ClickHouseEventStore,
  type ClickHouseOptions,
  type IngestRecord,
  openClickHouseEventStore,
} from "./clickhouse-store.js";
import {
  type CompiledQuery,
  type EventStore,
  type EventsQuery,
  IngestBacklogError,
  type QueryOptions,
  type RecentSession,
} from "./event-store.js";
import { deleteBefore, encodeRows, IngestLog, readIngestLog } from "./ingest-log.js";

export interface ClickHouseIngestOptions extends ClickHouseOptions {
  /** The log's folder (this server's own: the server's data directory). */
  logDir: string;
  /** Acknowledged rows waiting for ClickHouse past which appends are refused (default 2 000 000). */
  maxBacklogRows?: number;
  /** How long the first waiting row waits for company (default 200 ms). */
  flushMs?: number;
  /** Waiting rows that start a delivery at once (default 50 000). */
  flushRows?: number;
}

interface Pending extends IngestRecord {
  gen: number;
}

/** This log folder's node id: random once, then kept, so record ids never repeat across servers. */
function nodeId(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "node-id");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const id = randomUUID().replace(/-/g, "").slice(0, 16);
  writeFileSync(file, id);
  return id;
}

export async function openClickHouseIngestStore(url: string, opts: ClickHouseIngestOptions): Promise<ClickHouseEventStore> {
  const ch = await openClickHouseEventStore(url, opts);
  const node = nodeId(opts.logDir);
  const { records, nextGen } = await readIngestLog(opts.logDir, null);
  const log = await IngestLog.create(opts.logDir, nextGen);
  const store = new LoggedStore(ch, log, node, opts);
  // Whatever the log still holds may not have reached ClickHouse: deliver it (again).
  store.replay(records.map((r) => ({ id: `${node}:${r.end.gen}:${r.end.offset}`, rows: r.rows, gen: r.end.gen })));
  return store;
}

class LoggedStore implements ClickHouseEventStore {
  readonly dialect = "clickhouse" as const;
  #pending: Pending[] = [];
  #pendingRows = 0;
  #profiles: VisitorProfile[] = [];
  #timer: NodeJS.Timeout | null = null;
  #delivering: Promise<void> | null = null;
  #failures = 0;
  #closed = false;
  /** The generation of the last record appended: files before it are deletable once delivered. */
  #lastGen = 0;

  constructor(
    private readonly ch: ClickHouseEventStore,
    private readonly log: IngestLog,
    private readonly node: string,
    private readonly opts: ClickHouseIngestOptions,
  ) {}

  get cannot() {
    return this.ch.cannot;
  }
  get serverVersion() {
    return this.ch.serverVersion;
  }
  get database() {
    return this.ch.database;
  }
  get liveTablesMade() {
    return this.ch.liveTablesMade;
  }
  get liveHistoryReads() {
    return this.ch.liveHistoryReads;
  }

  settle(now?: Date): Promise<number> {
    return this.ch.settle(now);
  }

  settledVisits(): Promise<SettledVisits> {
    return this.ch.settledVisits();
  }

  dayRollupThrough(property: string, timezone: string): number | undefined {
    return this.ch.dayRollupThrough?.(property, timezone);
  }

  buildDayRollups(property: string, timezone: string): Promise<void> {
    return this.ch.buildDayRollups(property, timezone);
  }

  buildTimeline(property: string): Promise<boolean> {
    return this.ch.buildTimeline(property);
  }

  get funnelFromTimelines() {
    return this.ch.funnelFromTimelines;
  }
  get retentionFromTimelines() {
    return this.ch.retentionFromTimelines;
  }
  get stickinessFromTimelines() {
    return this.ch.stickinessFromTimelines;
  }
  get lifecycleFromTimelines() {
    return this.ch.lifecycleFromTimelines;
  }
  get funnelActorsFromTimelines() {
    return this.ch.funnelActorsFromTimelines;
  }

  replay(records: Pending[]): void {
    for (const r of records) this.#add(r);
  }

  #add(r: Pending): void {
    this.#pending.push(r);
    this.#pendingRows += r.rows.length;
    this.#lastGen = Math.max(this.#lastGen, r.gen);
    this.#schedule(this.#pendingRows >= (this.opts.flushRows ?? 50_000) ? 0 : (this.opts.flushMs ?? 200));
  }

  #schedule(ms: number): void {
    if (this.#closed || this.#timer || this.#delivering) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#deliver().catch(() => {});
    }, ms);
  }

  /** One delivery of everything pending; on failure the records stay and a retry is scheduled. */
  #deliver(): Promise<void> {
    if (this.#delivering) return this.#delivering;
    const records = this.#pending.slice();
    const profiles = this.#profiles.slice();
    if (records.length === 0 && profiles.length === 0) return Promise.resolve();
    const run = (async () => {
      if (records.length > 0) await this.ch.appendOnce(records);
      // Delivered: drop them (appends may have added more meanwhile), and the files before the
      // oldest record still waiting.
      this.#pending.splice(0, records.length);
      this.#pendingRows -= records.reduce((n, r) => n + r.rows.length, 0);
      if (profiles.length > 0) {
        await this.ch.upsertVisitors(profiles);
        this.#profiles.splice(0, profiles.length);
      }
      await deleteBefore(this.opts.logDir, this.#pending[0]?.gen ?? this.#lastGen);
    })();
    this.#delivering = run.then(
      () => {
        this.#delivering = null;
        this.#failures = 0;
        if (this.#pending.length > 0 || this.#profiles.length > 0) this.#schedule(0);
      },
      (err) => {
        this.#delivering = null;
        this.#failures++;
        // Backoff while ClickHouse is away: 100 ms doubling to 5 s.
        this.#schedule(Math.min(5000, 100 * 2 ** Math.min(this.#failures, 6)));
        throw err;
      },
    );
    return this.#delivering;
  }

  migrate(): Promise<void> {
    return this.ch.migrate();
  }

  async append(rows: readonly EventRow[]): Promise<void> {
    if (this.#closed) throw new Error("event store is closed");
    if (rows.length === 0) return;
    const max = this.opts.maxBacklogRows ?? 2_000_000;
    if (this.#pendingRows + rows.length > max) throw new IngestBacklogError(this.#pendingRows);
    // A row ClickHouse would refuse is refused now, before it is acknowledged.
    for (const r of rows) eventJson(r);
    const end = await this.log.append(encodeRows(rows));
    this.#add({ id: `${this.node}:${end.gen}:${end.offset}`, rows, gen: end.gen });
  }

  appendOnce(records: readonly IngestRecord[]): Promise<void> {
    return this.ch.appendOnce(records);
  }

  async upsertVisitors(profiles: readonly VisitorProfile[]): Promise<void> {
    if (this.#closed) throw new Error("event store is closed");
    if (profiles.length === 0) return;
    this.#profiles.push(...profiles);
    this.#schedule(this.opts.flushMs ?? 200);
  }

  /** Resolves once everything appended so far is in ClickHouse (rejects if a delivery fails). */
  async sync(): Promise<void> {
    if (this.#closed) throw new Error("event store is closed");
    while (this.#pending.length > 0 || this.#profiles.length > 0 || this.#delivering) {
      if (this.#timer) {
        clearTimeout(this.#timer);
        this.#timer = null;
      }
      await this.#deliver();
    }
  }

  /** Rows acknowledged and not yet in ClickHouse. */
  get backlogRows(): number {
    return this.#pendingRows;
  }

  query<T = Record<string, unknown>>(q: CompiledQuery, opts?: QueryOptions): Promise<T[]> {
    return this.ch.query<T>(q, opts);
  }
  async events(property: string, q?: EventsQuery): Promise<EventRow[]> {
    // Acknowledged rows are read back at once where ClickHouse is there to take them.
    if (this.#pending.length > 0) await this.sync().catch(() => {});
    return this.ch.events(property, q);
  }
  async visitor(property: string, clientId: string): Promise<VisitorProfile | null> {
    // Profiles still waiting count too: an identify is visible as soon as it is acknowledged.
    if (this.#profiles.length > 0) await this.sync().catch(() => {});
    return this.ch.visitor(property, clientId);
  }
  recentSessions(since: Date): Promise<RecentSession[]> {
    return this.ch.recentSessions(since);
  }
  async deleteProperty(property: string): Promise<void> {
    // Rows of the property still on their way would land after the deletion: deliver them first.
    await this.sync();
    await this.ch.deleteProperty(property);
  }

  async deleteVisitor(property: string, clientId: string): Promise<number> {
    // The visitor's rows still on their way would land after the deletion: deliver them first.
    await this.sync();
    return this.ch.deleteVisitor(property, clientId);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    // One last delivery; what it cannot deliver stays in the log for the next start.
    await this.sync().catch(() => {});
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#delivering?.catch(() => {});
    await this.log.close();
    await this.ch.close();
  }
}

/** For tests and ops: how many acknowledged rows wait for ClickHouse (0 for a store without a log). */
export function ingestBacklog(store: EventStore): number {
  return store instanceof LoggedStore ? store.backlogRows : 0;
}
