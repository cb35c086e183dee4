// Metadata migration 0003_jobs (jobs). Shipped: never edit it; append a new one (migrations.ts).
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * The persisted job queue (packages/storage/src/jobs): one row per job, claimed with row locks.
 * `key` is an optional idempotency key (NULLs never conflict).
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    const now = sql`now()`;
    await db.schema
      .createTable("lookout_jobs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("payload", "jsonb", (c) => c.notNull())
      .addColumn("key", "text", (c) => c.unique())
      .addColumn("state", "text", (c) =>
        c.notNull().defaultTo("queued").check(sql`state in ('queued','running','done','failed')`),
      )
      .addColumn("run_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(5).check(sql`max_attempts >= 1`))
      .addColumn("locked_by", "text")
      .addColumn("locked_until", "timestamptz")
      .addColumn("last_error", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("finished_at", "timestamptz")
      .execute();
    await db.schema
      .createIndex("lookout_jobs_due_idx")
      .on("lookout_jobs")
      .columns(["name", "run_at"])
      .where(sql.ref("state"), "in", ["queued", "running"])
      .execute();
  },
};
