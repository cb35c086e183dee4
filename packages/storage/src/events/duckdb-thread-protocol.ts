// The messages between the embedded DuckDB store's thread (duckdb-worker.ts) and its owner
// (duckdb-thread-store.ts).
import type { DuckDbEventStore, DuckDbOptions, StagingHandle } from "./duckdb-options.js";
import type { LogMark } from "./ingest-log.js";

/** What the owner passes to the thread (callbacks become messages). */
export type ThreadStoreOptions = Omit<DuckDbOptions, "onDayRollupMark" | "onStagedCommit">;

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
  "funnelFromTimelines",
  "funnelActorsFromTimelines",
  "retentionFromTimelines",
  "stickinessFromTimelines",
  "lifecycleFromTimelines",
  "deleteProperty",
  "deleteVisitor",
  "rebuildRollups",
  "checkpoint",
  "buildDayRollups",
  "buildTimeline",
  "flush",
  "close",
] as const satisfies readonly (keyof (DuckDbEventStore & StagingHandle))[];

export type ThreadMethod = (typeof THREAD_METHODS)[number];

export interface ThreadCall {
  kind?: undefined;
  id: number;
  method: ThreadMethod;
  args: unknown[];
}

/** Rows the owner wrote to the ingest log (encodeRows), up to `mark`: for the store to stage. */
export interface ThreadStage {
  kind: "stage";
  payload: Uint8Array;
  mark: LogMark;
}

export type ThreadMessage =
  | { kind: "ready"; ingestLog: StagingHandle["ingestLog"] }
  | { kind: "committed"; rows: number }
  | { kind: "failed"; error: unknown }
  | { kind: "result"; id: number; ok: true; value: unknown }
  | { kind: "result"; id: number; ok: false; error: unknown }
  | { kind: "mark"; property: string; timezone: string; through: number | undefined };
