// The lock covers every stats read, by construction (issue #24 §3: "the account's dashboards and
// Stats API answer locked ... while collection goes on and settings, exports and billing stay
// reachable"). Every route the app registers (app.routeTable) must be in one of the two tables
// below, written by hand: LOCKED (reads the account's numbers; called here while the account is
// locked, each must answer 402 account_locked) or OPEN (with why). A new route without a row fails,
// and so does a route whose own declaration (route.ts `readsStats`) disagrees with its row. Open
// routes on the account's ids are called too: none may answer 402. The live socket and the
// scheduled report job, which are not routes of the table, are checked below them.

import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EventRow, eventRow, SocketCloseCode } from "@lookout/schema";
import { reportSchedulesRepo } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Mail } from "../mail/mailer.js";
import { reportJobHandlers } from "../reports/report-job.js";
import { createReportService } from "../reports/service.js";
import { createStatsService } from "../stats/service.js";
import { createTestApp, type TestApp } from "../test-support.js";
import { periodsAround } from "./periods.js";
import { TEST_PLANS } from "./test-plans.js";

const DAY = 86_400_000;
const TRENDS = { kind: "trends", period: "last_30_days", interval: "day", series: [{ event: "pageview" }] };
const STATS = "period=last_30_days&metrics=visitors";

interface Ids {
  site: string;
  acc: string;
  insight: string;
}
type Call = (ids: Ids) => { url: string; body?: unknown };

/** Reads of the account's numbers: 402 account_locked while it is locked. */
const LOCKED: Record<string, Call> = {
  "GET /api/v1/stats/aggregate": (c) => ({ url: `/api/v1/stats/aggregate?property_id=${c.site}&${STATS}` }),
  "GET /api/v1/stats/timeseries": (c) => ({ url: `/api/v1/stats/timeseries?property_id=${c.site}&${STATS}` }),
  "GET /api/v1/stats/breakdown": (c) => ({
    url: `/api/v1/stats/breakdown?property_id=${c.site}&${STATS}&dimension=page`,
  }),
  "GET /api/v1/stats/realtime/visitors": (c) => ({ url: `/api/v1/stats/realtime/visitors?property_id=${c.site}` }),
  "POST /api/v1/properties/:id/insights/query": (c) => ({ url: `/api/v1/properties/${c.site}/insights/query`, body: TRENDS }),
  "POST /api/v1/properties/:id/insights/actors": (c) => ({
    url: `/api/v1/properties/${c.site}/insights/actors`,
    body: { spec: TRENDS, at: {} },
  }),
  "GET /api/v1/properties/:id/insights": (c) => ({ url: `/api/v1/properties/${c.site}/insights` }),
  "GET /api/v1/insights/:shortId": (c) => ({ url: `/api/v1/insights/${c.insight}` }),
  "GET /api/v1/insights/:shortId/result": (c) => ({ url: `/api/v1/insights/${c.insight}/result` }),
  "GET /api/v1/properties/:id/visitors": (c) => ({ url: `/api/v1/properties/${c.site}/visitors` }),
  "GET /api/v1/properties/:id/visitors/:clientId": (c) => ({ url: `/api/v1/properties/${c.site}/visitors/v1` }),
  "GET /api/v1/properties/:id/visitors/:clientId/events": (c) => ({ url: `/api/v1/properties/${c.site}/visitors/v1/events` }),
  // A report e-mail carries the dashboard's numbers (the scheduled job is checked below).
  "POST /api/v1/properties/:id/reports/send-now": (c) => ({
    url: `/api/v1/properties/${c.site}/reports/send-now`,
    body: { frequency: "weekly", recipients: ["r@example.com"] },
  }),
};

/** Everything else, grouped by why it stays open while locked. */
const OPEN: Record<string, readonly string[]> = {
  "collection goes on": ["OPTIONS /api/event", "POST /api/event", "POST /api/batch", "GET /js/script.js"],
  "exports: a person can always take their data": [
    "GET /api/v1/properties/:id/export",
    "GET /api/v1/properties/:id/visitors.csv",
    "GET /api/v1/properties/:id/visitors/:clientId/export",
    "DELETE /api/v1/properties/:id/visitors/:clientId",
  ],
  "settings: properties, goals, shared links, report schedules, API keys (setup facts, no dashboard numbers)": [
    "POST /static-api/get-properties",
    "GET /api/v1/properties",
    "POST /api/v1/properties",
    "GET /api/v1/properties/:id",
    "PATCH /api/v1/properties/:id",
    "DELETE /api/v1/properties/:id",
    "POST /api/v1/properties/:id/reset",
    "GET /api/v1/properties/:id/install-status",
    "GET /api/v1/properties/:id/client-address",
    "GET /api/v1/properties/:id/goals",
    "POST /api/v1/properties/:id/goals",
    "DELETE /api/v1/properties/:id/goals/:goalId",
    "GET /api/v1/properties/:unique_id/shared-links",
    "POST /api/v1/properties/:unique_id/shared-links",
    "DELETE /api/v1/properties/:unique_id/shared-links/:id",
    "GET /api/v1/properties/:id/reports",
    "PUT /api/v1/properties/:id/reports",
    "GET /api/v1/api-keys",
    "POST /api/v1/api-keys",
    "DELETE /api/v1/api-keys/:id",
  ],
  "saved insights' definitions being edited (no numbers in the answer; reading one is locked)": [
    "POST /api/v1/properties/:id/insights",
    "PATCH /api/v1/insights/:shortId",
    "DELETE /api/v1/insights/:shortId",
    "POST /api/v1/insights/:shortId/duplicate",
    "POST /api/v1/insights/:shortId/restore",
  ],
  "team, account and billing": [
    "GET /api/v1/accounts",
    "POST /api/v1/accounts",
    "PATCH /api/v1/accounts/:accountId",
    "DELETE /api/v1/accounts/:accountId",
    "POST /api/v1/accounts/:accountId/switch",
    "POST /api/v1/accounts/:accountId/transfer-ownership",
    "GET /api/v1/accounts/:accountId/activity",
    "GET /api/v1/accounts/:accountId/members",
    "PATCH /api/v1/accounts/:accountId/members/:userId",
    "DELETE /api/v1/accounts/:accountId/members/:userId",
    "POST /api/v1/accounts/:accountId/leave",
    "GET /api/v1/accounts/:accountId/invitations",
    "POST /api/v1/accounts/:accountId/invitations",
    "DELETE /api/v1/accounts/:accountId/invitations/:invitationId",
    "POST /api/v1/accounts/:accountId/invitations/:invitationId/resend",
    "GET /api/v1/invitations/:token",
    "POST /api/v1/invitations/accept",
    "GET /api/v1/accounts/:accountId/billing",
    "GET /api/v1/accounts/:accountId/billing/notice",
    "POST /api/v1/accounts/:accountId/billing/checkout",
    "POST /api/v1/accounts/:accountId/billing/portal",
    "POST /api/v1/billing/webhook",
  ],
  "the user, sign-in and pages (no account's numbers)": [
    "POST /wp-json/custom/v1/login",
    "POST /wp-json/custom/v1/recover-password",
    "POST /api/auth/reset-password",
    "POST /api/auth/logout",
    "GET /logout",
    "GET /api/auth/me",
    "PATCH /api/v1/me",
    "POST /api/v1/me/password",
    "GET /api/v1/me/sessions",
    "DELETE /api/v1/me/sessions/:id",
    "GET /healthz",
    "GET /api/v1/openapi.json",
    "GET /api/docs",
    "GET /demo/demo.css",
    "GET /demo/demo.js",
    "GET /demo/site/:slug?",
    "GET /demo",
    "GET /api/v1/reports/unsubscribe",
    "POST /api/v1/reports/unsubscribe",
  ],
  // The share page's numbers come from the Stats API (locked above) with the link's credential.
  "a shared link's own page and its password": ["GET /share/:slug", "GET /api/v1/share/:slug", "POST /api/v1/share/:slug/auth"],
  // Checked below: closed with 4402 while locked.
  "the live socket (its own check)": ["GET /api"],
};

/** An anchor a year back on the day 10 days ago: the current period started 10 days ago. */
function anchorTenDaysIn(now: Date): Date {
  const d = new Date(now.getTime() - 10 * DAY);
  return new Date(Date.UTC(d.getUTCFullYear() - 1, d.getUTCMonth(), Math.min(d.getUTCDate(), 28)));
}

describe("the lock over quota covers every stats read", () => {
  let t: TestApp;
  let token: string;
  const ids = {} as Ids;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "lookout-plans-"));
    writeFileSync(join(dir, "plans.json"), JSON.stringify(TEST_PLANS));
    t = await createTestApp("pglite", {
      env: {
        LOOKOUT_BILLING: "stripe",
        LOOKOUT_BILLING_PLANS: join(dir, "plans.json"),
        STRIPE_SECRET_KEY: "sk_test_lookout",
        STRIPE_WEBHOOK_SECRET: "whsec_test",
        // Nothing here calls the provider; a closed port if something did.
        STRIPE_API_URL: "http://127.0.0.1:9",
      },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const owner = await t.user("owner@example.com");
    ids.acc = owner.accountId;
    token = (await t.login(owner.email, owner.password)).token;
    ids.site = await t.property(ids.acc, "https://shop.test", { name: "Shop" });
    const saved = await call("POST", `/api/v1/properties/${ids.site}/insights`, { name: "Views", spec: TRENDS });
    expect(saved.statusCode, saved.body).toBe(201);
    ids.insight = saved.json().short_id;
    const put = await call("PUT", `/api/v1/properties/${ids.site}/reports`, {
      frequency: "weekly",
      recipients: ["r@example.com"],
    });
    expect(put.statusCode, put.body).toBe(200);

    // Two complete periods over the free plan's 100 × 1.1, a grace period that began 8 days ago: locked.
    const now = new Date();
    const anchor = anchorTenDaysIn(now);
    await t.meta.billing.upsertSubscription(ids.acc, "free", { anchor });
    const [pen, last] = periodsAround(anchor, now, 2).boundaries as [number, number];
    const ev = (ts: number, i: number): EventRow =>
      eventRow({
        property: ids.site,
        ts: new Date(ts),
        name: "pageview",
        visitor_id: `v${i}`,
        session_id: `s${i}`,
        hostname: "shop.test",
      });
    const rows: EventRow[] = [];
    for (let i = 0; i < 120; i++) rows.push(ev(pen + i * 60_000, i), ev(last + i * 60_000, i));
    await t.events.append(rows);
    await t.billing.state(ids.acc, new Date(now.getTime() - 8 * DAY));
    t.billing.forget(ids.acc);
    expect((await t.billing.notice(ids.acc)).status).toBe("locked");
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as "GET",
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  it("has a row for every registered route, and each route's declaration matches its row", () => {
    const open = new Set(Object.values(OPEN).flat());
    const registered = t.app.routeTable.map((r) => ({ key: `${r.method} ${r.url}`, readsStats: r.doc?.readsStats === true }));
    const keys = new Set(registered.map((r) => r.key));
    // Routes nobody has classified, and rows whose route is gone.
    expect(registered.filter((r) => !(r.key in LOCKED) && !open.has(r.key)).map((r) => r.key)).toEqual([]);
    expect([...Object.keys(LOCKED), ...open].filter((k) => !keys.has(k))).toEqual([]);
    expect(Object.keys(LOCKED).filter((k) => open.has(k))).toEqual([]);
    // The declaration is what the server enforces: it must say what the table says.
    expect(registered.filter((r) => r.readsStats !== r.key in LOCKED).map((r) => r.key)).toEqual([]);
  });

  it.each(Object.entries(LOCKED))("%s answers 402 account_locked while the account is locked", async (key, make) => {
    const { url, body } = make(ids);
    const method = key.split(" ")[0] as string;
    const r = await call(method, url, body);
    expect(r.statusCode, r.body).toBe(402);
    expect(r.json()).toMatchObject({ code: "account_locked", message: expect.stringMatching(/upgrade/i) });
  });

  it("answers the open routes on the account's own ids without 402", async () => {
    const seen: string[] = [];
    for (const key of Object.values(OPEN).flat()) {
      const [method, url] = key.split(" ") as [string, string];
      // Reads of the locked account's settings, team and billing: their own answer, never 402.
      if (method !== "GET" || !/\/(properties\/:(id|unique_id)|accounts\/:accountId)(\/|$)/.test(url)) continue;
      const real = url
        .replace(":unique_id", ids.site)
        .replace(":id", ids.site)
        .replace(":accountId", ids.acc)
        .replace(":clientId", "v1");
      const r = await call(method, real);
      // Its own answer (an unknown visitor's export is a 404), never the lock's.
      expect(r.statusCode, `${key}: ${r.body.slice(0, 200)}`).not.toBe(402);
      expect(r.statusCode, `${key}: ${r.body.slice(0, 200)}`).toBeLessThan(500);
      seen.push(key);
    }
    expect(seen.length).toBeGreaterThan(10);
  });

  it("closes the live socket with 4402 instead of subscribing a locked account", async () => {
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    const messages: string[] = [];
    ws.on("message", (m) => messages.push(String(m)));
    ws.on("open", () => ws.send(JSON.stringify({ type: "agentInfo", data: { customerId: ids.acc } })));
    const code = await new Promise<number>((resolve) => ws.on("close", (c) => resolve(c)));
    expect(code).toBe(SocketCloseCode.accountLocked);
    expect(messages).toEqual([]);
  });

  it("sends no scheduled report for a locked account, and sends it once unlocked", async () => {
    const sent: Mail[] = [];
    const mailer = { send: async (m: Mail) => void sent.push(m), close: async () => {} };
    const stats = createStatsService({ reads: t.reads, presence: t.presence, meta: t.meta });
    const config = { publicUrl: "https://stats.example.com", port: 0 } as Parameters<typeof createReportService>[0]["config"];
    const reports = createReportService({ config, meta: t.meta, mailer, auth: t.auth, billing: t.billing, stats });
    const handlers = reportJobHandlers({ meta: t.meta, billing: t.billing, mailer, reports });
    const property = await t.meta.properties.findByUniqueId(ids.site);
    const [schedule] = await reportSchedulesRepo(t.meta.db).listForProperty(property?.id as string);
    expect(schedule).toBeDefined();
    const from = new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10);
    const to = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const job = {
      payload: { scheduleId: schedule?.id, property: ids.site, period: "2000-W01", from, to, recipient: "r@example.com" },
    } as Parameters<(typeof handlers)["report.send"]>[0];
    const ctx = { signal: new AbortController().signal, workerId: "test" };
    await handlers["report.send"](job, ctx);
    expect(sent).toHaveLength(0);
    // An upgrade unlocks at once (what the webhook or billing:plan does): the same job now sends.
    await t.meta.billing.upsertSubscription(ids.acc, "max", { plan: "max" });
    t.billing.forget(ids.acc);
    await handlers["report.send"](job, ctx);
    expect(sent.map((m) => m.to)).toEqual(["r@example.com"]);
  });

  it("closes an open live socket once its account locks (the recheck), with 4402", async () => {
    // Unlocked by the test above (the max plan): the socket subscribes.
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    const first = new Promise<string>((resolve) => ws.once("message", (m) => resolve(String(m))));
    const closed = new Promise<number>((resolve) => ws.on("close", (c) => resolve(c)));
    ws.on("open", () => ws.send(JSON.stringify({ type: "agentInfo", data: { customerId: ids.acc } })));
    expect(JSON.parse(await first)).toMatchObject({ type: "initial_customers" });
    // Back on the free plan with the grace period over: locked again.
    await t.meta.billing.upsertSubscription(ids.acc, "free", { plan: "free", grace_ends_at: null, grace_reason: null });
    await t.billing.state(ids.acc, new Date(Date.now() - 8 * DAY));
    t.billing.forget(ids.acc);
    expect(await closed).toBe(SocketCloseCode.accountLocked);
  }, 30_000);
});
