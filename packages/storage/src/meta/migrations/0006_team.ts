// Metadata migration 0006_team (team). Shipped: never edit it; append a new one (migrations.ts).
import type { Migration } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * Team (issue #20): an invitation keeps the address as typed (for its list), can be revoked, and
 * records who accepted it; a user remembers the account they last switched to, where the next
 * sign-in opens.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable("invitations")
      .addColumn("email", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema.alterTable("invitations").addColumn("revoked_at", "timestamptz").execute();
    await db.schema.alterTable("invitations").addColumn("accepted_by", "text").execute();
    await db.schema.createIndex("invitations_account_idx").on("invitations").column("account_id").execute();
    await db.schema
      .alterTable("users")
      .addColumn("last_account_id", "text", (c) => c.references("accounts.id").onDelete("set null"))
      .execute();
  },
};
