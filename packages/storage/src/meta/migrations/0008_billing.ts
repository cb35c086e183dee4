// Metadata migration 0008_billing (billing). Shipped: never edit it; append a new one (migrations.ts).
import { type Migration, sql } from "kysely";
import type { AnyDb } from "./any-db.js";

/**
 * Billing (#24): the 0001 subscription row gains what the quota ladder and the provider need
 * (billing anchor, interval, grace period and why, failed payment, cancellation); usage per
 * account and period (a complete period counted once), the e-mails sent per period and kind
 * (each threshold once), the provider's webhook event ids (replays ignored), and the invoices
 * the provider reported.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    const now = sql`now()`;
    await db.schema.alterTable("subscriptions").addColumn("interval", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("anchor", "timestamptz").execute();
    await db.schema.alterTable("subscriptions").addColumn("grace_ends_at", "timestamptz").execute();
    await db.schema.alterTable("subscriptions").addColumn("grace_reason", "text").execute();
    await db.schema
      .alterTable("subscriptions")
      .addColumn("payment_failed", "boolean", (c) => c.notNull().defaultTo(false))
      .execute();
    await db.schema
      .alterTable("subscriptions")
      .addColumn("cancel_at_period_end", "boolean", (c) => c.notNull().defaultTo(false))
      .execute();
    await db.schema
      .alterTable("subscriptions")
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex("subscriptions_customer_idx").on("subscriptions").column("provider_customer_id").execute();
    await db.schema
      .createTable("billing_usage")
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("period_start", "timestamptz", (c) => c.notNull())
      .addColumn("period_end", "timestamptz", (c) => c.notNull())
      .addColumn("events", "bigint", (c) => c.notNull())
      .addColumn("counted_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint("billing_usage_pk", ["account_id", "period_start"])
      .execute();
    await db.schema
      .createTable("billing_mails")
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("period_start", "timestamptz", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("sent_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint("billing_mails_pk", ["account_id", "period_start", "kind"])
      .execute();
    await db.schema
      .createTable("billing_webhook_events")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema
      .createTable("billing_invoices")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("number", "text")
      .addColumn("amount", "bigint", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("url", "text")
      .addColumn("created_at", "timestamptz", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("billing_invoices_account_idx")
      .on("billing_invoices")
      .columns(["account_id", "created_at"])
      .execute();
  },
};
