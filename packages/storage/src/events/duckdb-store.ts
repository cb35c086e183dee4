// The embedded EventStore on DuckDB (DESIGN.md §1). One writer connection, used by one write at a
// time (appends, profile upserts, deletions queue behind each other), and a small pool of reader
// connections so dashboard queries run alongside writes and each other (DuckDB's MVCC gives each
// query a consistent snapshot; a reader never sees half a batch). Rollups run on a connection of
// their own: they write only the rollup tables and appends only `events`, so the two never
// conflict, and a rollup never holds up the collector's appends.
//
// This file opens the store and composes its parts: the write queue (duckdb-write-queue.ts), the
// property keys (duckdb-property-keys.ts), batch commits (duckdb-batches.ts), rollup scheduling
// (duckdb-rollup-scheduler.ts), migration (duckdb-migrate.ts) and the ingest log replayed at open
// (duckdb-log-replay.ts); reads go through the reader pool (duckdb-read.ts).
//
// Durability: DuckDB writes each commit to its write-ahead log and fsyncs the WAL before COMMIT
// returns (checked with strace on 1.5.6: write + fsync of the .wal per commit). So when append()
// resolves, the batch survives kill -9 and power loss. Checkpoints (WAL folded into the database
// file) happen automatically once the WAL passes `checkpoint_threshold` and on close; a crash
// between them only means the WAL is replayed on the next open. With staging (the server), an
// append is durable in the ingest log first and committed here with thousands of others
// (staged-appends.ts); each commit records how far into the log it reaches, and open applies
// the rest.
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from "@duckdb/node-api";
import type { EventRow, VisitorProfile } from "@lookout/schema";
import { assertAppendable, timestampValue } from "./duckdb-append.js";
import { BatchCommitter } from "./duckdb-batches.js";
import { applyIngestLog } from "./duckdb-log-replay.js";
import { migrateStore } from "./duckdb-migrate.js";
import {
  type DuckDbEventStore,
  type DuckDbOptions,
  defaultDuckDbThreads,
  STAGED_ROWS_LIMIT,
  type StagingHandle,
} from "./duckdb-options.js";
import { PropertyKeys } from "./duckdb-property-keys.js";
import { eventsSql, ReaderPool, rows } from "./duckdb-read.js";
import { transaction as inTransaction, rebuildRollups as rebuildAll } from "./duckdb-rollup.js";
import { RollupScheduler } from "./duckdb-rollup-scheduler.js";
import { duckDbTimelines } from "./duckdb-timelines.js";
import { timelineAnswers } from "./timeline-answers.js";
import { WriteQueue } from "./duckdb-write-queue.js";
import type { CompiledQuery, EventsQuery, QueryOptions, RecentSession } from "./event-store.js";
import { encodeRows, type IngestLog } from "./ingest-log.js";
import type { StagedAppends } from "./staged-appends.js";
import { upsertProfiles } from "./visitor-profiles.js";
import { VISITOR_TABLES } from "./visitor-tables.js";

export { ROLLUP_VERSION } from "./duckdb-migrate.js";

/** DuckDbOptions.queryTimeoutMs's default: a dashboard query takes tens of ms at 10M events. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
/**
 * DuckDbOptions.indexScanMaxCount's default (DuckDB's own: 2 048). Measured on the visitors
 * bench's 1M database, alternated at equal load: the heavy visitor's six panels (506 visit rows
 * of 34 columns) 134-154 ms by index, 79-83 ms by the zone-map-narrowed scan; a one-event
 * visitor's unchanged (a row by index). DuckDB scans by index while the matches stay under the
 * greater of this and index_scan_percentage of the table's rows (0.1% by default: 2 400 of the
 * 10M bench's visit rows, so the heavy visitor's 505 were still read by index there); the store
 * sets that share to 0, so this count alone decides at every size. At 10M, alternated: the
 * panels' statement p50 87-96 ms by index, 53-59 ms by the scan.
 */
export const INDEX_SCAN_MAX_COUNT = 64;

/** Timelines up to this many bytes leave DuckDB's memory limit whole (a 10M-event property's: about 190 MB). */
export const TIMELINE_MEMORY_SHARE = 400 * 2 ** 20;
/** The least room DuckDB keeps however much the timelines hold. */
const DUCKDB_MEMORY_FLOOR = 512 * 2 ** 20;

/**
 * DuckDB's memory limit while the timelines hold `held` bytes: past `share`, they take the rest of
 * their room from it, down to a floor (DESIGN.md §8: the process under 2 GB, which is DuckDB's 1 GB
 * and some 0.6 GB of its own beside it; a 100M-event timeline is about 850 MB).
 */
export function duckDbRoom(limit: number, held: number, share: number): number {
  return Math.max(Math.min(limit, DUCKDB_MEMORY_FLOOR), limit - Math.max(0, held - share));
}

/** A DuckDB size setting ("1GB", "512MiB") in bytes, or null when it is not one. */
function memoryBytes(setting: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)?\s*$/i.exec(setting);
  if (!m) return null;
  const unit = (m[2] ?? "B").toUpperCase();
  const scale: Record<string, number> = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KIB: 2 ** 10,
    MIB: 2 ** 20,
    GIB: 2 ** 30,
    TIB: 2 ** 40,
  };
  return Number(m[1]) * (scale[unit] ?? 1);
}

export async function openDuckDbEventStore(path: string, opts: DuckDbOptions = {}): Promise<DuckDbEventStore & StagingHandle> {
  // A checkpoint inside a commit stalls the collector; let the WAL grow further between them.
  const config: Record<string, string> = {
    memory_limit: opts.memoryLimit ?? "1GB",
    checkpoint_threshold: "256MB",
    index_scan_max_count: String(Math.max(0, Math.trunc(opts.indexScanMaxCount ?? INDEX_SCAN_MAX_COUNT))),
    // The count above decides alone (INDEX_SCAN_MAX_COUNT says why).
    index_scan_percentage: "0",
    // Memory DuckDB has freed goes back to the system soon after (a thread of the allocator's own)
    // instead of staying cached: beside a 100M-event visitor timeline (about 860 MB) the process
    // held 2.1-2.4 GB after the timeline's read, 1.8-2.0 GB with these (DESIGN.md §8: 2 GB).
    allocator_flush_threshold: "16MB",
    allocator_bulk_deallocation_flush_threshold: "32MB",
    allocator_background_threads: "true",
  };
  const instance = await DuckDBInstance.create(path, config);
  const writer = await instance.connect();
  const roller = await instance.connect();
  const readerConns = await Promise.all(Array.from({ length: Math.max(1, opts.readers ?? 4) }, () => instance.connect()));
  const readers = new ReaderPool(readerConns);
  /** A read's time limit unless its call says otherwise (EventStore.query). */
  const timeoutMs = Math.max(0, opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
  const limited = { timeoutMs };
  const queue = new WriteQueue();
  const write = <T>(fn: () => Promise<T>): Promise<T> => queue.run(fn);
  const keys = new PropertyKeys();
  let staging: StagedAppends | null = null;
  let log: IngestLog | null = null;
  let ingestLog: StagingHandle["ingestLog"] = null;
  /** Rows acknowledged but still staged reach DuckDB before a read that must see them. */
  const flushed = () => staging?.flush() ?? Promise.resolve();
  const rollups = new RollupScheduler({
    writer,
    roller,
    queue,
    delayMs: Math.max(0, opts.rollupDelayMs ?? 250),
    flush: () => flushed(),
    onDayMark: (pkey, tz, through) => {
      if (!opts.onDayRollupMark) return;
      for (const property of keys.propertiesOf(pkey)) opts.onDayRollupMark(property, tz, through);
    },
    ...(opts.rebuildChunkEvents ? { activityPassEvents: 5 * opts.rebuildChunkEvents } : {}),
  });
  const days = rollups.days;
  const batches = new BatchCommitter(writer, keys, rollups);
  const transaction = (fn: () => Promise<void>, c: DuckDBConnection = writer) => inTransaction(c, fn);
  const timelineConn = opts.timelines === false ? null : await instance.connect();
  const settingsConn = opts.timelines === false ? null : await instance.connect();
  const memoryLimit = memoryBytes(config.memory_limit as string);
  const onMemory = (held: number) => {
    if (settingsConn === null || memoryLimit === null) return;
    const room = duckDbRoom(memoryLimit, held, opts.timelineMemoryShare ?? TIMELINE_MEMORY_SHARE);
    void settingsConn.run(`SET GLOBAL memory_limit = '${Math.floor(room / 2 ** 20)}MiB'`).catch(() => {});
  };
  const timelines =
    timelineConn === null
      ? null
      : duckDbTimelines(
          {
            connection: timelineConn,
            readers,
            // In the write queue, every batch up to the counter has committed.
            committedBatch: () => write(async () => batches.batch),
            pkeyOf: (property) => keys.get(property),
            query: (q) => store.query(q),
            timeoutMs,
          },
          { ...(opts.timelines || {}), onMemory },
        );
  const store: DuckDbEventStore & StagingHandle = {
    dialect: "duckdb",

    migrate: () => write(() => migrateStore({ writer, keys, rollups, batches, opts })),

    append: async (events) => {
      if (events.length === 0) return;
      if (!staging || !log) return write(() => batches.commit(events, null));
      if (queue.closed) throw new Error("event store is closed");
      // A row DuckDB would refuse must be refused now: once logged, it is acknowledged.
      assertAppendable(events);
      // Back-pressure: a store that has fallen far behind catches up before taking more.
      if (staging.staged >= STAGED_ROWS_LIMIT) await staging.flush();
      const mark = await log.append(encodeRows(events));
      // Log appends resolve in call order, so rows are staged in the log's order.
      staging.stage(events, mark);
      rollups.schedule();
    },

    get ingestLog() {
      return ingestLog;
    },

    stage: (events, mark) => {
      if (!staging) throw new Error("this store does not stage appends");
      staging.stage(events, mark);
      // The rollup's wait starts at the acknowledgement, not at the commit.
      rollups.schedule();
    },

    flush: flushed,

    // Waits for appends queued before it, then rolls them up.
    sync: async () => {
      await flushed();
      rollups.cancel();
      await write(async () => undefined);
      await rollups.now();
    },

    upsertVisitors: (profiles) =>
      write(async () => {
        if (profiles.length === 0) return;
        await transaction(() => upsertProfiles(writer, profiles));
      }),

    query: <T>(q: CompiledQuery, o?: QueryOptions) =>
      readers.use(
        async (c) => {
          const params = { ...q.params } as Record<string, DuckDBValue>;
          // A property with no key has no rows: -1 matches nothing.
          for (const n of q.keyParams ?? []) params[n] = keys.get(String(q.params[n])) ?? -1n;
          return (await rows(c, q.sql, params)) as T[];
        },
        { timeoutMs: o?.timeoutMs ?? timeoutMs },
      ),

    ...timelineAnswers(timelines),

    events: async (property, q: EventsQuery = {}) => {
      await flushed();
      return readers.use(async (c) => {
        const { sql, params } = eventsSql(property, q);
        return (await rows(c, sql, params)) as unknown as EventRow[];
      }, limited);
    },

    visitor: (property, clientId) =>
      readers.use(async (c) => {
        const r = await rows(c, "SELECT * FROM visitors WHERE property = $p AND client_id = $c", { p: property, c: clientId });
        return (r[0] as unknown as VisitorProfile | undefined) ?? null;
      }, limited),

    // No time limit: the server's start needs the answer, however long it takes.
    recentSessions: async (since) => {
      await flushed();
      return readers.use(
        async (c) =>
          (await rows(
            c,
            "SELECT property, visitor_id, arg_max(session_id, ts) AS session_id, max(ts) AS last_ts FROM events WHERE ts >= $since GROUP BY property, visitor_id",
            { since: timestampValue(since) },
          )) as unknown as RecentSession[],
      );
    },

    // The property's key stays in property_keys (it maps an id, holds no data): data appended
    // later under the same id gets the same key.
    deleteProperty: async (property) => {
      await flushed();
      await write(() =>
        transaction(async () => {
          for (const t of ["events", "visitors", "sessions", "session_pages", "session_events", ...VISITOR_TABLES]) {
            await writer.run(`DELETE FROM ${t} WHERE property = $p`, { p: property });
          }
        }),
      );
      const k = keys.get(property);
      timelines?.forget(property);
      if (k !== undefined) await rollups.run((c) => transaction(() => days.forget(c, k), c));
    },

    // The visit rollups are per visitor (prev_* chains never cross visitors), so removing this
    // visitor's rows leaves every other row right. The day rollups mix visitors: the property's are
    // dropped and fill again (queries read the visit rollups meanwhile: the same numbers, slower).
    deleteVisitor: async (property, clientId) => {
      // Rolled up first, so that no pending rollup step writes this visitor's visits back.
      await store.sync();
      const deleted = await write(async () => {
        let n = 0;
        await transaction(async () => {
          const p = { p: property, c: clientId };
          const counted = await rows(writer, "SELECT count(*) AS n FROM events WHERE property = $p AND client_id = $c", p);
          n = Number(counted[0]?.n ?? 0);
          if (n > 0) {
            const visitor = "vkey IN (SELECT DISTINCT vkey FROM events WHERE property = $p AND client_id = $c)";
            for (const t of ["sessions", "session_pages", "session_events"]) {
              await writer.run(`DELETE FROM ${t} WHERE property = $p AND ${visitor}`, p);
            }
            await writer.run("DELETE FROM events WHERE property = $p AND client_id = $c", p);
          }
          await writer.run("DELETE FROM visitors WHERE property = $p AND client_id = $c", p);
          for (const t of VISITOR_TABLES) await writer.run(`DELETE FROM ${t} WHERE property = $p AND client_id = $c`, p);
        });
        return n;
      });
      const k = keys.get(property);
      if (deleted > 0) timelines?.forget(property);
      if (deleted > 0 && k !== undefined) await rollups.run((c) => transaction(() => days.forget(c, k), c));
      return deleted;
    },

    rebuildRollups: () =>
      days.paused(async () => {
        await rollups.settled();
        await write(() =>
          rebuildAll(writer, {
            chunkEvents: opts.rebuildChunkEvents,
            finish: async () => {
              await days.reset(writer);
              await writer.run("INSERT OR REPLACE INTO lookout_meta VALUES ('rolled_batch', $v)", {
                v: batches.batch.toString(),
              });
            },
          }),
        );
        rollups.rolled = batches.batch;
      }),

    dayRollupThrough: (property, timezone) => {
      const k = keys.get(property);
      return k === undefined ? undefined : days.through(k, timezone);
    },

    buildDayRollups: async (property, timezone) => {
      const pkey = keys.get(property);
      if (pkey === undefined) return;
      days.through(pkey, timezone);
      await days.fill({ pkey, tz: timezone });
    },

    buildTimeline: async (property) => (timelines ? timelines.prepare(property) : false),

    checkpoint: () => write(() => writer.run("CHECKPOINT").then(() => undefined)),

    close: async () => {
      if (queue.closed) return;
      rollups.cancel();
      days.stop();
      await timelines?.close();
      await flushed().catch(() => undefined);
      await log?.close().catch(() => undefined);
      await write(async () => undefined).catch(() => undefined);
      await rollups.now().catch(() => undefined);
      await write(() => writer.run("CHECKPOINT").then(() => undefined)).catch(() => undefined);
      queue.closed = true;
      await queue.settled();
      await rollups.settled();
      // Readers finish their current query first: closing under a running query is unsafe.
      await readers.close();
      for (const c of readerConns) c.closeSync();
      batches.closeAppender();
      roller.closeSync();
      timelineConn?.closeSync();
      settingsConn?.closeSync();
      writer.closeSync();
      instance.closeSync();
    },
  };
  await store.migrate();
  if (path !== ":memory:") {
    ({ staging, log, ingestLog } = await applyIngestLog(`${path}.ingest`, { writer, queue, batches, opts }));
  }
  // Set once open: opening with one thread left ~130 MB more resident at idle (a fresh server:
  // 453 MB against 328 MB opened with DuckDB's default and set to one thread here).
  await writer.run(`SET threads = ${Math.trunc(opts.threads ?? defaultDuckDbThreads())}`);
  return store;
}
