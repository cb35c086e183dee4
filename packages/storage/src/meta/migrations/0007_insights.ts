// Metadata migration 0007_insights (insights). Shipped: never edit it; append a new one (migrations.ts).
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * Saved insights (#23): the 0001 table gains its public short id (8 random [A-Za-z0-9], unique),
 * a favourite flag, tags and a soft delete; insight_views keeps when each user last opened one.
 * Rows written before (none were: nothing wrote the table) get a short id from their id's hash.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("insights").addColumn("short_id", "text").execute();
    await sql`update insights set short_id = substr(md5(id), 1, 8) where short_id is null`.execute(db);
    await db.schema
      .alterTable("insights")
      .alterColumn("short_id", (c) => c.setNotNull())
      .execute();
    await db.schema
      .alterTable("insights")
      .addColumn("favourite", "boolean", (c) => c.notNull().defaultTo(false))
      .execute();
    await db.schema
      .alterTable("insights")
      .addColumn("tags", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .execute();
    await db.schema.alterTable("insights").addColumn("deleted_at", "timestamptz").execute();
    await db.schema.createIndex("insights_short_id").on("insights").column("short_id").unique().execute();
    await db.schema.createIndex("insights_property_idx").on("insights").columns(["property_id", "updated_at"]).execute();
    await db.schema
      .createTable("insight_views")
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("insight_id", "text", (c) => c.notNull().references("insights.id").onDelete("cascade"))
      .addColumn("viewed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("insight_views_pk", ["user_id", "insight_id"])
      .execute();
  },
};
