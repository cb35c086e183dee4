// Metadata migration 0001_initial (initial). Shipped: never edit it; append a new one (migrations.ts).
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

export const migration: Migration = {
  async up(db: AnyDb) {
    const now = sql`now()`;
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("email_norm", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema
      .createTable("accounts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema
      .createTable("memberships")
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('owner','admin','editor','viewer')`))
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint("memberships_pk", ["account_id", "user_id"])
      .execute();
    await db.schema.createIndex("memberships_user_idx").on("memberships").column("user_id").execute();
    await db.schema
      .createTable("invitations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("email_norm", "text", (c) => c.notNull())
      .addColumn("role", "text", (c) => c.notNull())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("invited_by", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("expires_at", "timestamptz", (c) => c.notNull())
      .addColumn("accepted_at", "timestamptz")
      .execute();
    await db.schema
      .createTable("properties")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("unique_id", "text", (c) => c.notNull().unique())
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("website_url", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("timezone", "text", (c) => c.notNull().defaultTo("UTC"))
      .addColumn("is_demo", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("settings", "jsonb", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex("properties_account_idx").on("properties").column("account_id").execute();
    await db.schema
      .createTable("auth_tokens")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("expires_at", "timestamptz", (c) => c.notNull())
      .addColumn("revoked_at", "timestamptz")
      .addColumn("last_used_at", "timestamptz")
      .addColumn("user_agent", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema.createIndex("auth_tokens_user_idx").on("auth_tokens").column("user_id").execute();
    await db.schema
      .createTable("password_resets")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("expires_at", "timestamptz", (c) => c.notNull())
      .addColumn("used_at", "timestamptz")
      .execute();
    await db.schema
      .createTable("api_keys")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("key_hash", "text", (c) => c.notNull().unique())
      .addColumn("prefix", "text", (c) => c.notNull())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("revoked_at", "timestamptz")
      .execute();
    await db.schema
      .createTable("insights")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("property_id", "text", (c) => c.notNull().references("properties.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("query", "jsonb", (c) => c.notNull())
      .addColumn("created_by", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema
      .createTable("report_schedules")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("property_id", "text", (c) => c.notNull().references("properties.id").onDelete("cascade"))
      .addColumn("frequency", "text", (c) => c.notNull())
      .addColumn("recipients", "jsonb", (c) => c.notNull())
      .addColumn("last_sent_at", "timestamptz")
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema
      .createTable("subscriptions")
      .addColumn("account_id", "text", (c) => c.primaryKey().references("accounts.id").onDelete("cascade"))
      .addColumn("plan", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("period_start", "timestamptz")
      .addColumn("period_end", "timestamptz")
      .addColumn("provider_customer_id", "text")
      .addColumn("provider_subscription_id", "text")
      .execute();
    await db.schema
      .createTable("mail_outbox")
      .addColumn("id", "serial", (c) => c.primaryKey())
      .addColumn("to_addr", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text_body", "text", (c) => c.notNull())
      .addColumn("html_body", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema
      .createTable("audit_log")
      .addColumn("id", "serial", (c) => c.primaryKey())
      .addColumn("account_id", "text")
      .addColumn("user_id", "text")
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("detail", "jsonb", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema
      .createTable("salts")
      .addColumn("day", "text", (c) => c.primaryKey())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
  },
};
