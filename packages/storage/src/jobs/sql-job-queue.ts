// The JobQueue over the metadata store's Kysely database: the same SQL on PGlite and PostgreSQL.
// Claims lock candidate rows with `FOR UPDATE SKIP LOCKED`, so concurrent claimers (N servers on
// one PostgreSQL) each get different rows and never wait on each other; every later write is
// fenced by `locked_by`, so a worker that lost its lock cannot complete or fail a job it no longer
// holds. Time comes from the database (`now()`, one clock for all servers) unless a clock is
// injected (tests).
import { type ColumnType, type Kysely, type RawBuilder, sql } from "kysely";
import { newId } from "../meta/ids.js";
import type { MetaDatabase } from "../meta/tables.js";
import {
  type BackoffOptions,
  backoffMs,
  type EnqueueInput,
  type EnqueueResult,
  errorText,
  type FailOutcome,
  type Job,
  type JobName,
  type JobQueue,
  type JobState,
  secureRandom,
} from "./job-queue.js";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** The `lookout_jobs` table, created by metadata migration 0002_jobs. */
export interface JobsTable {
  id: string;
  name: string;
  payload: ColumnType<unknown, string, string>;
  key: string | null;
  state: JobState;
  run_at: Timestamp;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  finished_at: Timestamp | null;
}

interface JobRow {
  id: string;
  name: string;
  payload: unknown;
  key: string | null;
  state: JobState;
  run_at: Date;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface JobQueueOptions {
  /** Default: the database clock. Tests inject a fake one to step through backoffs and expiries. */
  clock?: () => Date;
  backoff?: BackoffOptions;
  /** Jitter source; default node:crypto. */
  random?: () => number;
  /** Default attempts per job. Default 5. */
  maxAttempts?: number;
}

const ms = (n: number) => sql`(${n}::float8 * interval '1 millisecond')`;

function toJob<J extends object>(r: JobRow): Job<J> {
  return {
    id: r.id,
    name: r.name,
    payload: r.payload,
    key: r.key,
    state: r.state,
    runAt: r.run_at,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    lockedBy: r.locked_by,
    lockedUntil: r.locked_until,
    lastError: r.last_error,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
  } as Job<J>;
}

/** A job queue over `db` (a MetaStore's `db`), whose migrations created `lookout_jobs`. */
export function createJobQueue<J extends object = Record<string, unknown>>(
  metaDb: Kysely<MetaDatabase>,
  options: JobQueueOptions = {},
): JobQueue<J> {
  const db = metaDb.withTables<{ lookout_jobs: JobsTable }>();
  const clock = options.clock;
  const random = options.random ?? secureRandom;
  const now = (): RawBuilder<Date> => (clock ? sql<Date>`${clock()}::timestamptz` : sql<Date>`now()`);
  const positive = (n: number, what: string) => {
    if (!Number.isFinite(n) || n <= 0) throw new RangeError(`${what} must be a positive number, got ${n}`);
    return n;
  };

  return {
    async enqueue<K extends JobName<J>>(job: EnqueueInput<J, K>): Promise<EnqueueResult> {
      const maxAttempts = Math.floor(positive(job.maxAttempts ?? options.maxAttempts ?? 5, "maxAttempts"));
      const id = newId();
      const inserted = await db
        .insertInto("lookout_jobs")
        .values({
          id,
          name: job.name,
          payload: JSON.stringify(job.payload ?? null),
          key: job.key ?? null,
          state: "queued",
          run_at: job.runAt ?? now(),
          attempts: 0,
          max_attempts: maxAttempts,
        })
        .onConflict((oc) => oc.column("key").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (inserted) return { id: inserted.id, created: true };
      if (job.key === undefined) throw new Error(`job ${id} was not inserted`);
      const existing = await db.selectFrom("lookout_jobs").select("id").where("key", "=", job.key).executeTakeFirstOrThrow();
      return { id: existing.id, created: false };
    },

    async claim(workerId, names, lockMs, limit = 1) {
      positive(lockMs, "lockMs");
      if (names.length === 0 || limit < 1) return [];
      const t = now();
      const nameList = sql.join(names.map((n) => sql`${n}`));
      // A job whose worker died on its last attempt is not run again: it is failed here.
      await sql`
        update lookout_jobs set state = 'failed', finished_at = ${t}, locked_until = null,
          last_error = 'lock of ' || coalesce(locked_by, '?') || ' expired on the last attempt'
        where state = 'running' and locked_until < ${t} and attempts >= max_attempts
          and name in (${nameList})`.execute(db);
      const r = await sql<JobRow>`
        with next as (
          select id from lookout_jobs
          where name in (${nameList})
            and ((state = 'queued' and run_at <= ${t})
              or (state = 'running' and locked_until < ${t} and attempts < max_attempts))
          order by run_at, id
          limit ${Math.floor(limit)}
          for update skip locked
        )
        update lookout_jobs j set
          state = 'running',
          attempts = j.attempts + 1,
          locked_by = ${workerId},
          locked_until = ${t} + ${ms(lockMs)},
          last_error = case when j.state = 'running'
            then 'lock of ' || coalesce(j.locked_by, '?') || ' expired' else j.last_error end
        from next where j.id = next.id
        returning j.*`.execute(db);
      return r.rows.map((row) => toJob<J>(row)).sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
    },

    async extendLock(id, workerId, lockMs) {
      positive(lockMs, "lockMs");
      const r = await db
        .updateTable("lookout_jobs")
        .set({ locked_until: sql<Date>`${now()} + ${ms(lockMs)}` })
        .where("id", "=", id)
        .where("locked_by", "=", workerId)
        .where("state", "=", "running")
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async complete(id, workerId) {
      const r = await db
        .updateTable("lookout_jobs")
        .set({ state: "done", finished_at: now(), locked_until: null })
        .where("id", "=", id)
        .where("locked_by", "=", workerId)
        .where("state", "=", "running")
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    fail(id, workerId, error, opts = {}): Promise<FailOutcome> {
      const lastError = errorText(error);
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom("lookout_jobs")
          .select(["attempts", "max_attempts"])
          .where("id", "=", id)
          .where("locked_by", "=", workerId)
          .where("state", "=", "running")
          .forUpdate()
          .executeTakeFirst();
        if (!row) return "lost";
        const attempts = Number(row.attempts);
        if (opts.permanent || attempts >= Number(row.max_attempts)) {
          await tx
            .updateTable("lookout_jobs")
            .set({ state: "failed", finished_at: now(), locked_until: null, last_error: lastError })
            .where("id", "=", id)
            .execute();
          return "failed";
        }
        const delay = backoffMs(attempts, options.backoff, random);
        await tx
          .updateTable("lookout_jobs")
          .set({
            state: "queued",
            run_at: sql<Date>`${now()} + ${ms(delay)}`,
            locked_by: null,
            locked_until: null,
            last_error: lastError,
          })
          .where("id", "=", id)
          .execute();
        return "retry";
      });
    },

    async get(id) {
      const r = await db.selectFrom("lookout_jobs").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toJob<J>(r as JobRow) : undefined;
    },

    async purge(before) {
      const r = await db
        .deleteFrom("lookout_jobs")
        .where("state", "in", ["done", "failed"])
        .where("finished_at", "<", before)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
