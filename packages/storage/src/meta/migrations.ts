// Versioned metadata migrations, run on every start. PGlite is Postgres, so one list serves both
// the embedded store and PostgreSQL. Append new migrations; never edit a shipped one.
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
type AnyDb = Kysely<any>;

const m0001_initial: Migration = {
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

/**
 * Small install-wide values by key. First: `public_url`, the address the owner first signed in
 * from, which e-mailed links use when LOOKOUT_PUBLIC_URL is not set (never a request's Host).
 */
const m0002_settings: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("settings")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};

/**
 * The persisted job queue (packages/storage/src/jobs): one row per job, claimed with row locks.
 * `key` is an optional idempotency key (NULLs never conflict).
 */
const m0003_jobs: Migration = {
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

/**
 * Settings and reports (#18): goals, shared links, report schedules with a send hour and the last
 * period sent, API keys' last use, and each session's address (for the sessions list).
 */
const m0004_settings_reports: Migration = {
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

/**
 * E-mailed reports (#18 §8): one row per (schedule, period, recipient), written before the mail
 * goes out ('sending') and marked 'sent' after, so the at-least-once job queue sends each
 * recipient's report once (reports/report-job.ts in the server says how a crash is handled).
 */
const m0005_report_deliveries: Migration = {
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

/**
 * Team (issue #20): an invitation keeps the address as typed (for its list), can be revoked, and
 * records who accepted it; a user remembers the account they last switched to, where the next
 * sign-in opens.
 */
const m0006_team: Migration = {
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

/**
 * Saved insights (#23): the 0001 table gains its public short id (8 random [A-Za-z0-9], unique),
 * a favourite flag, tags and a soft delete; insight_views keeps when each user last opened one.
 * Rows written before (none were: nothing wrote the table) get a short id from their id's hash.
 */
const m0007_insights: Migration = {
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

/**
 * Billing (#24): the 0001 subscription row gains what the quota ladder and the provider need
 * (billing anchor, interval, grace period and why, failed payment, cancellation); usage per
 * account and period (a complete period counted once), the e-mails sent per period and kind
 * (each threshold once), the provider's webhook event ids (replays ignored), and the invoices
 * the provider reported.
 */
const m0008_billing: Migration = {
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

export const META_MIGRATIONS: Record<string, Migration> = {
  "0001_initial": m0001_initial,
  "0002_settings": m0002_settings,
  "0003_jobs": m0003_jobs,
  "0004_settings_reports": m0004_settings_reports,
  "0005_report_deliveries": m0005_report_deliveries,
  "0006_team": m0006_team,
  "0007_insights": m0007_insights,
  "0008_billing": m0008_billing,
};

class InCodeProvider implements MigrationProvider {
  async getMigrations() {
    return META_MIGRATIONS;
  }
}

/**
 * Brings the store up to date. `schema` names the PostgreSQL schema the store lives in: Kysely
 * otherwise looks for its bookkeeping tables in every schema of the database, finds another
 * store's and skips creating its own (two stores in one database then failed to migrate).
 */
export async function migrateMeta(db: AnyDb, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new InCodeProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`metadata migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}
