// Metadata migration 0004_settings_reports (settings reports). Shipped: never edit it; append a new one (migrations.ts).
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * Settings and reports (#18): goals, shared links, report schedules with a send hour and the last
 * period sent, API keys' last use, and each session's address (for the sessions list).
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    const now = sql`now()`;
    await db.schema
      .createTable("goals")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("property_id", "text", (c) => c.notNull().references("properties.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('event','page')`))
      // The custom event's name (kind 'event') or the path pattern with `*` (kind 'page').
      .addColumn("match", "text", (c) => c.notNull())
      .addColumn("display_name", "text", (c) => c.notNull())
      .addColumn("currency", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addUniqueConstraint("goals_property_kind_match", ["property_id", "kind", "match"])
      .execute();
    await db.schema
      .createTable("shared_links")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("property_id", "text", (c) => c.notNull().references("properties.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text")
      .addColumn("expires_at", "timestamptz")
      .addColumn("created_by", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addUniqueConstraint("shared_links_property_name", ["property_id", "name"])
      .execute();
    await db.schema
      .alterTable("report_schedules")
      .addColumn("send_hour", "integer", (c) => c.notNull().defaultTo(9))
      .execute();
    // e.g. "2026-W47" or "2026-11": the last period whose report went out to every recipient.
    await db.schema.alterTable("report_schedules").addColumn("last_sent_period", "text").execute();
    await db.schema
      .createIndex("report_schedules_property_frequency")
      .on("report_schedules")
      .columns(["property_id", "frequency"])
      .unique()
      .execute();
    await db.schema.alterTable("api_keys").addColumn("last_used_at", "timestamptz").execute();
    await db.schema
      .alterTable("auth_tokens")
      .addColumn("ip", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema.createIndex("audit_log_account_idx").on("audit_log").columns(["account_id", "created_at"]).execute();
  },
};
