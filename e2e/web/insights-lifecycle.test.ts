// The lifecycle insight (#23 item 4) in Chromium against a real server seeded with 30 days of
// synthetic traffic: build it from scratch (weekly pageviews), check the table against the API's
// answer, save, reopen by URL; axe-core clean and screenshots in both themes, desktop and phone
// (under SHOTS_DIR, else /tmp/shots/retention).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { insightSuite } from "./insight-suite";
import { PHONE, type WatchedPage } from "./support";

const { suite, shot, open, query } = insightSuite({ shots: "/tmp/shots/lifecycle" });
let current: WatchedPage;

const SPEC = { kind: "lifecycle", period: "last_30_days", interval: "week", event: { event: "pageview" } };
type Point = { date: string; new: number; returning: number; resurrecting: number; dormant: number };

async function apiPoints(): Promise<Point[]> {
  return (await query<Point[]>(SPEC)).results;
}

const table = "[data-testid=lifecycle-table]";

describe("lifecycle insight", () => {
  it("is built from scratch, matches the API, saves and reloads by URL", { timeout: 180_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await open(page, "/product-analytics/insights/new?kind=lifecycle");
    await page.getByLabel("Name").fill("Weekly lifecycle");
    await page.locator("#lifecycle-interval").selectOption("week");
    await page.locator(table).waitFor({ timeout: 30_000 });
    const points = await apiPoints();
    const expected = points.map((p) =>
      [p.date, p.new, p.returning, p.resurrecting, p.dormant].map((x) => x.toLocaleString("en-US")).join("|"),
    );
    const shown = () =>
      page.locator(`${table} tbody tr`).evaluateAll((rows) =>
        rows.map((r) =>
          Array.from(r.children)
            .map((c) => c.textContent)
            .join("|"),
        ),
      );
    await expect.poll(shown, { timeout: 20_000 }).toEqual(expected);
    expect(points.some((p) => p.dormant < 0)).toBe(true);

    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/product-analytics\/insights\/[A-Za-z0-9]{8}$/);
    const url = page.url();
    for (const theme of ["light", "dark"] as const) {
      await open(page, new URL(url).pathname, theme);
      await expect.poll(() => page.locator("main h1").first().textContent()).toBe("Weekly lifecycle");
      await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });
      expect(await page.locator("#lifecycle-interval").inputValue()).toBe("week");
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`lifecycle-${theme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: shot(`lifecycle-${theme}-phone.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
