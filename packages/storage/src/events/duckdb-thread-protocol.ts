// The messages between the embedded DuckDB store's thread (duckdb-worker.ts) and its owner
// (duckdb-thread-store.ts).
import type { DuckDbEventStore } from "./duckdb-store.js";

/** The store methods the thread runs for its owner. */
export const THREAD_METHODS = [
  "migrate",
  "append",
  "upsertVisitors",
  "sync",
  "query",
  "events",
  "visitor",
  "recentSessions",
  "dayRollupThrough",
  "deleteProperty",
  "rebuildRollups",
  "checkpoint",
  "buildDayRollups",
  "close",
] as const satisfies readonly (keyof DuckDbEventStore)[];

export type ThreadMethod = (typeof THREAD_METHODS)[number];

export interface ThreadCall {
  id: number;
  method: ThreadMethod;
  args: unknown[];
}

export type ThreadMessage =
  | { kind: "ready" }
  | { kind: "failed"; error: unknown }
  | { kind: "result"; id: number; ok: true; value: unknown }
  | { kind: "result"; id: number; ok: false; error: unknown }
  | { kind: "mark"; property: string; timezone: string; through: number | undefined };
