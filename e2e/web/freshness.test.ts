// Fresh numbers (issue #19 item 4): on a range that includes today the dashboard refetches while
// the page is visible and shows an event sent meanwhile without a reload, keeping the numbers on
// show (no skeleton) and the scroll position; a past range never refetches. The period is
// shortened for the test with window.__LOOKOUT_REFRESH_MS__ (the app's own is 45 s).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, signIn } from "./support";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }]);
const shop = () => suite.web.propertyIds[0] as string;

/** One pageview as the tracker sends it, from one visitor (the same address and browser). */
async function sendPageview(path: string) {
  const r = await fetch(`${suite.web.server.url}/api/event`, {
    method: "POST",
    headers: { "content-type": "text/plain", "user-agent": CHROME, "x-forwarded-for": "203.0.113.9" },
    body: JSON.stringify({ property: shop(), name: "pageview", url: `https://shop.example${path}` }),
  });
  expect(r.status).toBe(202);
  expect(r.headers.get("x-lookout-dropped")).toBeNull();
}

async function openDashboard(page: Page, period: string) {
  await page.addInitScript(() => {
    (window as { __LOOKOUT_REFRESH_MS__?: number }).__LOOKOUT_REFRESH_MS__ = 500;
  });
  await signIn(page, suite.web.server);
  await page.evaluate(
    (id) => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" })),
    shop(),
  );
  await page.goto(`${suite.web.server.url}/dashboard?property=${shop()}&period=${period}`);
  await page.locator("main h1", { hasText: "Dashboard" }).waitFor();
}

const pageviews = (page: Page) =>
  page.locator('.stat-card[data-metric="pageviews"] .stat-value[data-value]').getAttribute("data-value");

describe("fresh numbers", () => {
  it("on Today, shows a new event without a reload, keeping the numbers and the scroll", { timeout: 30_000 }, async () => {
    await sendPageview("/");
    const { page } = await suite.open({ viewport: { width: 1280, height: 500 } });
    await openDashboard(page, "today");
    await expect.poll(() => pageviews(page), { timeout: 10_000 }).toBe("1");
    await page.locator('[data-panel="pages"] .breakdown-row').first().waitFor();

    // Every panel loaded (the Map's chart code included) before watching for skeletons.
    await page.waitForFunction(
      () => !document.querySelector(".top-stats .placeholder, .list-skeleton, .chart-skeleton, .is-reloading"),
    );
    // A mark that a reload would wipe, a scrolled page, and a watch for skeletons or a blank value.
    await page.evaluate(() => {
      const w = window as unknown as { __mark: string; __flicker: string[] };
      w.__mark = "same page";
      w.__flicker = [];
      window.scrollTo({ top: 400, behavior: "instant" });
      new MutationObserver(() => {
        if (document.querySelector(".top-stats .placeholder, .list-skeleton, .chart-skeleton")) w.__flicker.push("skeleton");
        if (!document.querySelector('.stat-card[data-metric="pageviews"] .stat-value[data-value]')) w.__flicker.push("blank");
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);

    await sendPageview("/pricing");
    await expect.poll(() => pageviews(page), { timeout: 10_000 }).toBe("2");
    await page.locator('[data-panel="pages"] .breakdown-row[data-value="/pricing"]').waitFor({ timeout: 10_000 });
    const after = await page.evaluate(() => {
      const w = window as unknown as { __mark?: string; __flicker: string[] };
      return { mark: w.__mark, flicker: w.__flicker, scrollY: window.scrollY };
    });
    expect(after).toEqual({ mark: "same page", flicker: [], scrollY: scrolled });
  });

  it("on a past range, does not refetch", { timeout: 30_000 }, async () => {
    const { page } = await suite.open();
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/stats/")) asked.push(r.url());
    });
    await openDashboard(page, "yesterday");
    await page.locator('.stat-card[data-metric="pageviews"] .stat-value').first().waitFor();
    await page.waitForLoadState("networkidle");
    const settled = asked.length;
    expect(settled).toBeGreaterThan(0);
    // Ten refresh periods of the test's 500 ms.
    await page.waitForTimeout(5_000);
    expect(asked.slice(settled)).toEqual([]);
  });
});
