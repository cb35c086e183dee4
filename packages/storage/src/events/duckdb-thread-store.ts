// The embedded DuckDB store on a thread of its own (duckdb-worker.ts), for the server. Under
// collector load the main thread is the bottleneck, and a fifth of its time went to turning rows
// into DuckDB vectors and appending them (~20 µs an event); on the store's thread that work runs
// beside DuckDB's own, and dashboard results become JS objects there too. Calls cross as
// structured clones (~1 µs an event row). The store is the same code either way: tests and tools
// open it in-process with openDuckDbEventStore().
//
// With staging, this side writes the ingest log itself: a batch is encoded once (encodeRows, the
// serializer postMessage would use anyway), written and fdatasynced here, and the same bytes go
// to the thread to be staged. So an acknowledgement never waits for the store's thread, which
// spends tens of milliseconds at a time converting and committing rows and rolling up.
//
// dayRollupThrough() answers synchronously (the compiler asks while it compiles), so this side
// keeps a copy of the marks: the thread sends each one as it moves, and lowers a mark before the
// rollup that needs it commits, as it would in-process.
import { Worker } from "node:worker_threads";
import { assertAppendable } from "./duckdb-append.js";
import { type DuckDbEventStore, STAGED_ROWS_LIMIT, type StagingHandle } from "./duckdb-options.js";
import type { ThreadMessage, ThreadMethod, ThreadStage, ThreadStoreOptions } from "./duckdb-thread-protocol.js";
import { QueryTimeoutError } from "./event-store.js";
import { encodeRows, IngestLog } from "./ingest-log.js";

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export async function openDuckDbEventStoreOnThread(path: string, options: ThreadStoreOptions = {}): Promise<DuckDbEventStore> {
  // From the sources (tests), the thread compiles TypeScript through tsx; the server's bundle
  // has the thread's entry beside it (apps/server/build.mjs).
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = new URL(fromSources ? "./duckdb-worker.ts" : "./duckdb-worker.mjs", import.meta.url);
  const workerData = {
    path,
    options: { ...options, staging: options.staging && { ...options.staging, ownerWritesLog: true } },
  };
  const worker = fromSources
    ? new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`, {
        eval: true,
        workerData,
      })
    : new Worker(entry, { workerData });
  const waiting = new Map<number, Waiter>();
  const marks = new Map<string, number | undefined>();
  const markKey = (property: string, timezone: string) => `${property}\u0000${timezone}`;
  let lastId = 0;
  let broken: Error | null = null;
  let opened: Waiter | null = null;
  /** Rows logged and handed to the thread that it has not committed yet. */
  let staged = 0;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));

  /** Nothing more can be asked of the thread: everything waiting fails with `err`. */
  function fail(err: Error): void {
    broken ??= err;
    opened?.reject(err);
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  }

  worker.on("message", (m: ThreadMessage) => {
    if (m.kind === "ready") opened?.resolve(m.ingestLog);
    else if (m.kind === "committed") staged -= m.rows;
    else if (m.kind === "failed") fail(m.error instanceof Error ? m.error : new Error(String(m.error)));
    else if (m.kind === "mark") {
      // A pair gone there (rollups rebuilt, property deleted) is registered again when next asked.
      if (m.through === undefined) marks.delete(markKey(m.property, m.timezone));
      else marks.set(markKey(m.property, m.timezone), m.through);
    } else {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.ok) w?.resolve(m.value);
      else w?.reject(QueryTimeoutError.from(m.error) ?? m.error);
    }
  });
  worker.on("error", (err) => fail(err));
  worker.on("exit", (code) => fail(new Error(`the event store's thread has exited (code ${code})`)));
  const ingestLog = await new Promise<StagingHandle["ingestLog"]>((resolve, reject) => {
    opened = { resolve: resolve as (v: unknown) => void, reject };
  });
  opened = null;
  // The thread applied what an earlier process left in the log; new records go to a new file.
  const log = ingestLog ? await IngestLog.create(ingestLog.dir, ingestLog.nextGen) : null;

  function call<T>(method: ThreadMethod, ...args: unknown[]): Promise<T> {
    if (broken) return Promise.reject(broken);
    const id = ++lastId;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, method, args });
    });
  }

  let closing: Promise<void> | null = null;
  return {
    dialect: "duckdb",
    migrate: () => call("migrate"),
    append: async (rows) => {
      if (!log || rows.length === 0) return call("append", rows);
      if (broken) throw broken;
      // A row DuckDB would refuse must be refused now: once logged, it is acknowledged.
      assertAppendable(rows);
      // Back-pressure: a store that has fallen far behind catches up before taking more.
      if (staged >= STAGED_ROWS_LIMIT) await call("flush");
      const payload = encodeRows(rows);
      const mark = await log.append(payload);
      staged += rows.length;
      worker.postMessage({ kind: "stage", payload, mark } satisfies ThreadStage);
    },
    upsertVisitors: (profiles) => call("upsertVisitors", profiles),
    sync: () => call("sync"),
    query: (q, o) => call("query", q, o),
    events: (property, q) => call("events", property, q),
    visitor: (property, clientId) => call("visitor", property, clientId),
    recentSessions: (since) => call("recentSessions", since),
    funnelFromTimelines: (property, spec, ctx) => call("funnelFromTimelines", property, spec, ctx),
    retentionFromTimelines: (property, spec, ctx) => call("retentionFromTimelines", property, spec, ctx),
    stickinessFromTimelines: (property, spec, ctx) => call("stickinessFromTimelines", property, spec, ctx),
    lifecycleFromTimelines: (property, spec, ctx) => call("lifecycleFromTimelines", property, spec, ctx),
    funnelActorsFromTimelines: (property, spec, at, page, ctx) =>
      call("funnelActorsFromTimelines", property, spec, at, page, ctx),
    deleteProperty: (property) => call("deleteProperty", property),
    deleteVisitor: (property, clientId) => call("deleteVisitor", property, clientId),
    rebuildRollups: () => call("rebuildRollups"),
    checkpoint: () => call("checkpoint"),
    buildDayRollups: (property, timezone) => call("buildDayRollups", property, timezone),
    buildTimeline: (property) => call("buildTimeline", property),
    dayRollupThrough(property, timezone) {
      const k = markKey(property, timezone);
      if (!marks.has(k)) {
        marks.set(k, undefined);
        // Asking there registers the pair (its filling starts). The answer is the mark as of then,
        // and every later move arrives after it on the same port.
        call<number | undefined>("dayRollupThrough", property, timezone).then(
          (through) => marks.set(k, through),
          () => marks.delete(k),
        );
      }
      return marks.get(k);
    },
    close: () => {
      closing ??= (async () => {
        if (!broken) await call("close");
        await exited;
        await log?.close();
      })();
      return closing;
    },
  };
}
