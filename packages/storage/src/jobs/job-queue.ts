// The persisted job queue (DESIGN.md §1 "jobs"): scheduled and long work (e-mail reports, exports,
// usage checks, imports) kept as rows of `lookout_jobs` in the metadata store, so a job survives a
// restart, is claimed by exactly one live server, and is retried with backoff.
//
// Why not pg-boss or graphile-worker: both need real PostgreSQL server features the embedded store
// lacks. PGlite is one connection inside the process: no LISTEN/NOTIFY across connections, no
// second connection for a worker pool, and graphile-worker also installs its own schema, functions
// and advisory locks. One small table-based queue over the MetaStore's own Kysely database runs the
// same SQL on PGlite and on PostgreSQL, which is what DESIGN.md §1 asks for ("no mode is a mock").
//
// Guarantees: a live runner (one that heartbeats) holds its job alone, because claims take row
// locks (`FOR UPDATE SKIP LOCKED`) and every later write is fenced by `locked_by`. A runner that
// dies loses its job when `locked_until` passes and another runner re-runs it: delivery is
// at-least-once, so a handler whose effect must happen once (a report mail) records that itself or
// is enqueued under an idempotent key.
import { randomInt } from "node:crypto";

/** Job names mapped to their payload types, e.g. `{ "report.send": { propertyId: string } }`. */
export type JobName<J extends object> = keyof J & string;

export type JobState = "queued" | "running" | "done" | "failed";

export interface JobRecord<N extends string = string, P = unknown> {
  id: string;
  name: N;
  payload: P;
  /** Idempotency key: a second enqueue with the same key is a no-op while the row exists. */
  key: string | null;
  state: JobState;
  runAt: Date;
  /** Claims so far, counting the current one. */
  attempts: number;
  maxAttempts: number;
  lockedBy: string | null;
  lockedUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A job of `J`, discriminated by name so `payload` narrows with `name`. */
export type Job<J extends object, N extends JobName<J> = JobName<J>> = { [K in N]: JobRecord<K, J[K]> }[N];

export interface EnqueueInput<J extends object, K extends JobName<J>> {
  name: K;
  payload: J[K];
  /** Not before this instant; default now. */
  runAt?: Date;
  /** e.g. `report:<property>:<period>`: enqueueing an existing key does nothing. */
  key?: string;
  /** Default 5. */
  maxAttempts?: number;
}

export interface EnqueueResult {
  id: string;
  /** False when a job with the same key already existed (its id is returned). */
  created: boolean;
}

/** What `fail` did: re-queued with backoff, failed for good, or nothing (the lock was lost). */
export type FailOutcome = "retry" | "failed" | "lost";

export interface JobQueue<J extends object = Record<string, unknown>> {
  enqueue<K extends JobName<J>>(job: EnqueueInput<J, K>): Promise<EnqueueResult>;
  /**
   * Claims up to `limit` due jobs of `names` for `workerId` for `lockMs`: queued jobs whose
   * `run_at` has come, and running jobs whose lock expired (their worker died). Each claim counts
   * as an attempt; an expired job with no attempts left is marked failed instead.
   */
  claim(workerId: string, names: readonly JobName<J>[], lockMs: number, limit?: number): Promise<Job<J>[]>;
  /** Heartbeat: pushes the lock forward. False when `workerId` no longer holds the job. */
  extendLock(id: string, workerId: string, lockMs: number): Promise<boolean>;
  /** Marks the job done. False when `workerId` no longer holds it (another worker took it over). */
  complete(id: string, workerId: string): Promise<boolean>;
  /**
   * Records a failed attempt: back to queued after a backoff, or failed for good after the last
   * attempt (or at once when `permanent`).
   */
  fail(id: string, workerId: string, error: unknown, options?: { permanent?: boolean }): Promise<FailOutcome>;
  get(id: string): Promise<Job<J> | undefined>;
  /** Deletes done and failed jobs finished before `before` (their keys become free again). */
  purge(before: Date): Promise<number>;
}

/** Thrown by a handler for an error that no retry can fix (e.g. its property was deleted). */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

export interface BackoffOptions {
  /** Delay before the first retry, before jitter. Default 30 s. */
  baseMs?: number;
  /** Longest delay. Default 1 h. */
  maxMs?: number;
}

/** A uniform number in [0, 1) from node:crypto. */
export const secureRandom = (): number => randomInt(0, 2 ** 32) / 2 ** 32;

/**
 * Delay before retrying after failed attempt number `attempt` (1-based): base * 2^(attempt-1),
 * capped, then jittered into [half, all] of that so retries of many jobs spread out.
 */
export function backoffMs(attempt: number, options: BackoffOptions = {}, random: () => number = secureRandom): number {
  const base = options.baseMs ?? 30_000;
  const max = options.maxMs ?? 3_600_000;
  const exp = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** The text kept in `last_error`: the stack when there is one, bounded. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.slice(0, 4000);
}
