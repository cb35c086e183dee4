// The retention insight (#23 item 3) in Chromium against a real server seeded with 30 days of
// synthetic traffic: build it from scratch (daily, 4 periods), check the grid's cells against the
// API's answer, open a cell's visitors, save, reopen by URL; axe-core clean and screenshots in both
// themes, desktop and phone (under SHOTS_DIR, else /tmp/shots/retention).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { insightSuite } from "./insight-suite";
import { PHONE, type WatchedPage } from "./support";

const { suite, shot, open, query } = insightSuite({ shots: "/tmp/shots/retention" });
let current: WatchedPage;

const SPEC = {
  kind: "retention",
  period: "last_30_days",
  start_event: { event: "pageview" },
  return_event: { event: "pageview" },
  period_unit: "day",
  periods: 4,
  retention_type: "first_time",
  cumulative: false,
};

interface Cohort {
  date: string;
  size: number;
  values: number[];
}
async function apiCohorts(): Promise<Cohort[]> {
  return (await query<{ cohorts: Cohort[] }>(SPEC)).results.cohorts;
}

const grid = "[data-testid=retention-grid]";

describe("retention insight", () => {
  it("is built from scratch, matches the API, lists a cell's visitors, saves and reloads by URL", {
    timeout: 180_000,
  }, async () => {
    current = await suite.open();
    const { page } = current;
    await open(page, "/product-analytics/insights/new?kind=retention");
    await page.getByLabel("Name").fill("Daily retention");
    await page.locator("#retention-periods").selectOption("4");
    await page.locator(grid).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator(`${grid} thead th`).count(), { timeout: 20_000 }).toBe(2 + 5);

    // A cohort with returns in period 1: its cell in the grid says the API's share.
    const cohorts = await apiCohorts();
    const busy = cohorts.find((c) => c.size > 0 && (c.values[1] ?? 0) > 0 && (c.values[1] ?? 0) <= 50);
    if (!busy) throw new Error(`no cohort with returns: ${JSON.stringify(cohorts)}`);
    const v1 = busy.values[1] as number;
    const share = ((100 * v1) / busy.size).toLocaleString("en-US", { maximumFractionDigits: 1 });
    const cell = page.getByRole("button", { name: new RegExp(`Cohort ${busy.date}, day 1: ${v1} of ${busy.size} visitors`) });
    await expect
      .poll(() => cell.locator(".retention-pct").textContent(), { timeout: 20_000 })
      .toMatch(new RegExp(`^${share}%\\*?$`));
    expect(await page.locator("[data-testid=retention-mean-0]").textContent()).toBe("100%");

    await cell.click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.locator(".insight-actors a").count(), { timeout: 20_000 }).toBe(v1);
    expect(await dialog.locator(".insight-actors a").first().getAttribute("href")).toMatch(/^\/customers\//);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });

    expect(JSON.parse(new URL(page.url()).searchParams.get("q") ?? "{}")).toMatchObject({ kind: "retention", periods: 4 });
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/product-analytics\/insights\/[A-Za-z0-9]{8}$/);
    const url = page.url();
    await page.goto(url);
    await expect.poll(() => page.locator("main h1").first().textContent()).toBe("Daily retention");
    await page.locator(grid).waitFor({ timeout: 30_000 });
    expect(await page.locator("#retention-periods").inputValue()).toBe("4");

    for (const theme of ["light", "dark"] as const) {
      await open(page, new URL(url).pathname, theme);
      await page.locator(`${grid}`).waitFor({ timeout: 30_000 });
      await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`retention-${theme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: shot(`retention-${theme}-phone.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
