// Test support: a fully wired app, built by the server's own composition root (services.ts), on a
// real metadata store (PGlite in a temp dir, or a fresh schema on the machine's PostgreSQL),
// driven through Fastify's inject.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventStore, MetaConfig, MetaStore } from "@lookout/storage";
import { pgliteTemplate, requirePostgres } from "@lookout/storage/test-services";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { createUserWithAccount } from "./accounts/provision.js";
import { buildApp } from "./app.js";
import type { AuthService } from "./auth/auth-service.js";
import type { BillingService } from "./billing/service.js";
import { loadConfig } from "./config/config.js";
import type { EventReads } from "./event-reads/fair-reads.js";
import type { Presence } from "./live/presence.js";
import { type Mailer, outboxMailer } from "./mail/mailer.js";
import { createServices } from "./services.js";

export type Backend = "pglite" | "postgres";

export interface TestApp {
  app: FastifyInstance;
  meta: MetaStore;
  events: EventStore;
  /** The app's fair reads of the event store (its queue's load per account). */
  reads: EventReads;
  /** The app's auth service (the one rule for e-mailed links). */
  auth: AuthService;
  presence: Presence;
  /** The app's own billing service (its state and usage check with a chosen clock). */
  billing: BillingService;
  mail: string[];
  close(): Promise<void>;
  user(email: string, password?: string): Promise<{ id: string; accountId: string; email: string; password: string }>;
  /** A property of the account (name from the URL's host, UTC unless told); its unique_id. */
  property(
    accountId: string,
    websiteUrl: string,
    more?: Partial<Omit<PropertyInput, "accountId" | "websiteUrl">>,
  ): Promise<string>;
  login(
    email: string,
    password: string,
  ): Promise<{ token: string; accountId: string; accountId2: string; cookies: Record<string, string> }>;
}

type PropertyInput = Parameters<MetaStore["properties"]["create"]>[0];

export async function createTestApp(
  backend: Backend,
  opts: {
    mailer?: Mailer;
    env?: Record<string, string>;
    rollupDelayMs?: number;
    /** The built web app to serve (web/routes.ts WEB_DIST); none by default. */
    webDist?: string;
    /**
     * Open the event store as the server does (appends through its ingest log, delivered in the
     * background) rather than in-process with synchronous appends, for tests of the log itself.
     */
    ingestLog?: boolean;
  } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), "lookout-app-"));
  let dropSchema: (() => Promise<void>) | undefined;
  let metaConfig: MetaConfig | undefined;
  if (backend === "postgres") {
    const url = await requirePostgres();
    const schema = `t_${randomBytes(6).toString("hex")}`;
    metaConfig = { kind: "postgres", url, schema };
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  }
  // The suite's empty metadata database (scripts/test-global-setup.ts), copied instead of created.
  const { template } = pgliteTemplate();
  const config = loadConfig({
    LOOKOUT_DATA_DIR: dir,
    LOOKOUT_LOG_LEVEL: "silent",
    ...(template ? { LOOKOUT_PGLITE_TEMPLATE: template } : {}),
    ...opts.env,
  });
  const mail: string[] = [];
  // The same composition root as the server; only the stores' places and the mailer differ.
  const services = await createServices(config, {
    ...(metaConfig ? { meta: metaConfig } : {}),
    mailer: (meta) => opts.mailer ?? outboxMailer(meta, (line) => mail.push(line)),
    ...(opts.ingestLog ? {} : { eventsInProcess: { rollupDelayMs: opts.rollupDelayMs ?? 0, readers: 2 } }),
    collectMaxDelayMs: 1,
    lock: false,
  });
  const { meta, events, presence } = services;
  const app = await buildApp(services, { webDist: opts.webDist ?? join(dir, "no-web") });
  return {
    app,
    meta,
    events,
    reads: services.reads,
    auth: services.auth,
    presence,
    billing: services.billing,
    mail,
    async close() {
      await app.close();
      await services.close();
      await dropSchema?.();
      rmSync(dir, { recursive: true, force: true });
    },
    async user(email, password = "a-good-long-password") {
      const u = await createUserWithAccount(meta, { email, password });
      return { id: u.user.id, accountId: u.accountId, email, password };
    },
    async property(accountId, websiteUrl, more = {}) {
      const name = more.name ?? (websiteUrl ? new URL(websiteUrl).host : "Blank");
      const input = { ...more, name, timezone: more.timezone ?? "UTC", accountId, websiteUrl };
      return (await meta.properties.create(input)).unique_id;
    },
    async login(email, password) {
      const r = await app.inject({ method: "POST", url: "/wp-json/custom/v1/login", payload: { username: email, password } });
      if (r.statusCode !== 200) throw new Error(`login failed: ${r.statusCode} ${r.body}`);
      const cookies = Object.fromEntries(r.cookies.map((c) => [c.name, c.value]));
      return { ...r.json(), cookies };
    },
  };
}

/**
 * `store` with every query() recorded (its SQL and parameters, in order): what a cache or a shared
 * read is there to save. Empty `queries` (length = 0) to start a count.
 */
export function countQueries<S extends EventStore>(inner: S): { store: S; queries: string[] } {
  const queries: string[] = [];
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === "query")
        return (...args: Parameters<EventStore["query"]>) => {
          queries.push(`${args[0].sql} ${JSON.stringify(args[0].params)}`);
          return target.query(...args);
        };
      const v = Reflect.get(target, key, receiver);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { store, queries };
}
