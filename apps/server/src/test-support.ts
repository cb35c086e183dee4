// Test support: a fully wired app on a real metadata store (PGlite in a temp dir, or a fresh
// schema on the machine's PostgreSQL), driven through Fastify's inject.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEnricher, createGeoLookup } from "@lookout/ingest";
import { type EventStore, type MetaStore, memoryLiveBus, openDuckDbEventStore, openMetaStore } from "@lookout/storage";
import { requirePostgres } from "@lookout/storage/test-services";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { createUserWithAccount } from "./accounts/provision.js";
import { buildApp } from "./app.js";
import { createAuthService } from "./auth/auth-service.js";
import { createCollector } from "./collect/collector.js";
import { loadConfig } from "./config/config.js";
import { Presence } from "./live/presence.js";
import { type Mailer, outboxMailer } from "./mail/mailer.js";

export type Backend = "pglite" | "postgres";

export interface TestApp {
  app: FastifyInstance;
  meta: MetaStore;
  events: EventStore;
  presence: Presence;
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
  opts: { mailer?: Mailer; env?: Record<string, string>; rollupDelayMs?: number } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), "lookout-app-"));
  let dropSchema: (() => Promise<void>) | undefined;
  let meta: MetaStore;
  if (backend === "pglite") {
    meta = await openMetaStore({ kind: "pglite", dir: join(dir, "meta") });
  } else {
    const url = await requirePostgres();
    const schema = `t_${randomBytes(6).toString("hex")}`;
    meta = await openMetaStore({ kind: "postgres", url, schema });
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  }
  const config = loadConfig({ LOOKOUT_DATA_DIR: dir, LOOKOUT_LOG_LEVEL: "silent", ...opts.env });
  const mail: string[] = [];
  const mailer = opts.mailer ?? outboxMailer(meta, (line) => mail.push(line));
  const auth = createAuthService({ meta, mailer, sessionTtlMs: config.sessionTtlMs });
  const presence = new Presence(memoryLiveBus());
  await presence.start();
  const events = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: opts.rollupDelayMs ?? 0, readers: 2 });
  const enricher = createEnricher({ saltStore: meta.salts, geo: createGeoLookup() });
  await enricher.geo.ready();
  const collector = createCollector({ meta, events, enricher, presence }, { maxDelayMs: 1 });
  const app = await buildApp({ config, meta, mailer, auth, presence, events, collector }, { webDist: join(dir, "no-web") });
  return {
    app,
    meta,
    events,
    presence,
    mail,
    async close() {
      presence.stop();
      await app.close();
      await collector.drain();
      await events.close();
      await meta.close();
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
