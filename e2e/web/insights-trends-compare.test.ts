// Trends compared with the previous period (#23) in Chromium against a real server seeded with 60
// days of synthetic traffic: from a new trends insight, "Compare to previous period" puts the
// comparison in the spec in the URL; the number display shows the API's earlier total and change;
// the line chart draws the earlier series (dashed) beside the current one. axe-core clean and
// screenshots in both themes (under SHOTS_DIR, else /tmp/shots/trends-compare).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { insightSuite } from "./insight-suite";
import type { WatchedPage } from "./support";

const { suite, shot, open, query } = insightSuite({ shots: "/tmp/shots/trends-compare", days: 60, visitors: 300 });
let current: WatchedPage;

type Answer = { results: { total: number; comparison?: { total: number; change: number | null } }[] };

async function apiAnswer(spec: unknown): Promise<Answer> {
  return query<Answer["results"]>(spec);
}

const specInUrl = (page: Page) => JSON.parse(new URL(page.url()).searchParams.get("q") ?? "{}") as Record<string, unknown>;

describe("trends comparison", () => {
  it("compares with the previous period: the URL's spec, the API's change, the dashed series", { timeout: 240_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await open(page, "/product-analytics/insights/new?kind=trends");
    await page.getByLabel("Name").fill("Visitors vs before");
    await page.locator("#series-0-math").selectOption("unique_visitors");
    await page.getByLabel("Compare to previous period").check();
    await expect.poll(() => specInUrl(page).comparison).toBe("previous_period");
    await page.locator("#insight-display").selectOption("number");
    await expect.poll(() => specInUrl(page).display).toBe("number");

    const spec = specInUrl(page);
    const answer = await apiAnswer(spec);
    const r = answer.results[0];
    expect(r?.comparison).toBeDefined();
    const change = r?.comparison?.change ?? null;
    const sign = change === null ? "" : change > 0 ? "+" : change < 0 ? "−" : "";
    const changeText = change === null ? "" : `${sign}${Math.abs(change).toLocaleString("en-US", { maximumFractionDigits: 1 })}%`;
    const expected = `${changeText ? `${changeText} ` : ""}vs ${(r?.comparison?.total ?? 0).toLocaleString("en-US")} (previous period)`;
    await expect
      .poll(() => page.locator("[data-testid=trends-change]").first().textContent(), { timeout: 30_000 })
      .toBe(expected);

    await page
      .locator("[data-testid=trends-number]")
      .first()
      .screenshot({ path: shot("trends-compare-number-light.png") });

    // The line chart with the earlier series; reloading the shared URL keeps the comparison.
    await page.locator("#insight-display").selectOption("line");
    await expect.poll(() => specInUrl(page).display).toBe("line");
    const url = new URL(page.url());
    for (const theme of ["light", "dark"] as const) {
      await open(page, `${url.pathname}${url.search}`, theme);
      await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 30_000 });
      expect(await page.getByLabel("Compare to previous period").isChecked()).toBe(true);
      const label = await page.locator("[data-testid=insight-chart]").getAttribute("aria-label");
      expect(label).toContain("previous period");
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`trends-compare-${theme}-desktop.png`), fullPage: true });
    }
  });
});
