// A funnel insight (#23 item 2) in Chromium against a real server seeded with 30 days of synthetic
// traffic: build it from scratch (kind, three steps, window), see the API's numbers per step,
// save it and reopen it by URL, click through from a step's drop-off to a visitor's page; axe-core
// clean and screenshots in both themes, desktop and phone (under SHOTS_DIR, else /tmp/shots/funnels).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { describe, expect, it, vi } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { insightSuite } from "./insight-suite";
import { PHONE, type WatchedPage } from "./support";

// Seeding and the server start share two cores with other runs: give them time.
vi.setConfig({ hookTimeout: 540_000 });
const { suite, shot, open, query } = insightSuite({ shots: "/tmp/shots/funnels", days: 14, visitors: 100 });
let current: WatchedPage;

const SPEC = {
  kind: "funnel",
  period: "last_30_days",
  steps: [{ event: "pageview" }, { event: "signup" }, { event: "purchase" }],
  window: { value: 7, unit: "day" },
  order: "sequential",
};

async function apiSteps(): Promise<{ visitors: number; dropped: number }[]> {
  return (await query<{ steps: { visitors: number; dropped: number }[] }>(SPEC)).results.steps;
}

describe("funnel insight", () => {
  it("is built from scratch, shows the API's numbers, saves, reloads by URL and links a drop-off to a visitor", {
    timeout: 400_000,
  }, async () => {
    current = await suite.open();
    const { page } = current;
    await open(page, "/product-analytics/insights/new");
    await page.locator("#insight-kind").selectOption("funnel");
    await page.getByLabel("Name").fill("Checkout funnel");
    await page.locator("#step-1-event").fill("signup");
    await page.getByRole("button", { name: "Add step" }).click();
    await page.locator("#step-2-event").fill("purchase");
    await page.locator("#funnel-window").fill("7");

    const expected = await apiSteps();
    expect(expected[0]?.visitors).toBeGreaterThan(0);
    expect(expected[2]?.dropped).toBeGreaterThan(0);
    const cells = () => page.locator(".funnel-steps tbody tr td:nth-child(2)").allTextContents();
    await expect.poll(cells, { timeout: 60_000 }).toEqual(expected.map((s) => s.visitors.toLocaleString("en-US")));

    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/product-analytics\/insights\/[A-Za-z0-9]{8}$/);
    const url = page.url();
    await page.goto(url);
    await expect.poll(() => page.locator("main h1").first().textContent(), { timeout: 60_000 }).toBe("Checkout funnel");
    await expect.poll(cells, { timeout: 60_000 }).toEqual(expected.map((s) => s.visitors.toLocaleString("en-US")));
    expect(await page.locator("#step-2-event").inputValue()).toBe("purchase");

    for (const theme of ["light", "dark"] as const) {
      await open(page, new URL(url).pathname, theme);
      await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 60_000 });
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`funnel-${theme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: shot(`funnel-${theme}-phone.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // Drop-off before step 3 -> the visitors -> one visitor's page.
    await page.getByRole("button", { name: /dropped off before step 3: purchase/ }).click();
    const dialog = page.getByRole("dialog");
    const first = dialog.locator(".insight-actors a").first();
    await first.waitFor({ timeout: 60_000 });
    expect(describeViolations(await axeViolations(page))).toBe("");
    await page.screenshot({ path: shot("funnel-dark-dropped.png") });
    const href = (await first.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/customers\/.+/);
    await first.click();
    await page.waitForURL(new RegExp(`${href}$`));
    await expect.poll(() => page.locator("main h1").first().textContent(), { timeout: 15_000 }).toBe("Visitor");
  });
});
