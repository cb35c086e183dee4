// Metadata migration 0005_report_deliveries (report deliveries). Shipped: never edit it; append a new one (migrations.ts).
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * E-mailed reports (#18 §8): one row per (schedule, period, recipient), written before the mail
 * goes out ('sending') and marked 'sent' after, so the at-least-once job queue sends each
 * recipient's report once (reports/report-job.ts in the server says how a crash is handled).
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("report_deliveries")
      .addColumn("schedule_id", "text", (c) => c.notNull().references("report_schedules.id").onDelete("cascade"))
      .addColumn("period", "text", (c) => c.notNull())
      // Lower-cased: unsubscribe and dedup compare addresses ignoring case.
      .addColumn("recipient", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('sending','sent','failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("sent_at", "timestamptz")
      .addPrimaryKeyConstraint("report_deliveries_pk", ["schedule_id", "period", "recipient"])
      .execute();
  },
};
