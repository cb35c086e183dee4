// Thread priorities of the server process (Linux). The main thread answers HTTP, and with it every
// collector request; the process's other threads do background work: the event store's thread,
// libuv's pool (DuckDB's statements, the rollups among them, and file I/O), V8's helpers. On a
// small machine they all compete for the same cores, and when a rollup or a compaction took the
// main thread's core, acknowledgements waited behind it. So the other threads run at a lower
// priority (a higher nice value), as ClickHouse does for its background merges: measured on the
// 2-core box at 2 500 events/s, latency p50 9-16 -> 5 ms and p99 164-244 -> 33-104 ms. The
// background still gets every core the main thread leaves idle, and the main thread is one
// thread, so it cannot starve them. Lowering a priority needs no privilege.
//
// How much lower: not so low that anything else busy on the machine starves the rollups, which an
// event waits for before a dashboard shows it. In the collector bench, whose load generator shares
// the two cores at normal priority, 10 steps let it take 1.0-3.5 s under load (7 runs on
// 2026-11-25), 5 steps 0.75-1.2 s, 0 steps 0.65-0.71 s but a worse p99 at a steady rate.
import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { isMainThread } from "node:worker_threads";

/** How much lower the background threads run than the main thread, in nice steps (19 at most). */
export const BACKGROUND_NICE = 5;

/**
 * Gives every thread of this process but the main one the background priority (called on the main
 * thread); returns how many it changed. Threads inherit their creator's priority, and some start
 * later (a worker starts), hence keepBackgroundThreadsLow(). A no-op off Linux, where a thread id
 * is not a process id that setpriority() accepts.
 */
export function lowerBackgroundThreads(by = BACKGROUND_NICE): number {
  if (process.platform !== "linux" || !isMainThread) return 0;
  // Relative to the main thread's, so that a server started under `nice` keeps the same order.
  const nice = Math.min(19, getPriority() + by);
  let changed = 0;
  for (const entry of readdirSync("/proc/self/task")) {
    const tid = Number(entry);
    // On Linux the main thread's id is the process id.
    if (tid === process.pid) continue;
    try {
      if (getPriority(tid) < nice) {
        setPriority(tid, nice);
        changed++;
      }
    } catch {
      // The thread ended between the listing and the call.
    }
  }
  return changed;
}

/** Lowers the background threads now and every `intervalMs` after; returns the stop function. */
export function keepBackgroundThreadsLow(intervalMs = 10_000): () => void {
  lowerBackgroundThreads();
  const timer = setInterval(() => lowerBackgroundThreads(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
