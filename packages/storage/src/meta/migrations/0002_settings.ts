// Metadata migration 0002_settings (settings). Shipped: never edit it; append a new one (migrations.ts).
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * Small install-wide values by key. First: `public_url`, the address the owner first signed in
 * from, which e-mailed links use when LOOKOUT_PUBLIC_URL is not set (never a request's Host).
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("settings")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
