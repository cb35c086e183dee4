// Settings › Goals against a real server with seeded traffic: a custom-event goal (with a revenue
// currency) and a pageview goal created in Settings show up in the dashboard's Goals panel with the
// Stats API's numbers (unique and total conversions, conversion rate), and the numbers the seeded
// visits give by hand; bad input is refused in place; deleting asks first; a property without
// goals offers "Set up goals"; axe-core and screenshots in both themes, desktop and phone.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { EventRow } from "@lookout/schema";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatCount, formatPercent } from "../../apps/web/src/lib/format";
import { login } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, DESKTOP, PHONE, type SeedHook, seedEvents, signIn, THEME_KEY, type WatchedPage } from "./support";

const SHOTS = "/tmp/shots";

/**
 * Background traffic for both properties, then for the Shop three visits an hour ago: v1 views
 * /pricing and signs up ("Signup"), v2 views /pricing twice, v3 views /blog/a. The generator's
 * own traffic never sends "Signup".
 */
const seed: SeedHook = async (dataDir, ids) => {
  await seedEvents({ indexes: [0, 1], days: 7, visitors: 60, seed: 3 })(dataDir, ids);
  const { openDuckDbEventStore } = await import("@lookout/storage");
  const { eventRow } = await import("@lookout/schema");
  const store = await openDuckDbEventStore(join(dataDir, "events.duckdb"));
  const t0 = Date.now() - 3_600_000;
  const ev = (i: number, visitor: string, name: string, path: string): EventRow =>
    eventRow({
      property: ids[0] as string,
      ts: new Date(t0 + i * 10_000),
      name,
      path,
      url: `https://shop.example${path}`,
      hostname: "shop.example",
      visitor_id: `goal-${visitor}`,
      client_id: `goal-${visitor}`,
      session_id: `goal-${visitor}-s`,
      country: "DE",
    });
  await store.append([
    ev(0, "v1", "pageview", "/pricing"),
    ev(1, "v1", "Signup", "/pricing"),
    ev(2, "v2", "pageview", "/pricing"),
    ev(3, "v2", "pageview", "/pricing"),
    ev(4, "v3", "pageview", "/blog/a"),
  ]);
  await store.sync();
  await store.close();
};

const suite = browserSuite(
  [
    { url: "https://shop.example", name: "Shop" },
    { url: "https://plain.example", name: "Plain" },
  ],
  seed,
);
let current: WatchedPage;
const shop = () => suite.web.propertyIds[0] as string;
const plain = () => suite.web.propertyIds[1] as string;

type GoalRow = { goal: string; visitors: number; events: number; conversion_rate: number };

/** The owner's Stats API answer for the Goals panel (what the panel must show). */
async function goalStats(property = shop()): Promise<GoalRow[]> {
  const { token } = await login(suite.web.server);
  const qs = new URLSearchParams({
    property_id: property,
    period: "last_7_days",
    dimension: "goal",
    metrics: "visitors,events,conversion_rate",
  });
  const r = await fetch(`${suite.web.server.url}/api/v1/stats/breakdown?${qs}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await r.json()) as { results: GoalRow[] };
  if (!r.ok) throw new Error(`goals: ${r.status} ${JSON.stringify(body)}`);
  return body.results;
}

/** The screenshots' goals, made through the API when an earlier test has not (a 409 when it has). */
async function ensureGoals() {
  const { token } = await login(suite.web.server);
  for (const body of [
    { kind: "event", match: "Signup", currency: "EUR" },
    { kind: "page", match: "/pricing" },
    { kind: "page", match: "/blog/**", display_name: "Blog, any post" },
  ]) {
    const r = await fetch(`${suite.web.server.url}/api/v1/properties/${shop()}/goals`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (r.status !== 201 && r.status !== 409) throw new Error(`goal: ${r.status} ${await r.text()}`);
  }
}

async function open(page: Page, path: string, property = shop(), theme?: "light" | "dark") {
  await signIn(page, suite.web.server);
  await page.evaluate(
    ({ id, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id }));
      if (theme) localStorage.setItem(key, theme);
    },
    { id: property, theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}${path}`);
}

async function openGoalsSettings(page: Page, property = shop(), theme?: "light" | "dark") {
  await open(page, "/settings?section=goals", property, theme);
  await page.locator("#settings-section-title", { hasText: "Goals" }).waitFor();
}

async function addGoal(page: Page, kind: "Custom event" | "Pageview", match: string, currency?: string) {
  await page.getByRole("radio", { name: kind }).click();
  await page.getByLabel(kind === "Custom event" ? "Event name" : "Page path").fill(match);
  if (currency) await page.getByLabel("Revenue currency (optional)").selectOption(currency);
  await page.getByRole("button", { name: "Add goal" }).click();
}

const goalRow = (page: Page, name: string) => page.locator(`[data-panel="goals"] tr[data-goal="${name}"]`);

/** Waits until the Goals panel shows `rows` (the Stats API's answer), then checks each cell's text. */
async function expectPanel(page: Page, rows: GoalRow[]) {
  await page.waitForFunction(
    (names) => {
      const shown = Array.from(document.querySelectorAll('[data-panel="goals"] tr[data-goal]')).map((r) =>
        r.getAttribute("data-goal"),
      );
      return JSON.stringify(shown) === JSON.stringify(names) && !document.querySelector('[data-panel="goals"] .is-reloading');
    },
    rows.map((r) => r.goal),
  );
  for (const r of rows) {
    const cells = await goalRow(page, r.goal).locator("td").allTextContents();
    expect(cells).toEqual([r.goal, formatCount(r.visitors), formatCount(r.events), formatPercent(r.conversion_rate)]);
  }
}

async function expectNoViolations(page: Page, what: string) {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${describeViolations(violations)}`).toEqual([]);
}

describe("goals", () => {
  it("creates a custom-event goal and a pageview goal in Settings and sees their numbers on the dashboard", {
    timeout: 90_000,
  }, async () => {
    current = await suite.open();
    const { page } = current;
    await openGoalsSettings(page);
    await page.getByText("No goals yet.").waitFor();

    // Bad input stays in place with the field's message; nothing is sent.
    await addGoal(page, "Pageview", "pricing");
    await page.getByText('must start with "/"').waitFor();

    await addGoal(page, "Custom event", "Signup", "EUR");
    await page.locator("[data-row-id] td", { hasText: "Signup" }).first().waitFor();
    await addGoal(page, "Pageview", "/pricing");
    await page.locator("[data-row-id] td", { hasText: "Visit /pricing" }).waitFor();
    const rows = page.locator("table.settings-table tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain("EUR");
    // The same goal twice: the server's 409, shown in place.
    await addGoal(page, "Pageview", "/pricing");
    await page.getByRole("alert").filter({ hasText: "already" }).waitFor();

    await page.goto(`${suite.web.server.url}/dashboard`);
    await page.locator('[data-panel="goals"]').scrollIntoViewIfNeeded();
    const api = await goalStats();
    // By hand: "Visit /pricing" is v1 and v2 (3 pageviews), "Signup" is v1 (1 event); the generated
    // traffic may add /pricing views of its own but never a Signup.
    const pricing = api.find((r) => r.goal === "Visit /pricing");
    const signup = api.find((r) => r.goal === "Signup");
    expect(signup).toMatchObject({ visitors: 1, events: 1 });
    expect(pricing?.visitors).toBeGreaterThanOrEqual(2);
    expect(pricing?.events).toBeGreaterThanOrEqual(3);
    expect(signup?.conversion_rate).toBeGreaterThan(0);
    await expectPanel(page, api);

    // The custom events tab is still there.
    await page.locator('[data-panel="goals"]').getByRole("tab", { name: "Custom events" }).click();
    await page.locator('[data-panel="goals"] .breakdown-row').first().waitFor();
  });

  it("deletes a goal after a confirmation; the panel follows", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await openGoalsSettings(page);
    await page.getByRole("button", { name: "Delete goal Visit /pricing" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("leaves the Goals panel").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await page.locator("table.settings-table tbody tr").count()).toBe(2);
    await page.getByRole("button", { name: "Delete goal Visit /pricing" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete goal" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect(await page.locator("table.settings-table tbody tr").count()).toBe(1);

    await page.goto(`${suite.web.server.url}/dashboard`);
    await expectPanel(page, await goalStats());
    expect(await goalRow(page, "Visit /pricing").count()).toBe(0);
  });

  it("offers 'Set up goals' for a property without goals", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await open(page, "/dashboard", plain());
    const link = page.locator('[data-panel="goals"]').getByRole("link", { name: "Set up goals" });
    await link.waitFor();
    await expectNoViolations(page, "the Goals panel without goals");
    mkdirSync(SHOTS, { recursive: true });
    await page.locator('[data-panel="goals"]').screenshot({ path: `${SHOTS}/goals-panel-empty-light-desktop.png` });
    await link.click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("section") === "goals");
    await page.locator("#settings-section-title", { hasText: "Goals" }).waitFor();
  });
});

describe("goals screenshots", () => {
  for (const [device, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    for (const theme of ["light", "dark"] as const) {
      it(`${theme}, ${device}`, { timeout: 60_000 }, async () => {
        mkdirSync(SHOTS, { recursive: true });
        await ensureGoals();
        current = await suite.open({ viewport, colorScheme: theme });
        const { page } = current;
        await openGoalsSettings(page, shop(), theme);
        await page.locator("table.settings-table tbody tr").first().waitFor();
        // The pageview form, with its pattern help.
        await page.getByRole("radio", { name: "Pageview" }).click();
        const noOverflow = async (what: string) => {
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${what} overflows sideways at ${device} width`).toBeLessThanOrEqual(0);
        };
        await noOverflow("settings");
        await expectNoViolations(page, `goals settings ${theme} ${device}`);
        await page.screenshot({ path: `${SHOTS}/goals-settings-${theme}-${device}.png`, fullPage: true });

        await page.goto(`${suite.web.server.url}/dashboard`);
        await expectPanel(page, await goalStats());
        const panel = page.locator('[data-panel="goals"]');
        await panel.scrollIntoViewIfNeeded();
        await noOverflow("dashboard");
        await expectNoViolations(page, `dashboard ${theme} ${device}`);
        await panel.screenshot({ path: `${SHOTS}/goals-panel-${theme}-${device}.png` });
      });
    }
  }
});
