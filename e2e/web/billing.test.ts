// Billing (issue #24) in the browser against real servers. Self-hosted (LOOKOUT_BILLING off): the
// page shows this period's usage counted from the event store (an engagement ping not counted),
// split by property, and the history chart, with no plans, payment or banner. Stripe mode (a local
// fake of Stripe's API, apps/server/src/billing/stripe-fake.ts, and a plans file whose free plan
// allows 100 events): the 80 % notice for every member, dismissed for the period; the plan cards
// with the suggested plan; checkout through the provider's page and back, the new plan and its
// invoice on the page; the portal button leading to the provider's portal; a viewer's read-only
// page. A locked account (two periods over limit × 1.1, the grace period over): its dashboard says
// locked with the way to upgrade, collection goes on, and an upgrade unlocks at once with the
// events sent while locked on the dashboard. axe-core in both themes at desktop and phone widths,
// with screenshots in /tmp/shots/billing-web.
/// <reference lib="dom" />
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventRow } from "@lookout/schema";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeStripe, startFakeStripe } from "../../apps/server/src/billing/stripe-fake";
import { launchPlainBrowser } from "../browser";
import { freePort, login, type RunningServer, runCli, startServer } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { DESKTOP, type LoginAnswer, openPage, PHONE, signIn, THEME_KEY, type WatchedPage } from "./support";

const SHOTS = "/tmp/shots/billing-web";
const PASSWORD = "correct-horse-battery-staple";
const OWNER = "owner@example.com";
const LOCKED_OWNER = "locked.owner@example.com";
const VIEWER = "viewer@example.com";
const DAY = 86_400_000;

/** Plans for the test: a free plan of 100 events per period, then two paid plans. */
const PLANS = {
  default_plan: "free",
  plans: [
    {
      id: "free",
      name: "Free",
      limits: { events: 100, properties: 5, members: 5 },
      features: ["goals"],
      prices: { currency: "usd", month: 0, year: 0 },
      hidden: true,
    },
    {
      id: "starter",
      name: "Starter",
      limits: { events: 1000, properties: 5, members: 5 },
      features: ["goals", "shared_links"],
      prices: { currency: "usd", month: 900, year: 9000 },
    },
    {
      id: "growth",
      name: "Growth",
      limits: { events: 10_000, properties: 10, members: 10 },
      features: ["goals", "shared_links", "stats_api", "funnels"],
      prices: { currency: "usd", month: 1900, year: 19_000 },
    },
  ],
};

interface Site {
  url: string;
  name: string;
}

/** One server with its data directory, users (each with their own account) and properties. */
interface Env {
  server: RunningServer;
  /** unique_id of each user's properties, by e-mail, in the order given. */
  properties: Record<string, string[]>;
  stop: () => Promise<void>;
}

/** `count` rows of `name` for `property` spread over the hour before `at`. */
function rows(property: string, count: number, at: Date, name = "pageview") {
  return Array.from({ length: count }, (_, i) =>
    eventRow({
      property,
      ts: new Date(at.getTime() - (i + 1) * 1000),
      name,
      visitor_id: `v-${property}-${i % 7}`,
      session_id: `s-${property}-${i % 7}`,
      client_id: `c-${i % 7}`,
      hostname: "shop.example",
      country: "DE",
      device: "desktop",
      browser: "Chrome",
    }),
  );
}

/**
 * Starts a server after the CLI has created the users and their properties and `prepare` has run
 * on the data directory (the embedded stores admit one process, so everything happens before).
 */
async function startEnv(opts: {
  env: Record<string, string>;
  users: { email: string; sites: Site[] }[];
  prepare?: (dataDir: string, properties: Record<string, string[]>) => Promise<void>;
}): Promise<Env> {
  const dataDir = mkdtempSync(join(tmpdir(), "lookout-billing-e2e-"));
  // The CLI reads process.env (runCli): the same billing settings as the server's.
  const saved = { ...process.env };
  Object.assign(process.env, opts.env);
  const properties: Record<string, string[]> = {};
  try {
    for (const u of opts.users) {
      runCli(dataDir, ["user:create", "--email", u.email, "--password", PASSWORD]);
      properties[u.email] = u.sites.map((s) =>
        runCli(dataDir, ["property:create", "--email", u.email, "--url", s.url, "--name", s.name]).trim(),
      );
    }
    await opts.prepare?.(dataDir, properties);
  } finally {
    for (const k of Object.keys(opts.env)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
  const server = await startServer({ dataDir, env: opts.env, port: Number(opts.env.PORT ?? 0) || undefined });
  return {
    server,
    properties,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Appends events straight into the embedded event store of a data directory. */
async function seed(dataDir: string, batch: ReturnType<typeof rows>) {
  const { openDuckDbEventStore } = await import("@lookout/storage");
  const store = await openDuckDbEventStore(join(dataDir, "events.duckdb"));
  try {
    await store.migrate();
    await store.append(batch);
    await store.sync();
  } finally {
    await store.close();
  }
}

async function send(server: RunningServer, property: string, name: string, clientId: string) {
  const r = await fetch(`${server.url}/api/event`, {
    method: "POST",
    headers: {
      "content-type": "text/plain",
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    },
    body: JSON.stringify({ property, name, url: "https://shop.example/pricing", client_id: clientId, screen_width: 1280 }),
  });
  expect(r.status).toBe(202);
}

async function api(server: RunningServer, token: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => undefined)) as Record<string, unknown> | undefined };
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !document.querySelector("main .spinner-border, main .placeholder-glow"));
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.waitForTimeout(250);
}

/** axe-core and screenshots of the page as it is, in both themes at desktop and phone widths. */
async function checkEverywhere(page: Page, name: string, ready: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate(({ key, t }) => localStorage.setItem(key, t), { key: THEME_KEY, t: theme });
      await page.reload();
      await page.locator(ready).first().waitFor();
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.dataset.coreuiTheme)).toBe(theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} overflows sideways at ${size.width} px`).toBeLessThanOrEqual(0);
      const device = size === DESKTOP ? "desktop" : "phone";
      await page.screenshot({ path: join(SHOTS, `${name}-${theme}-${device}.png`), fullPage: true });
      const violations = await axeViolations(page);
      expect(violations, `${name} (${theme}, ${device}): axe-core violations\n${describeViolations(violations)}`).toEqual([]);
    }
  }
  await page.setViewportSize(DESKTOP);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchPlainBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A watched page signed in as `email`; its problems must stay empty. */
async function pageAs(server: RunningServer, email: string): Promise<WatchedPage & { session: LoginAnswer }> {
  const watched = await openPage(browser);
  const session = await signIn(watched.page, server, await login(server, email, PASSWORD));
  return { ...watched, session };
}

async function choose(page: Page, property: string, url: string) {
  await page.evaluate((p) => localStorage.setItem("currentProperty", JSON.stringify(p)), {
    unique_id: property,
    website_url: url,
  });
}

describe("self-hosted (LOOKOUT_BILLING off)", () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv({
      env: {},
      users: [
        {
          email: OWNER,
          sites: [
            { url: "https://shop.example", name: "Shop" },
            { url: "https://blog.example", name: "Blog" },
          ],
        },
      ],
    });
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("shows this period's usage by property and the history, with no plans, payment or banner", {
    timeout: 180_000,
  }, async () => {
    const [shop, blog] = env.properties[OWNER] as [string, string];
    for (let i = 0; i < 5; i++) await send(env.server, shop, "pageview", `shop-${i}`);
    await send(env.server, shop, "engagement", "shop-0");
    await send(env.server, shop, "Signup", "shop-1");
    for (let i = 0; i < 3; i++) await send(env.server, blog, "pageview", `blog-${i}`);
    const w = await pageAs(env.server, OWNER);
    try {
      const { page } = w;
      await page.goto(`${env.server.url}/billing`);
      const plan = page.locator(".billing-plan");
      await expect.poll(() => plan.locator(".billing-plan-name").textContent()).toBe("Unlimited");
      await expect.poll(() => plan.locator(".billing-status").textContent()).toBe("Self-hosted");
      await expect.poll(() => page.locator(".billing-usage-count").textContent(), { timeout: 15_000 }).toBe("9");
      // No limit self-hosted: no meter, and the count says so.
      expect(await page.locator(".billing-meter").count()).toBe(0);
      const byProperty = await page.locator(".billing-property-row").allTextContents();
      expect(byProperty[0]).toContain("Shop");
      expect(byProperty[0]).toContain("6");
      expect(byProperty[1]).toContain("Blog");
      expect(byProperty[1]).toContain("3");
      await page.locator(".billing-history-chart canvas").waitFor();
      expect(await page.locator(".billing-plans, .billing-invoices, .billing-portal").count()).toBe(0);
      expect(await page.locator(".billing-notice").count()).toBe(0);
      await checkEverywhere(page, "billing-self-hosted", ".billing-history-chart canvas");
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
  });
});

describe("Stripe mode", () => {
  let env: Env;
  let stripe: FakeStripe;
  let plansDir: string;
  beforeAll(async () => {
    plansDir = mkdtempSync(join(tmpdir(), "lookout-billing-plans-"));
    const plansFile = join(plansDir, "plans.json");
    writeFileSync(plansFile, JSON.stringify(PLANS));
    stripe = await startFakeStripe({ webhookSecret: "whsec_test_billing_web" });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    stripe.setWebhookUrl(`${url}/api/v1/billing/webhook`);
    const now = new Date();
    // The locked account's current period began 10 days ago (its day of the month, at most the
    // 28th); its billing anchor is that day a year earlier, so the periods before exist.
    const tenAgo = new Date(now.getTime() - 10 * DAY);
    const periodStart = new Date(Date.UTC(tenAgo.getUTCFullYear(), tenAgo.getUTCMonth(), Math.min(tenAgo.getUTCDate(), 28)));
    const anchor = new Date(periodStart);
    anchor.setUTCFullYear(anchor.getUTCFullYear() - 1);
    env = await startEnv({
      env: {
        PORT: String(port),
        LOOKOUT_PUBLIC_URL: url,
        LOOKOUT_BILLING: "stripe",
        LOOKOUT_BILLING_PLANS: plansFile,
        STRIPE_SECRET_KEY: "sk_test_billing_web",
        STRIPE_WEBHOOK_SECRET: "whsec_test_billing_web",
        STRIPE_API_URL: stripe.url,
      },
      users: [
        { email: OWNER, sites: [{ url: "https://shop.example", name: "Shop" }] },
        { email: LOCKED_OWNER, sites: [{ url: "https://busy.example", name: "Busy site" }] },
      ],
      prepare: async (dataDir, properties) => {
        const [shop] = properties[OWNER] as [string];
        const [busy] = properties[LOCKED_OWNER] as [string];
        // The owner's account: 85 of its 100 events this period (80 % reached), and engagement
        // pings, which never count.
        // The locked account: a billing period that began 10 days ago, 120 events (over 100 × 1.1) in each of
        // the two periods before the current one; the usage check 8 days ago started a 7-day grace
        // period, which ended yesterday (the server answers locked from then on).
        runCli(dataDir, [
          "billing:plan",
          "--email",
          LOCKED_OWNER,
          "--plan",
          "free",
          "--anchor",
          anchor.toISOString().slice(0, 10),
        ]);
        const monthAgo = (n: number) => {
          const d = new Date(periodStart);
          d.setUTCMonth(d.getUTCMonth() - n);
          return new Date(d.getTime() + 2 * DAY);
        };
        await seed(dataDir, [
          ...rows(shop, 85, now),
          ...rows(shop, 20, now, "engagement"),
          ...rows(busy, 120, monthAgo(1)),
          ...rows(busy, 120, monthAgo(2)),
        ]);
        runCli(dataDir, ["billing:check", "--email", LOCKED_OWNER, "--now", new Date(now.getTime() - 8 * DAY).toISOString()]);
      },
    });
    // Six CLI runs (each opens the embedded stores) and a server start: minutes on a busy machine.
  }, 600_000);
  afterAll(async () => {
    await env?.stop();
    await stripe?.stop();
    if (plansDir) rmSync(plansDir, { recursive: true, force: true });
  });

  it("warns every member at 80 % until dismissed for the period, and shows a viewer the plan read-only", {
    timeout: 180_000,
  }, async () => {
    const owner = await pageAs(env.server, OWNER);
    try {
      const { page } = owner;
      await page.goto(`${env.server.url}/dashboard`);
      const notice = page.locator(".billing-notice");
      await notice.waitFor();
      expect(await notice.getAttribute("data-notice")).toBe("approaching_80");
      expect(await notice.textContent()).toMatch(/85/);
      await notice.getByRole("link", { name: "See billing" }).click();
      await page.waitForURL("**/billing");
      await page.locator(".billing-plan-card").first().waitFor();
      // The meter says how far this period is: 85 of 100.
      expect(await page.locator(".billing-usage-count").textContent()).toBe("85");
      expect(await page.locator(".billing-meter").getAttribute("aria-valuenow")).toBe("85");
      await page.goto(`${env.server.url}/team`);
      await notice.waitFor();
      await notice.getByRole("button", { name: "Dismiss this notice" }).click();
      await expect.poll(() => notice.count()).toBe(0);
      await page.reload();
      await page.locator("main h1").waitFor();
      await page.waitForLoadState("networkidle");
      expect(await notice.count()).toBe(0);
    } finally {
      expect(owner.problems).toEqual([]);
      await owner.close();
    }

    // A viewer of the same account: the notice without the owner's link, and /billing read-only.
    const ownerSession = await login(env.server, OWNER, PASSWORD);
    const invited = await api(env.server, ownerSession.token, "POST", `/api/v1/accounts/${ownerSession.accountId}/invitations`, {
      email: VIEWER,
      role: "viewer",
    });
    expect(invited.status).toBeLessThan(300);
    const token = await mailedToken(env.server, VIEWER);
    const accepted = await fetch(`${env.server.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, name: "The viewer", password: PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    const viewer = await pageAs(env.server, VIEWER);
    try {
      const { page } = viewer;
      // The viewer has not dismissed anything: the notice shows, saying who can act, with no link.
      await page.goto(`${env.server.url}/team`);
      const notice = page.locator(".billing-notice");
      await notice.waitFor();
      expect(await notice.textContent()).toContain("85 of 100");
      expect(await notice.textContent()).toContain("Only the account's owners can change the plan.");
      expect(await notice.getByRole("link").count()).toBe(0);
      await page.goto(`${env.server.url}/billing`);
      await page.locator(".billing-not-owner").waitFor();
      expect(await page.locator(".billing-plan-name").textContent()).toBe("Free");
      expect(await page.locator(".billing-plans, .billing-invoices, .billing-portal").count()).toBe(0);
      // The billing answer itself is the owners' (DESIGN.md §7).
      expect(
        (await api(env.server, viewer.session.token, "GET", `/api/v1/accounts/${ownerSession.accountId}/billing`)).status,
      ).toBe(403);
      await checkEverywhere(page, "billing-viewer", ".billing-not-owner");
    } finally {
      expect(viewer.problems).toEqual([]);
      await viewer.close();
    }
  });

  it("offers the plans with the suggested one, checks out through the provider and shows the new plan, its invoice and the portal", {
    timeout: 240_000,
  }, async () => {
    const w = await pageAs(env.server, OWNER);
    try {
      const { page } = w;
      const before = await api(env.server, w.session.token, "GET", `/api/v1/accounts/${w.session.accountId}/billing`);
      expect(before.status).toBe(200);
      await page.goto(`${env.server.url}/billing`);
      await page.locator(".billing-plan-card").first().waitFor();
      expect(await page.locator(".billing-plan-name").textContent()).toBe("Free");
      // The free plan is hidden but current; the paid plans are offered in the file's order.
      expect(
        await page.locator(".billing-plan-card").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-plan"))),
      ).toEqual(["free", "starter", "growth"]);
      const suggested = before.body?.suggested_plan as string | null;
      if (suggested && suggested !== "free") {
        expect(await page.locator(".billing-suggested").getAttribute("data-plan")).toBe(suggested);
      }
      // Yearly prices through the toggle, kept in the URL.
      await page.getByText(/^Yearly/).click();
      await page.waitForURL(/billing=year/);
      // The URL changes before React commits the new prices, so wait for the text itself.
      await expect.poll(() => page.locator('[data-plan="starter"] .billing-price').textContent()).toContain("$90");
      await checkEverywhere(page, "billing-stripe", ".billing-plan-card");
      await page.goto(`${env.server.url}/billing`);
      await page.getByRole("button", { name: "Upgrade to Starter" }).click();
      // The provider's checkout page, as the server answered it.
      await page.waitForURL(`${stripe.url}/checkout/**`);
      await page.locator("button#pay").click();
      await page.waitForURL(`${env.server.url}/billing**`);
      await page.locator(".alert-success").waitFor();
      expect(await page.locator(".alert-success").textContent()).toContain("payment went through");
      await expect.poll(() => page.locator(".billing-plan-name").textContent(), { timeout: 15_000 }).toBe("Starter");
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.locator(".billing-invoices").waitFor();
            return page.locator(".billing-invoices tbody tr").count();
          },
          { timeout: 20_000 },
        )
        .toBeGreaterThan(0);
      expect(await page.locator(".billing-invoices tbody").textContent()).toContain("Paid");
      // Starter's 1 000 events: the 80 % notice of the free plan is gone.
      expect(await page.locator(".billing-notice").count()).toBe(0);
      await page.getByRole("button", { name: "Manage payment method and invoices" }).click();
      await page.waitForURL(`${stripe.url}/portal/**`);
      await page.locator("button#cancel").waitFor();
    } finally {
      expect(w.problems).toEqual([]);
      await w.close();
    }
  });

  it("locks a dashboard after the grace period, keeps collecting, and unlocks at once on upgrade", {
    timeout: 240_000,
  }, async () => {
    const [busy] = env.properties[LOCKED_OWNER] as [string];
    const w = await pageAs(env.server, LOCKED_OWNER);
    try {
      const { page } = w;
      // Collection goes on while locked.
      await send(env.server, busy, "pageview", "while-locked-1");
      const stats = await api(
        env.server,
        w.session.token,
        "GET",
        `/api/v1/stats/aggregate?property_id=${busy}&period=today&metrics=visitors`,
      );
      expect(stats.status).toBe(402);
      expect(stats.body?.code).toBe("account_locked");
      await choose(page, busy, "https://busy.example");
      await page.goto(`${env.server.url}/dashboard`);
      const panel = page.locator(".empty-state", { hasText: "dashboards are locked" });
      await panel.waitFor();
      expect(await page.locator(".billing-notice").getAttribute("data-notice")).toBe("locked");
      // Locked notices cannot be dismissed.
      expect(await page.locator(".billing-notice").getByRole("button", { name: "Dismiss this notice" }).count()).toBe(0);
      await checkEverywhere(page, "dashboard-locked", ".empty-state");
      await page.getByRole("link", { name: "Upgrade to unlock" }).click();
      await page.waitForURL("**/billing");
      await page.locator(".billing-plan-card").first().waitFor();
      expect(await page.locator(".billing-status").first().textContent()).toBe("Locked");
      await page.getByRole("button", { name: "Upgrade to Growth" }).click();
      await page.waitForURL(`${stripe.url}/checkout/**`);
      await page.locator("button#pay").click();
      await page.waitForURL(`${env.server.url}/billing**`);
      await expect.poll(() => page.locator(".billing-status").first().textContent(), { timeout: 15_000 }).toBe("Active");
      await page.goto(`${env.server.url}/dashboard`);
      await page.locator(".top-stats, [data-metric]").first().waitFor();
      expect(await page.locator(".empty-state", { hasText: "dashboards are locked" }).count()).toBe(0);
      // The pageview sent while locked is there: today has one visitor.
      const visitorsToday = async () => {
        const today = await api(
          env.server,
          w.session.token,
          "GET",
          `/api/v1/stats/aggregate?property_id=${busy}&period=today&metrics=visitors`,
        );
        expect(today.status).toBe(200);
        return (today.body as { results: { visitors: { value: number } } }).results.visitors.value;
      };
      await expect.poll(visitorsToday, { timeout: 10_000 }).toBe(1);
    } finally {
      expect(w.problems).toEqual([]);
      await w.close();
    }
  });
});

/** The token of the latest invitation mailed to `email`, read from the outbox the server prints. */
async function mailedToken(server: RunningServer, email: string): Promise<string> {
  const find = () => {
    const logs = server.logs();
    const at = logs.lastIndexOf(`[mail outbox] to=${email} `);
    if (at < 0) return null;
    const link = /\/invite\/([A-Za-z0-9_%-]+)/.exec(logs.slice(at));
    return link?.[1] ? decodeURIComponent(link[1]) : null;
  };
  await expect.poll(find, { timeout: 10_000 }).not.toBeNull();
  return find() as string;
}
