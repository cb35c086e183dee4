// The thread that owns the embedded DuckDB store when it runs off the main thread
// (duckdb-thread-store.ts says why). One message per call: { id, method, args } in,
// { id, ok, value | error } out; rows the owner logged come in as `stage` messages, with no
// answer. Day-rollup marks and staged commits travel back as they happen, so that the owner
// answers dayRollupThrough() without a round trip and knows how far behind the store is.
import { parentPort, workerData } from "node:worker_threads";
import type { DuckDbEventStore, StagingHandle } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import {
  THREAD_METHODS,
  type ThreadCall,
  type ThreadMessage,
  type ThreadStage,
  type ThreadStoreOptions,
} from "./duckdb-thread-protocol.js";
import { QueryTimeoutError } from "./event-store.js";
import { decodeRows } from "./ingest-log.js";

const port = parentPort;
if (!port) throw new Error("duckdb-worker runs as a worker thread");
const post = (m: ThreadMessage) => port.postMessage(m);
const { path, options } = workerData as { path: string; options: ThreadStoreOptions };

let store: DuckDbEventStore & StagingHandle;
try {
  store = await openDuckDbEventStore(path, {
    ...options,
    onDayRollupMark: (property, timezone, through) => post({ kind: "mark", property, timezone, through }),
    onStagedCommit: (rows) => post({ kind: "committed", rows }),
  });
} catch (err) {
  post({ kind: "failed", error: err });
  port.close();
  throw err;
}

port.on("message", async (m: ThreadCall | ThreadStage) => {
  if (m.kind === "stage") {
    store.stage(decodeRows(m.payload), m.mark);
    return;
  }
  const { id, method, args } = m;
  try {
    if (!THREAD_METHODS.includes(method)) throw new Error(`not a store method: ${String(method)}`);
    const fn = store[method] as (...a: unknown[]) => unknown;
    const value = await fn(...args);
    post({ kind: "result", id, ok: true, value });
  } catch (error) {
    // Structured clone keeps an Error's message but not its class or `code`: a timeout crosses
    // as a plain copy the owner rebuilds (QueryTimeoutError.from).
    post({ kind: "result", id, ok: false, error: error instanceof QueryTimeoutError ? error.toJSON() : error });
  }
  // The store is closed: nothing is left for this thread to do.
  if (method === "close") port.close();
});
post({ kind: "ready", ingestLog: store.ingestLog });
// Opening DuckDB leaves buffers behind that an idle thread never collects (see main.ts).
(globalThis as { gc?: () => void }).gc?.();
