// The dashboard (/dashboard) against a real server whose event store was seeded before it started
// (synthetic traffic plus one hostile visit): the top stats show exactly the Stats API's numbers,
// the chart draws, every tab loads, row clicks filter through the URL (reload and removal
// included), the Details modal searches, sorts and exports escaped CSV, custom ranges and
// comparisons, the install snippet of an empty property, a 400 in place, and screenshots.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EventRow } from "@lookout/schema";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatCount, formatDecimal, formatDuration, formatPercent } from "../../apps/web/src/lib/format";
import { artifactPath, launchPlainBrowser } from "../browser";
import { login } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import {
  DESKTOP,
  type LoginAnswer,
  openPage,
  PHONE,
  type SeedHook,
  seedEvents,
  signIn,
  startWebServer,
  THEME_KEY,
  type WatchedPage,
  type WebServer,
} from "./support";

const HOSTILE = {
  path: "/<img src=x onerror=alert(1)>",
  referrer: "javascript:alert(1)",
  campaign: '=HYPERLINK("http://evil.example","click")',
};

/** 30 days of synthetic traffic for the Shop, then one visit two hours ago carrying hostile text. */
const seed: SeedHook = async (dataDir, ids) => {
  await seedEvents({ indexes: [0], days: 30, visitors: 400, seed: 1 })(dataDir, ids);
  const { openDuckDbEventStore } = await import("@lookout/storage");
  const { generateEvents } = await import("@lookout/traffic");
  const property = ids[0] as string;
  const [template] = generateEvents({ property, days: 1, visitors: 1, seed: 7, end: new Date() }).next().value ?? [];
  if (!template) throw new Error("no template event");
  const store = await openDuckDbEventStore(join(dataDir, "events.duckdb"));
  const ev: EventRow = {
    ...template,
    ts: new Date(Date.now() - 2 * 3_600_000),
    name: "pageview",
    visitor_id: "hostile-visitor",
    client_id: "hostile-visitor",
    session_id: "hostile-session",
    path: HOSTILE.path,
    url: `https://shop.example${HOSTILE.path}`,
    referrer: HOSTILE.referrer,
    utm_campaign: HOSTILE.campaign,
    props: {},
  };
  await store.append([ev]);
  await store.sync();
  await store.close();
};

let web: WebServer;
let browser: Browser;
let session: LoginAnswer;
let current: WatchedPage;
let shop: string;
let empty: string;

beforeAll(async () => {
  web = await startWebServer(
    [
      { url: "https://shop.example", name: "Shop" },
      { url: "https://empty.example", name: "Empty" },
    ],
    seed,
  );
  [shop = "", empty = ""] = web.propertyIds;
  browser = await launchPlainBrowser();
  session = await login(web.server);
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

afterEach(async () => {
  if (!current) return;
  expect(current.problems).toEqual([]);
  await current.close();
});

type Json = Record<string, unknown>;

/** Calls the Stats API as the dashboard does (filters and all) and returns `results`. */
async function stats<T = Json>(path: string, params: Record<string, string>): Promise<T> {
  const qs = new URLSearchParams({ property_id: shop, ...params });
  const r = await fetch(`${web.server.url}/api/v1/stats/${path}?${qs}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const body = (await r.json()) as { results: T };
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body.results;
}

const TOP = "visitors,visits,pageviews,views_per_visit,bounce_rate,visit_duration";
type Agg = Record<string, { value: number; comparison: number | null; change: number | null }>;

async function openDashboard(page: Page, query = "", property = shop, theme?: "light" | "dark") {
  await signIn(page, web.server, session);
  await page.evaluate(
    ({ id, site, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: site }));
      if (theme) localStorage.setItem(key, theme);
    },
    { id: property, site: property === shop ? "https://shop.example" : "https://empty.example", theme, key: THEME_KEY },
  );
  await page.goto(`${web.server.url}/dashboard${query}`);
  await page.locator("main h1", { hasText: "Dashboard" }).waitFor();
}

const card = (page: Page, metric: string) => page.locator(`.stat-card[data-metric="${metric}"]`);

/** Waits until every card shows the answer for `params` and checks value and text. */
async function expectCards(page: Page, params: Record<string, string>) {
  const agg = await stats<Agg>("aggregate", { metrics: TOP, ...params });
  const text: Record<string, (n: number) => string> = {
    visitors: formatCount,
    visits: formatCount,
    pageviews: formatCount,
    views_per_visit: formatDecimal,
    bounce_rate: formatPercent,
    visit_duration: formatDuration,
  };
  for (const [m, fmt] of Object.entries(text)) {
    const want = agg[m]?.value as number;
    await page.waitForFunction(
      ([metric, value]) =>
        document.querySelector(`.stat-card[data-metric="${metric}"] .stat-value`)?.getAttribute("data-value") === String(value) &&
        !document.querySelector(".top-stats[aria-busy='true']"),
      [m, want] as const,
    );
    expect(await card(page, m).locator(".stat-value").textContent()).toBe(fmt(want));
  }
  return agg;
}

const rowLabels = (page: Page, panel: string) =>
  page.locator(`[data-panel="${panel}"] .breakdown-row`).evaluateAll((rows) => rows.map((r) => r.getAttribute("data-value")));

async function waitPanelLoaded(page: Page, panel: string) {
  const p = page.locator(`[data-panel="${panel}"]`);
  await p.locator(".breakdown-row, .breakdown-empty, .world-map canvas, .panel-error").first().waitFor();
  await page.waitForFunction((id) => !document.querySelector(`[data-panel="${id}"] .is-reloading`), panel);
  expect(await p.locator(".panel-error").count(), `${panel} shows an error`).toBe(0);
}

describe("dashboard", () => {
  it("shows the API's numbers, draws the chart, explains metrics and loads every tab", { timeout: 45_000 }, async () => {
    current = await openPage(browser);
    const { page } = current;
    await openDashboard(page);
    expect(new URL(page.url()).searchParams.get("period")).toBe("last_7_days");
    await expectCards(page, { period: "last_7_days" });
    await page.locator(".stat-live").getByText("Live now").waitFor();

    // The chart: one point per bucket of the API's day series.
    const series = await stats<unknown[]>("timeseries", { period: "last_7_days", metrics: "visitors", interval: "day" });
    const chart = page.locator(".timeseries-chart");
    await chart.locator("canvas").waitFor();
    expect(Number(await chart.getAttribute("data-points"))).toBe(series.length);
    // Clicking a card charts its metric.
    await card(page, "bounce_rate").locator(".stat-card-button").click();
    await page.locator(".main-chart h2", { hasText: "Bounce rate" }).waitFor();
    expect(new URL(page.url()).searchParams.get("metric")).toBe("bounce_rate");
    await page.getByRole("button", { name: "Hour" }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("interval") === "hour");
    const hours = await stats<unknown[]>("timeseries", { period: "last_7_days", metrics: "bounce_rate", interval: "hour" });
    await page.waitForFunction(
      (n) => document.querySelector(".timeseries-chart")?.getAttribute("data-points") === String(n),
      hours.length,
    );

    // Help text holds DESIGN.md §4's definition.
    await card(page, "bounce_rate").locator(".help-button").focus();
    await page.locator(".popover", { hasText: "one pageview and no interactive custom event" }).waitFor();
    await page.keyboard.press("Escape");
    await card(page, "bounce_rate").locator(".help-button").blur();

    // Top pages are the API's, in order, with text-only hostile paths elsewhere.
    await waitPanelLoaded(page, "pages");
    const top = await stats<Json[]>("breakdown", { period: "last_7_days", dimension: "page", limit: "10" });
    expect(await rowLabels(page, "pages")).toEqual(top.map((r) => r.page));

    for (const panel of ["pages", "sources", "locations", "devices", "goals"]) {
      const p = page.locator(`[data-panel="${panel}"]`);
      const tabs = p.locator(".breakdown-tabs > .nav-item > .nav-link:not(.dropdown-toggle)");
      for (let i = 0; i < (await tabs.count()); i++) {
        await tabs.nth(i).click();
        await waitPanelLoaded(page, panel);
      }
      const dropdown = p.locator(".dropdown-toggle");
      if ((await dropdown.count()) > 0) {
        const items = ["UTM source", "UTM medium", "UTM campaign", "UTM term", "UTM content"];
        for (const item of items) {
          await dropdown.click();
          await page.locator(".dropdown-menu.show").getByRole("button", { name: item }).click();
          await waitPanelLoaded(page, panel);
        }
      }
    }
    // Countries carry bundled flags (same-origin files), never remote images.
    const locations = page.locator('[data-panel="locations"]');
    await locations.getByRole("tab", { name: "Countries" }).click();
    await waitPanelLoaded(page, "locations");
    const flags = await locations.locator("img.country-flag").evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
    expect(flags.length).toBeGreaterThan(0);
    for (const src of flags) expect(new URL(src).origin).toBe(web.server.url);
    expect(await locations.locator(".breakdown-row").first().textContent()).toContain("United States");
    // Goals: visitors, events and conversion rate = event visitors / all visitors.
    const goals = await stats<Json[]>("breakdown", {
      period: "last_7_days",
      dimension: "event_name",
      metrics: "visitors,events",
    });
    const total = (await stats<Agg>("aggregate", { period: "last_7_days", metrics: "visitors" })).visitors?.value as number;
    const first = page.locator('[data-panel="goals"] .breakdown-row').first();
    const g = goals[0] as Json;
    expect(await first.getAttribute("data-value")).toBe(g.event_name);
    expect(await first.locator(".breakdown-num").last().textContent()).toBe(
      formatPercent((100 * (g.visitors as number)) / total),
    );
  });

  it("filters by a clicked row through the URL, keeps it on reload and restores on removal", async () => {
    current = await openPage(browser);
    const { page } = current;
    await openDashboard(page, "?period=last_30_days");
    const before = await expectCards(page, { period: "last_30_days" });
    await waitPanelLoaded(page, "pages");
    await page.locator('[data-panel="pages"] .breakdown-row[data-value="/pricing"] .breakdown-label').click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("filters") === "page==/pricing");
    expect(page.url()).toContain("filters=page%3D%3D%2Fpricing");
    await page.locator(".filter-chip", { hasText: "Page is /pricing" }).waitFor();
    const filtered = await expectCards(page, { period: "last_30_days", filters: "page==/pricing" });
    expect(filtered.visitors?.value).toBeLessThan(before.visitors?.value as number);

    await page.reload();
    await page.locator(".filter-chip", { hasText: "Page is /pricing" }).waitFor();
    await expectCards(page, { period: "last_30_days", filters: "page==/pricing" });

    // A second filter from another panel, then remove the first.
    await waitPanelLoaded(page, "devices");
    await page.locator('[data-panel="devices"] .breakdown-row[data-value="Chrome"] .breakdown-label').click();
    await page.locator(".filter-chip", { hasText: "Browser is Chrome" }).waitFor();
    await expectCards(page, { period: "last_30_days", filters: "page==/pricing;browser==Chrome" });
    await page.getByRole("button", { name: "Remove filter: Page is /pricing" }).click();
    await expectCards(page, { period: "last_30_days", filters: "browser==Chrome" });
    await page.getByRole("button", { name: "Remove filter: Browser is Chrome" }).click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has("filters"));
    await page.locator(".filter-chip").first().waitFor({ state: "detached" });
    await expectCards(page, { period: "last_30_days" });
  });

  it("lists, searches, sorts and exports a panel in Details, with hostile text kept inert", async () => {
    current = await openPage(browser);
    const { page } = current;
    await openDashboard(page, "?period=last_30_days");
    await waitPanelLoaded(page, "pages");
    await page.locator('[data-panel="pages"]').getByRole("button", { name: "Details" }).click();
    const modal = page.locator(".modal.show");
    await modal.locator(".details-table").waitFor();
    const all = await stats<Json[]>("breakdown", {
      period: "last_30_days",
      dimension: "page",
      limit: "100",
      metrics: "visitors",
    });
    expect(await modal.locator("tbody tr").count()).toBe(all.length);

    await modal.getByRole("searchbox").fill("blog");
    const blog = await stats<Json[]>("breakdown", {
      period: "last_30_days",
      dimension: "page",
      limit: "100",
      filters: "page~blog",
      metrics: "visitors,pageviews,bounce_rate,time_on_page",
    });
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll(".modal.show tbody tr").length === n && !document.querySelector(".modal.show .is-reloading"),
      blog.length,
    );
    const shown = await modal.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-value")));
    expect(shown).toEqual(blog.map((r) => r.page));

    // Sorting by pageviews asks the server for that order.
    const sorted = page.waitForRequest((r) => r.url().includes("order=pageviews%3Adesc"));
    await modal.getByRole("button", { name: "Pageviews" }).click();
    await sorted;
    await page.waitForFunction(() => !document.querySelector(".modal.show .is-reloading"));
    expect(await modal.locator('th[aria-sort="descending"]').textContent()).toContain("Pageviews");

    // The export is the searched list, quoted and in the table's columns.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      modal.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const csv = readFileSync(await download.path(), "utf8");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("Page,Unique visitors,Pageviews,Bounce rate,Time on page");
    expect(lines.length - 1).toBe(blog.length);
    for (const l of lines.slice(1)) expect(l.split(",")[0]).toContain("blog");
    expect(download.suggestedFilename()).toBe("lookout-page-last_30_days.csv");

    // The hostile path is a row of text, not markup.
    await modal.getByRole("searchbox").fill("onerror");
    await modal.locator(`tbody tr[data-value="${HOSTILE.path}"]`).waitFor();
    expect(await modal.locator("tbody tr").first().locator(".breakdown-label").textContent()).toBe(HOSTILE.path);
    expect(await page.locator("img[src='x']").count()).toBe(0);
    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });

    // A javascript: referrer never becomes a link; an https one does.
    const sources = page.locator('[data-panel="sources"]');
    await sources.getByRole("tab", { name: "Referrers" }).click();
    await waitPanelLoaded(page, "sources");
    await sources.getByRole("button", { name: "Details" }).click();
    await modal.getByRole("searchbox").fill("javascript");
    const bad = modal.locator(`tbody tr[data-value="${HOSTILE.referrer}"]`);
    await bad.waitFor();
    expect(await bad.locator("a").count()).toBe(0);
    await modal.getByRole("searchbox").fill("google");
    await modal.locator('tbody tr[data-value="https://www.google.com/"] a[href="https://www.google.com/"]').waitFor();
    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });

    // A tracked value that looks like a formula is exported with a leading apostrophe.
    const dropdown = sources.locator(".dropdown-toggle");
    await dropdown.click();
    await page.locator(".dropdown-menu.show").getByRole("button", { name: "UTM campaign" }).click();
    await waitPanelLoaded(page, "sources");
    await sources.getByRole("button", { name: "Details" }).click();
    await modal.locator(".details-table").waitFor();
    const [campaigns] = await Promise.all([
      page.waitForEvent("download"),
      modal.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const text = readFileSync(await campaigns.path(), "utf8");
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")",1,`);
    expect(text.split("\r\n")[0]).toBe("Campaign,Unique visitors,Visits,Bounce rate,Visit duration");
  });

  it("takes a custom range and shows changes against the comparison", async () => {
    current = await openPage(browser);
    const { page } = current;
    await openDashboard(page);
    const day = (ago: number) => {
      const d = new Date(Date.now() - ago * 86_400_000);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    };
    await page.getByLabel("Date range").selectOption("custom");
    await page.getByLabel("From", { exact: true }).fill(day(12));
    await page.getByLabel("To", { exact: true }).fill(day(5));
    const date = `${day(12)},${day(5)}`;
    await page.waitForFunction((d) => new URL(location.href).searchParams.get("date") === d, date);
    expect(new URL(page.url()).searchParams.get("period")).toBe("custom");
    await expectCards(page, { period: "custom", date });

    await page.getByLabel("Compare").selectOption("previous_period");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("compare") === "previous_period");
    const agg = await expectCards(page, { period: "custom", date, compare: "previous_period" });
    const change = agg.visitors?.change as number;
    expect(change).not.toBeNull();
    const shown = card(page, "visitors").locator(".stat-change");
    await shown.waitFor();
    expect(Number(await shown.getAttribute("data-change"))).toBe(change);
    expect(await shown.getAttribute("class")).toContain(change > 0 ? "text-success" : "text-danger");
    await page.locator(".chart-legend", { hasText: "Previous period" }).waitFor();
    // Bounce rate: lower is better, so a fall is green.
    const bounce = agg.bounce_rate?.change;
    if (bounce)
      expect(await card(page, "bounce_rate").locator(".stat-change").getAttribute("class")).toContain(
        bounce < 0 ? "text-success" : "text-danger",
      );

    // The shared view reloads as it was.
    await page.reload();
    await card(page, "visitors").locator(".stat-change").waitFor();
    expect(await page.getByLabel("Date range").inputValue()).toBe("custom");
    expect(await page.getByLabel("From", { exact: true }).inputValue()).toBe(day(12));

    // All time has nothing to compare with.
    await page.getByLabel("Date range").selectOption("all_time");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("period") === "all_time");
    expect(await page.getByLabel("Compare").isDisabled()).toBe(true);
    expect(new URL(page.url()).searchParams.has("compare")).toBe(false);
    await expectCards(page, { period: "all_time" });
  });

  it("shows the install snippet for a property without events, and a 400 in place", async () => {
    current = await openPage(browser);
    const { page } = current;
    await openDashboard(page, "", empty);
    const snippet = page.getByTestId("install-snippet");
    await snippet.waitFor();
    expect(await snippet.textContent()).toBe(
      `<script defer src="${web.server.url}/js/script.js" data-property="${empty}"></script>`,
    );

    await openDashboard(page, `?filters=${encodeURIComponent("page=~(?=x)")}`);
    const message = "filters: look-around and back-references are not supported";
    await page.locator(".panel-error", { hasText: message }).first().waitFor();
    await page.locator('[data-panel="pages"] .panel-error', { hasText: message }).waitFor();
    await page.locator(".main-chart .panel-error", { hasText: message }).waitFor();
    await page.locator(".filter-chip", { hasText: "Page matches (?=x)" }).waitFor();
    await page.getByRole("button", { name: /^Remove filter/ }).click();
    await expectCards(page, { period: "last_7_days" });
  });
});

describe("dashboard screenshots", () => {
  for (const [device, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    for (const theme of ["light", "dark"] as const) {
      // Two full-page shots and two axe runs for light desktop: 13-19 s, and once over the default
      // 30 s while the other test file loaded both cores.
      it(`${theme}, ${device}`, { timeout: 90_000 }, async () => {
        current = await openPage(browser, { viewport, colorScheme: theme });
        const { page } = current;
        await openDashboard(page, "?compare=previous_period", shop, theme);
        await card(page, "visitors").locator(".stat-change").waitFor();
        await page.locator(".timeseries-chart canvas").waitFor();
        for (const panel of ["pages", "sources", "devices", "goals"]) await waitPanelLoaded(page, panel);
        await page.locator(".world-map canvas").waitFor();
        await page.waitForTimeout(400); // chart animation
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `overflows sideways at ${device} width`).toBeLessThanOrEqual(0);
        const file = artifactPath(`dashboard-${theme}-${device}.png`);
        await page.screenshot({ path: file, fullPage: true });
        expect(existsSync(file)).toBe(true);
        if (device === "desktop") {
          const violations = await axeViolations(page);
          expect.soft(violations, `dashboard (${theme}): axe-core\n${describeViolations(violations)}`).toEqual([]);
        }
        if (device === "desktop" && theme === "light") {
          await page.locator('[data-panel="pages"]').getByRole("button", { name: "Details" }).click();
          await page.locator(".modal.show .details-table").waitFor();
          await page.waitForTimeout(200);
          await page.screenshot({ path: artifactPath("dashboard-details-light-desktop.png") });
          const violations = await axeViolations(page);
          expect.soft(violations, `details (${theme}): axe-core\n${describeViolations(violations)}`).toEqual([]);
        }
        if (device === "phone" && theme === "dark") {
          await openDashboard(page, "", empty, theme);
          await page.getByTestId("install-snippet").waitFor();
          await page.screenshot({ path: artifactPath("dashboard-install-dark-phone.png"), fullPage: true });
        }
      });
    }
  }
});
