// Billing end to end with LOOKOUT_BILLING=stripe, the stripe package talking to a local
// Stripe-like server (stripe-fake.ts) and webhooks signed by the package: usage counted from the
// event store in the account's periods, the ladder to grace and lock over real stored events, a
// locked account still collecting while its dashboards answer 402 (settings and exports open),
// an upgrade through Checkout unlocking at once with the events sent while locked in the
// dashboard, webhooks (bad signature 400, replay ignored), a failed payment's grace, the portal's
// cancellation, property and member limits, and who may call what.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BillingAnswer, type EventRow, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";
import { periodsAround } from "./periods.js";
import { type FakeStripe, startFakeStripe } from "./stripe-fake.js";
import { TEST_PLANS } from "./test-plans.js";

const DAY = 86_400_000;
const SECRET = "whsec_test_secret";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** An anchor a year back on the day 10 days ago: the current period started 10 days ago, with a year of periods before. */
function anchorTenDaysIn(now: Date): Date {
  const d = new Date(now.getTime() - 10 * DAY);
  return new Date(Date.UTC(d.getUTCFullYear() - 1, d.getUTCMonth(), Math.min(d.getUTCDate(), 28)));
}

describe("billing with Stripe", () => {
  let t: TestApp;
  let stripe: FakeStripe;
  const tokens: Record<string, string> = {};
  let acc: string;
  let site: string;
  let bounds: number[];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "lookout-plans-"));
    writeFileSync(join(dir, "plans.json"), JSON.stringify(TEST_PLANS));
    stripe = await startFakeStripe({ webhookSecret: SECRET });
    t = await createTestApp("pglite", {
      env: {
        LOOKOUT_BILLING: "stripe",
        LOOKOUT_BILLING_PLANS: join(dir, "plans.json"),
        STRIPE_SECRET_KEY: "sk_test_lookout",
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_API_URL: stripe.url,
        LOOKOUT_PUBLIC_URL: "https://stats.example.com",
      },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const addr = t.app.server.address() as { port: number };
    stripe.setWebhookUrl(`http://127.0.0.1:${addr.port}/api/v1/billing/webhook`);
    const alice = await t.user("alice@example.com");
    acc = alice.accountId;
    tokens.owner = (await t.login(alice.email, alice.password)).token;
    for (const role of ["viewer", "admin"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(acc, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
    }
    const bob = await t.user("bob@example.com");
    tokens.bob = (await t.login(bob.email, bob.password)).token;
    site = await t.property(acc, "https://shop.test", { name: "Shop" });

    // Two complete periods at or over 110 (the free plan's 100 × 1.1), 85 so far in the current one.
    const now = new Date();
    const anchor = anchorTenDaysIn(now);
    await t.meta.billing.upsertSubscription(acc, "free", { anchor });
    bounds = periodsAround(anchor, now, 2).boundaries;
    const [pen, last, cur] = bounds as [number, number, number];
    const ev = (ts: number, name: string, i: number): EventRow =>
      eventRow({ property: site, ts: new Date(ts), name, visitor_id: `v${i}`, session_id: `s${i}`, hostname: "shop.test" });
    const rows: EventRow[] = [];
    for (let i = 0; i < 120; i++) rows.push(ev(pen + i * 60_000, "pageview", i));
    for (let i = 0; i < 40; i++) rows.push(ev(pen + i * 60_000 + 1000, "engagement", i)); // never billable
    for (let i = 0; i < 115; i++) rows.push(ev(last + i * 60_000, "signup", i));
    rows.push(ev(last - 1000, "pageview", 999)); // the last second of the penultimate period: 121 there
    for (let i = 0; i < 85; i++) rows.push(ev(cur + i * 60_000, "pageview", i));
    await t.events.append(rows);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });

  const call = (method: "GET" | "POST", url: string, who = "owner", payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[who]}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const billing = async (): Promise<BillingAnswer> => {
    const r = await call("GET", `/api/v1/accounts/${acc}/billing`);
    expect(r.statusCode).toBe(200);
    return r.json();
  };
  const aggregate = () => call("GET", `/api/v1/stats/aggregate?property_id=${site}&period=all_time&metrics=pageviews,events`);

  it("counts billable events per period at the anchor and starts the grace period after two periods over the margin", async () => {
    const b = await billing();
    expect(b).toMatchObject({
      mode: "stripe",
      plan: "free",
      status: "grace",
      limits: { events: 100, properties: 2, members: 2 },
    });
    expect(b.usage).toMatchObject({ events: 85, period_start: new Date(bounds[2] as number).toISOString(), percent: 85 });
    expect(b.usage.by_property).toEqual([{ property_id: site, name: "Shop", events: 85 }]);
    expect(b.history.slice(-2).map((h) => [h.period_start, h.events, h.over_margin])).toEqual([
      [new Date(bounds[0] as number).toISOString(), 121, true],
      [new Date(bounds[1] as number).toISOString(), 115, true],
    ]);
    expect(b.thresholds_reached).toEqual([80]);
    expect(b.notice?.kind).toBe("grace");
    expect(Date.parse(b.grace_ends_at ?? "") - Date.now()).toBeGreaterThan(6.9 * DAY);
    expect(b.plans.map((p) => p.id)).toEqual(["free", "pro", "max"]);
    expect(b.suggested_plan).toBe("pro");
    // The dashboards work during the grace period.
    expect((await aggregate()).statusCode).toBe(200);
  });

  it("locks the dashboards once the grace period is over, while collection, settings and exports go on", async () => {
    // The grace period as if it had started 8 days ago (the same current period: it began 10 days ago).
    await t.meta.billing.upsertSubscription(acc, "free", { grace_ends_at: null, grace_reason: null });
    await t.billing.state(acc, new Date(Date.now() - 8 * DAY));
    t.billing.forget(acc);
    const locked = await aggregate();
    expect(locked.statusCode).toBe(402);
    expect(locked.json()).toMatchObject({ code: "account_locked" });
    expect(locked.json().message).toMatch(/upgrade/i);
    expect((await call("GET", `/api/v1/properties/${site}/insights`)).statusCode).toBe(402);
    expect((await call("GET", `/api/v1/properties/${site}/visitors`)).statusCode).toBe(402);
    const notice = await call("GET", `/api/v1/accounts/${acc}/billing/notice`, "viewer");
    expect(notice.json()).toMatchObject({ status: "locked", notice: { kind: "locked", level: "danger" } });
    expect((await billing()).status).toBe("locked");
    // Open while locked: settings, exports, the collector.
    expect((await call("GET", `/api/v1/properties/${site}`)).statusCode).toBe(200);
    expect((await call("GET", `/api/v1/properties?accountId=${acc}`)).statusCode).toBe(200);
    expect((await call("GET", `/api/v1/properties/${site}/export?period=last_30_days`)).statusCode).toBe(200);
    const sent = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": CHROME },
      payload: JSON.stringify({ property: site, name: "pageview", url: "https://shop.test/while-locked", client_id: "locked-1" }),
    });
    expect(sent.statusCode).toBe(202);
    expect(sent.headers).not.toHaveProperty("x-lookout-dropped");
    // Another account's reads are untouched.
    const bobAcc = (await t.meta.users.findByEmail("bob@example.com"))?.id;
    expect(bobAcc).toBeDefined();
  });

  it("an upgrade through Checkout unlocks at once; the events sent while locked are there", async () => {
    const r = await call("POST", `/api/v1/accounts/${acc}/billing/checkout`, "owner", { plan: "pro", interval: "month" });
    expect(r.statusCode).toBe(200);
    const url = new URL(r.json().url);
    expect(url.origin).toBe(stripe.url);
    const session = stripe.sessions.get(url.pathname.split("/").pop() as string);
    expect(session).toMatchObject({ success_url: "https://stats.example.com/billing?checkout=success", mode: "subscription" });
    await stripe.pay(session?.id as string);
    expect(stripe.sent.map((s) => [s.event.type, s.status])).toEqual([
      ["checkout.session.completed", 200],
      ["customer.subscription.created", 200],
      ["invoice.paid", 200],
    ]);
    const b = await billing();
    expect(b).toMatchObject({ plan: "pro", interval: "month", status: "active", grace_ends_at: null, notice: null });
    expect(b.invoices).toHaveLength(1);
    expect(b.invoices[0]).toMatchObject({ status: "paid", amount: 1900, currency: "usd" });
    const agg = await aggregate();
    expect(agg.statusCode).toBe(200);
    // 121 + 85 seeded pageviews and the one sent while locked.
    expect(agg.json().results.pageviews.value).toBe(207);
    const events = await t.events.events(site, { clientId: "locked-1" });
    expect(events.map((e) => e.path)).toEqual(["/while-locked"]);
    const audit = (await t.meta.audit.list({ limit: 50 })).map((a) => a.action);
    expect(audit).toEqual(expect.arrayContaining(["billing.checkout_started", "billing.subscription", "billing.grace_ended"]));
  });

  it("verifies webhook signatures (400) and ignores a replayed event id", async () => {
    const customer = [...stripe.customers.keys()][0] as string;
    const bad = await stripe.send("invoice.paid", { id: "in_x", customer }, { signature: "t=1,v1=deadbeef" });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: "invalid_signature" });
    const first = await stripe.send(
      "invoice.payment_failed",
      { id: "in_replay", customer, status: "open", amount_due: 1900, currency: "usd", created: 1 },
      { id: "evt_replay" },
    );
    expect(JSON.parse(first.body)).toEqual({ received: true, handled: true });
    const again = await stripe.send("invoice.payment_failed", { id: "in_replay", customer }, { id: "evt_replay" });
    expect(JSON.parse(again.body)).toEqual({ received: true, handled: false });
    // That failed payment started the grace path; a paid renewal ends it.
    expect(await billing()).toMatchObject({ status: "grace", payment_failed: true, notice: { kind: "payment_failed" } });
    await stripe.payRenewal(customer);
    expect(await billing()).toMatchObject({ status: "active", payment_failed: false });
  });

  it("changing plan replaces the subscription; cancelling in the portal returns to the default plan", async () => {
    const r = await call("POST", `/api/v1/accounts/${acc}/billing/checkout`, "owner", { plan: "max" });
    const sessionId = new URL(r.json().url).pathname.split("/").pop() as string;
    const old = [...stripe.subscriptions.values()].find((s) => s.status === "active")?.id;
    await stripe.pay(sessionId);
    expect(stripe.subscriptions.get(old as string)?.status).toBe("canceled");
    expect((await billing()).plan).toBe("max");
    const portal = await call("POST", `/api/v1/accounts/${acc}/billing/portal`);
    expect(portal.statusCode).toBe(200);
    const page = await fetch(portal.json().url);
    expect(await page.text()).toContain('id="cancel"');
    await fetch(`${portal.json().url}/cancel`, { method: "POST", redirect: "manual" });
    expect(await billing()).toMatchObject({ plan: "free", interval: null });
  });

  it("refuses a property or an invitation past the plan's limits with 402", async () => {
    await t.property(acc, "https://second.test");
    const third = await call("POST", "/api/v1/properties", "admin", {
      accountId: acc,
      name: "Third",
      website_url: "https://third.test",
      timezone: "UTC",
    });
    expect(third.statusCode).toBe(402);
    expect(third.json()).toMatchObject({ code: "property_limit" });
    // Three members already (owner, viewer, admin) on a plan of 2.
    const inv = await call("POST", `/api/v1/accounts/${acc}/invitations`, "owner", { email: "new@example.com", role: "viewer" });
    expect(inv.statusCode).toBe(402);
    expect(inv.json()).toMatchObject({ code: "member_limit" });
  });

  it("lets owners alone manage billing; every member reads the banner; bad input is 400", async () => {
    for (const who of ["viewer", "admin", "bob"]) {
      expect((await call("GET", `/api/v1/accounts/${acc}/billing`, who)).statusCode).toBe(403);
      expect((await call("POST", `/api/v1/accounts/${acc}/billing/checkout`, who, { plan: "pro" })).statusCode).toBe(403);
      expect((await call("POST", `/api/v1/accounts/${acc}/billing/portal`, who)).statusCode).toBe(403);
    }
    expect((await call("GET", `/api/v1/accounts/${acc}/billing/notice`, "viewer")).statusCode).toBe(200);
    expect((await call("GET", `/api/v1/accounts/${acc}/billing/notice`, "bob")).statusCode).toBe(403);
    const hidden = await call("POST", `/api/v1/accounts/${acc}/billing/checkout`, "owner", { plan: "free" });
    expect([hidden.statusCode, hidden.json().code]).toEqual([400, "unknown_plan"]);
    const noYear = await call("POST", `/api/v1/accounts/${acc}/billing/checkout`, "owner", { plan: "max", interval: "year" });
    expect(noYear.statusCode).toBe(400);
    const junk = await call("POST", `/api/v1/accounts/${acc}/billing/checkout`, "owner", { plan: "PRO!", interval: "week" });
    expect(junk.statusCode).toBe(400);
  });
});

describe("billing off (self-hosted)", () => {
  let t: TestApp;
  let token: string;
  let acc: string;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const u = await t.user("solo@example.com");
    acc = u.accountId;
    token = (await t.login(u.email, u.password)).token;
    site = await t.property(acc, "https://solo.test");
    const now = Date.now();
    await t.events.append(
      Array.from({ length: 5000 }, (_, i) =>
        eventRow({ property: site, ts: new Date(now - 1000 - i), name: i % 2 ? "pageview" : "engagement" }),
      ),
    );
  });
  afterAll(async () => {
    await t?.close();
  });
  const call = (method: "GET" | "POST", url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload: payload as object } : {}),
    });

  it("shows usage only: unlimited, no plans, nothing to buy, never locked", async () => {
    const r = await call("GET", `/api/v1/accounts/${acc}/billing`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      mode: "off",
      status: "self_hosted",
      plan: "self_hosted",
      limits: { events: null, properties: null, members: null },
      usage: { events: 2500, percent: null },
      plans: [],
      invoices: [],
      notice: null,
      suggested_plan: null,
    });
    expect((await call("POST", `/api/v1/accounts/${acc}/billing/checkout`, { plan: "pro" })).json()).toMatchObject({
      code: "billing_off",
    });
    expect((await call("POST", `/api/v1/accounts/${acc}/billing/portal`)).statusCode).toBe(409);
    const hook = await t.app.inject({ method: "POST", url: "/api/v1/billing/webhook", payload: "{}" });
    expect(hook.statusCode).toBe(404);
    for (let i = 0; i < 3; i++)
      expect(
        (
          await call("POST", "/api/v1/properties", {
            accountId: acc,
            name: `P${i}`,
            website_url: `https://p${i}.test`,
            timezone: "UTC",
          })
        ).statusCode,
      ).toBe(201);
  });
});
