// The thread that owns the embedded DuckDB store when it runs off the main thread
// (duckdb-thread-store.ts says why). One message per call: { id, method, args } in,
// { id, ok, value | error } out. Day-rollup marks travel back as they change, so that the owner
// answers dayRollupThrough() without a round trip.
import { parentPort, workerData } from "node:worker_threads";
import { type DuckDbEventStore, type DuckDbOptions, openDuckDbEventStore } from "./duckdb-store.js";
import { THREAD_METHODS, type ThreadCall, type ThreadMessage } from "./duckdb-thread-protocol.js";

const port = parentPort;
if (!port) throw new Error("duckdb-worker runs as a worker thread");
const post = (m: ThreadMessage) => port.postMessage(m);
const { path, options } = workerData as { path: string; options: Omit<DuckDbOptions, "onDayRollupMark"> };

let store: DuckDbEventStore;
try {
  store = await openDuckDbEventStore(path, {
    ...options,
    onDayRollupMark: (property, timezone, through) => post({ kind: "mark", property, timezone, through }),
  });
} catch (err) {
  post({ kind: "failed", error: err });
  port.close();
  throw err;
}

port.on("message", async ({ id, method, args }: ThreadCall) => {
  try {
    if (!THREAD_METHODS.includes(method)) throw new Error(`not a store method: ${String(method)}`);
    const fn = store[method] as (...a: unknown[]) => unknown;
    const value = await fn(...args);
    post({ kind: "result", id, ok: true, value });
  } catch (error) {
    post({ kind: "result", id, ok: false, error });
  }
  // The store is closed: nothing is left for this thread to do.
  if (method === "close") port.close();
});
post({ kind: "ready" });
// Opening DuckDB leaves buffers behind that an idle thread never collects (see main.ts).
(globalThis as { gc?: () => void }).gc?.();
