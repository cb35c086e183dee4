// Server configuration: every environment variable Lookout reads, validated once at start.
// The README's configuration table lists the same variables.
import { resolve } from "node:path";
import type { BillingMode, PlansFile } from "@lookout/schema";
import { z } from "zod";
import { defaultPlansPath, loadPlans } from "../billing/plans.js";

const bool = z.enum(["0", "1", "true", "false", "yes", "no", ""]).transform((v) => v === "1" || v === "true" || v === "yes");

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  LOOKOUT_DATA_DIR: z.string().default("data"),
  LOOKOUT_PGLITE_TEMPLATE: z.string().min(1).optional(),
  LOOKOUT_PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  LOOKOUT_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, "1 to 64 letters, digits and _ . : -")
    .default("lookout:"),
  CLICKHOUSE_URL: z
    .string()
    .url()
    .refine((u) => /^https?:$/.test(new URL(u).protocol), "an http:// or https:// URL (ClickHouse's HTTP interface)")
    .refine(
      (u) => /^\/?([A-Za-z_][A-Za-z0-9_]*)?\/?$/.test(new URL(u).pathname),
      "the path names the database: letters, digits, _",
    )
    .optional(),
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "the cluster's name in remote_servers: letters, digits, _")
    .optional(),
  CLICKHOUSE_SHARDS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .url()
            .refine((u) => /^https?:$/.test(new URL(u).protocol), "http:// or https:// URLs"),
        )
        .min(1, "at least one shard's URL"),
    )
    .optional(),
  LOOKOUT_INGEST_BACKLOG_ROWS: z.coerce.number().int().min(1000).default(2_000_000),
  LOOKOUT_MAIL_FROM: z.string().default("Lookout <no-reply@lookout.local>"),
  LOOKOUT_ADMIN_EMAIL: z.string().email().optional(),
  LOOKOUT_ADMIN_PASSWORD: z.string().min(10).max(256).optional(),
  LOOKOUT_SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24 * 14),
  LOOKOUT_TRUSTED_PROXIES: z.string().default(""),
  LOOKOUT_COOKIE_SECURE: bool.optional(),
  LOOKOUT_DEMO: bool.default(true),
  LOOKOUT_RATE_PER_IP: z.coerce.number().positive().default(50),
  LOOKOUT_RATE_PER_PROPERTY: z.coerce.number().positive().default(20_000),
  LOOKOUT_GEO_CITY_DB: z.string().min(1).optional(),
  LOOKOUT_DUCKDB_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  LOOKOUT_TIMELINE_MAX_EVENTS: z.coerce.number().int().min(0).max(1_000_000_000).default(120_000_000),
  LOOKOUT_BILLING: z.enum(["off", "stripe"]).default("off"),
  LOOKOUT_BILLING_PLANS: z.string().min(1).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_URL: z
    .string()
    .url()
    .refine((u) => /^https?:$/.test(new URL(u).protocol), "an http:// or https:// URL")
    .optional(),
  LOOKOUT_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** An empty, migrated PGlite database a new data directory's metadata starts as a copy of (tests). */
  pgliteTemplate: string | undefined;
  /**
   * The public origin, without a trailing slash. E-mailed links use it; unset, they use the
   * address the owner first signed in from (never a request's Host header). The same-origin
   * checks (sign-in calls, live socket) compare Origin with its host.
   */
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel, so several installations can share one Redis. */
  redisPrefix: string;
  /**
   * The ClickHouse event store (scale-out, DESIGN.md §1): http://user:password@host:8123/database
   * (database default "lookout"); unset, events go to DuckDB in the data directory.
   */
  clickhouseUrl: string | undefined;
  /**
   * A ClickHouse cluster (CLICKHOUSE_CLUSTER, CLICKHOUSE_SHARDS): its remote_servers name and each
   * shard's HTTP URL; the store keeps Distributed tables over per-shard ones. Unset: one node.
   */
  clickhouseCluster: { name: string; shards: string[] } | undefined;
  /** With ClickHouse: acknowledged events waiting in the local ingest log past which the collector answers 503. */
  ingestBacklogRows: number;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  sessionTtlMs: number;
  trustedProxies: string[];
  cookieSecure: boolean | undefined;
  demo: boolean;
  /** Collector token buckets, events per second (bursts of a few seconds' worth). */
  collectRate: { perIp: { perSecond: number; burst: number }; perProperty: { perSecond: number; burst: number } };
  /** An optional MaxMind-format city database; the country database ships with Lookout. */
  geoCityDb: string | undefined;
  /** DuckDB worker threads; unset: the store's default for this machine. */
  duckdbThreads: number | undefined;
  /** Largest property (events) whose visitor timeline the DuckDB store keeps for funnels; 0: none. */
  timelineMaxEvents: number;
  logLevel: z.infer<typeof EnvSchema>["LOOKOUT_LOG_LEVEL"];
  /** Billing (issue #24): off (self-hosted, no limits) or stripe, with the plans and Stripe's keys. */
  billing: BillingConfig;
};

export interface BillingConfig {
  mode: BillingMode;
  plans: PlansFile;
  /** With mode stripe: the secret key, the webhook signing secret and the API's base URL (a local one in tests). */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
}

function billingConfig(e: z.infer<typeof EnvSchema>): BillingConfig {
  const plans = loadPlans(e.LOOKOUT_BILLING_PLANS ? resolve(e.LOOKOUT_BILLING_PLANS) : defaultPlansPath());
  if (e.LOOKOUT_BILLING === "off") return { mode: "off", plans, stripe: undefined };
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError("invalid configuration:\n  LOOKOUT_BILLING=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
  }
  return {
    mode: "stripe",
    plans,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL },
  };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (
    (e.CLICKHOUSE_CLUSTER === undefined) !== (e.CLICKHOUSE_SHARDS === undefined) ||
    (e.CLICKHOUSE_CLUSTER && !e.CLICKHOUSE_URL)
  ) {
    throw new ConfigError(
      "invalid configuration:\n  CLICKHOUSE_CLUSTER and CLICKHOUSE_SHARDS: set both (with CLICKHOUSE_URL), or neither",
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.LOOKOUT_DATA_DIR),
    pgliteTemplate: e.LOOKOUT_PGLITE_TEMPLATE === undefined ? undefined : resolve(e.LOOKOUT_PGLITE_TEMPLATE),
    publicUrl: e.LOOKOUT_PUBLIC_URL?.replace(/\/$/, ""),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.LOOKOUT_REDIS_PREFIX,
    clickhouseUrl: e.CLICKHOUSE_URL,
    clickhouseCluster:
      e.CLICKHOUSE_CLUSTER && e.CLICKHOUSE_SHARDS ? { name: e.CLICKHOUSE_CLUSTER, shards: e.CLICKHOUSE_SHARDS } : undefined,
    ingestBacklogRows: e.LOOKOUT_INGEST_BACKLOG_ROWS,
    mailFrom: e.LOOKOUT_MAIL_FROM,
    adminEmail: e.LOOKOUT_ADMIN_EMAIL,
    adminPassword: e.LOOKOUT_ADMIN_PASSWORD,
    sessionTtlMs: e.LOOKOUT_SESSION_TTL_HOURS * 3_600_000,
    trustedProxies: e.LOOKOUT_TRUSTED_PROXIES.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    cookieSecure: e.LOOKOUT_COOKIE_SECURE,
    demo: e.LOOKOUT_DEMO,
    collectRate: {
      perIp: { perSecond: e.LOOKOUT_RATE_PER_IP, burst: e.LOOKOUT_RATE_PER_IP * 4 },
      perProperty: { perSecond: e.LOOKOUT_RATE_PER_PROPERTY, burst: e.LOOKOUT_RATE_PER_PROPERTY * 2 },
    },
    geoCityDb: e.LOOKOUT_GEO_CITY_DB,
    duckdbThreads: e.LOOKOUT_DUCKDB_THREADS,
    timelineMaxEvents: e.LOOKOUT_TIMELINE_MAX_EVENTS,
    logLevel: e.LOOKOUT_LOG_LEVEL,
    billing: (() => {
      try {
        return billingConfig(e);
      } catch (err) {
        throw err instanceof ConfigError ? err : new ConfigError((err as Error).message);
      }
    })(),
  };
}
