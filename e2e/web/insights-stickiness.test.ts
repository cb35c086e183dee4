// The stickiness insight (#23 item 4) in Chromium against a real server seeded with 30 days of
// synthetic traffic: build it from scratch (weekly pageviews, n or more), check the chart's numbers
// against the API's answer, save, reopen by URL; axe-core clean and screenshots in both themes,
// desktop and phone (under SHOTS_DIR, else /tmp/shots/stickiness).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { insightSuite } from "./insight-suite";
import { PHONE, type WatchedPage } from "./support";

const { suite, shot, open, query } = insightSuite({ shots: "/tmp/shots/stickiness" });
let current: WatchedPage;

const SPEC = {
  kind: "stickiness",
  period: "last_30_days",
  interval: "week",
  event: { event: "pageview" },
  cumulative: true,
};
type Point = { intervals: number; visitors: number };

async function apiPoints(): Promise<Point[]> {
  return (await query<Point[]>(SPEC)).results;
}

const chart = "[data-testid=insight-chart]";

describe("stickiness insight", () => {
  it("is built from scratch, matches the API, saves and reloads by URL", { timeout: 180_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await open(page, "/product-analytics/insights/new?kind=stickiness");
    await page.getByLabel("Name").fill("Weekly stickiness");
    await page.locator("#stickiness-interval").selectOption("week");
    await page.locator("#stickiness-cumulative").selectOption("more");
    await page.locator(`${chart} canvas`).waitFor({ timeout: 30_000 });
    const spec = () => JSON.parse(new URL(page.url()).searchParams.get("q") ?? "{}") as Record<string, unknown>;
    await expect.poll(() => spec().cumulative).toBe(true);
    expect(spec()).toMatchObject(SPEC);

    // The chart's accessible label carries its numbers: the same as the API's, n by n.
    const points = await apiPoints();
    const expected = `Stickiness: ${points
      .map((p) => `≥ ${p.intervals} week${p.intervals === 1 ? "" : "s"}: ${p.visitors} visitors`)
      .join(", ")}`;
    await expect.poll(() => page.locator(chart).getAttribute("aria-label"), { timeout: 20_000 }).toBe(expected);
    expect(points.length).toBeGreaterThanOrEqual(4);
    expect(points[0]?.visitors).toBeGreaterThan(0);
    // Cumulative: never more visitors for a larger n.
    for (let i = 1; i < points.length; i++) expect(points[i]?.visitors).toBeLessThanOrEqual(points[i - 1]?.visitors ?? 0);

    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/product-analytics\/insights\/[A-Za-z0-9]{8}$/);
    const url = page.url();
    for (const theme of ["light", "dark"] as const) {
      await open(page, new URL(url).pathname, theme);
      await expect.poll(() => page.locator("main h1").first().textContent()).toBe("Weekly stickiness");
      await page.locator(`${chart} canvas`).waitFor({ timeout: 20_000 });
      expect(await page.locator("#stickiness-interval").inputValue()).toBe("week");
      expect(await page.locator("#stickiness-cumulative").inputValue()).toBe("more");
      await expect.poll(() => page.locator(chart).getAttribute("aria-label"), { timeout: 20_000 }).toBe(expected);
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`stickiness-${theme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: shot(`stickiness-${theme}-phone.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
