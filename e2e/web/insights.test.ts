// Product analytics (#23) in Chromium against a real server seeded with 30 days of synthetic
// traffic: build a trends insight from scratch (two series, a formula), see the number the API
// gives, save it, reload it by URL, find it in the list; then the saved-insights shell: find it by
// search, change it and share the unsaved URL (reload warned by beforeunload), save as new, the
// in-app leave warning, delete and undo. axe-core clean and screenshots in both themes, desktop
// and phone (under SHOTS_DIR, else /tmp/shots-insights).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Dialog } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { insightSuite } from "./insight-suite";
import { PHONE, type WatchedPage } from "./support";

const { suite, shot, open, query } = insightSuite({ shots: "/tmp/shots-insights" });
let current: WatchedPage;

const SPEC = {
  kind: "trends",
  period: "last_30_days",
  series: [
    { event: "pageview", math: "unique_visitors" },
    { event: "signup", math: "unique_visitors" },
  ],
  formula: "B/A*100",
};

/** The formula's total as the API answers it. */
async function apiTotal(): Promise<number> {
  const { results } = await query<{ series: string; total: number }[]>(SPEC);
  expect(results.map((x) => x.series)).toEqual(["formula"]);
  return results[0]?.total ?? Number.NaN;
}

describe("trends insight", () => {
  it("is built from scratch, shows the API's number, saves, reloads by URL and is listed", { timeout: 300_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await open(page, "/product-analytics");
    await expect.poll(() => page.getByText("No saved insights yet").count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole("button", { name: "New insight" }).click();
    await page.locator(".new-insight-menu a[data-kind=trends]").click();
    await page.waitForURL(/\/product-analytics\/insights\/new\?kind=trends/);

    await page.getByLabel("Name").fill("Signup rate");
    await page.locator("#series-0-math").selectOption("unique_visitors");
    await page.getByRole("button", { name: "Add series" }).click();
    await page.locator("#series-1-event").fill("signup");
    await page.locator("#series-1-math").selectOption("unique_visitors");
    await page.getByLabel("Formula over the series").fill("B/A*100");
    await page.locator("#insight-display").selectOption("number");

    const expected = (await apiTotal()).toLocaleString("en-US", { maximumFractionDigits: 2 });
    await expect.poll(() => page.locator(".fs-2").first().textContent(), { timeout: 20_000 }).toBe(expected);
    // The unsaved spec is in the URL: a reload keeps it.
    expect(JSON.parse(new URL(page.url()).searchParams.get("q") ?? "{}")).toMatchObject({
      formula: "B/A*100",
      display: "number",
    });

    await page.locator("#insight-display").selectOption("line");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForURL(/\/product-analytics\/insights\/[A-Za-z0-9]{8}$/);
    const url = page.url();
    await page.goto(url);
    await expect.poll(() => page.locator("main h1").first().textContent()).toBe("Signup rate");
    await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });
    expect(await page.locator("#insight-formula").inputValue()).toBe("B/A*100");

    for (const theme of ["light", "dark"] as const) {
      await open(page, new URL(url).pathname, theme);
      await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`insight-${theme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: shot(`insight-${theme}-phone.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    await open(page, "/product-analytics", "dark");
    await page.getByRole("link", { name: "Signup rate" }).waitFor();
    expect(describeViolations(await axeViolations(page))).toBe("");
    await page.screenshot({ path: shot("list-dark-desktop.png"), fullPage: true });
  });

  it("is found by search, shared unsaved, saved as new, guarded on leave, deleted and restored", {
    timeout: 180_000,
  }, async () => {
    // Each test has its own page (the suite closes it after each); the saved insight stays.
    current = await suite.open();
    const { page } = current;
    await open(page, "/product-analytics");
    await page.locator("#insights-search").fill("no such insight");
    await expect.poll(() => page.getByText("No saved insight matches").count(), { timeout: 15_000 }).toBe(1);
    await page.locator("#insights-search").fill("SIGNUP");
    await page.waitForURL(/[?&]q=SIGNUP/);
    await page.getByRole("link", { name: "Signup rate" }).click();
    await page.waitForURL(/\/product-analytics\/insights\/[A-Za-z0-9]{8}$/);
    const savedUrl = page.url();
    await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });

    // A change: the spec goes into the URL, and the page says it is unsaved.
    await page.locator("#insight-display").selectOption("bar");
    await page.locator(".insight-unsaved").waitFor();
    const shared = page.url();
    expect(JSON.parse(new URL(shared).searchParams.get("q") ?? "{}")).toMatchObject({ display: "bar" });

    // Reloading asks first (beforeunload); accepted, the unsaved state comes back from the URL.
    const dialogs: string[] = [];
    const onDialog = (d: Dialog) => {
      dialogs.push(d.type());
      void d.accept();
    };
    page.on("dialog", onDialog);
    await page.reload();
    page.off("dialog", onDialog);
    expect(dialogs).toEqual(["beforeunload"]);
    await expect.poll(() => page.locator("#insight-display").inputValue(), { timeout: 15_000 }).toBe("bar");
    // The same URL in another tab shows the same unsaved insight.
    const other = await page.context().newPage();
    await other.goto(shared);
    await expect.poll(() => other.locator("#insight-display").inputValue(), { timeout: 15_000 }).toBe("bar");
    await expect.poll(() => other.locator("#insight-formula").inputValue()).toBe("B/A*100");
    await other.close();

    // Leaving inside the app asks first: Cancel stays, Leave goes.
    await page.locator("#insight-period").selectOption("last_7_days");
    await page.locator('a[href="/product-analytics"]').first().click();
    await page.getByRole("dialog").getByText("Leave without saving?").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect(page.url()).toContain("/product-analytics/insights/");
    await page.locator('a[href="/product-analytics"]').first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Leave" }).click();
    await page.waitForURL(/\/product-analytics$/);

    // Change and save as new: a second insight, the first unchanged.
    await page.goto(shared);
    await page.locator("#insight-display").waitFor();
    await page.getByLabel("Name").fill("Signup rate bars");
    await page.getByLabel("Tags").fill("growth, weekly");
    await page.getByRole("button", { name: "Save as new" }).click();
    await page.waitForURL((u) => /\/insights\/[A-Za-z0-9]{8}$/.test(u.pathname) && u.pathname !== new URL(savedUrl).pathname);
    const copyUrl = page.url();
    await expect.poll(() => page.locator("main h1").first().textContent()).toBe("Signup rate bars");
    expect(await page.locator("#insight-display").inputValue()).toBe("bar");
    await page.goto(savedUrl);
    await expect.poll(() => page.locator("#insight-display").inputValue(), { timeout: 15_000 }).toBe("line");

    // The list: both, the tag filter finds the copy; screenshots and axe in both themes.
    for (const theme of ["light", "dark"] as const) {
      await open(page, "/product-analytics", theme);
      await page.getByRole("link", { name: "Signup rate bars" }).waitFor();
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`list-${theme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: shot(`list-${theme}-phone.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.locator("#insights-tag").selectOption("weekly");
    await page.waitForURL(/[?&]tag=weekly/);
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    await page.getByRole("button", { name: "New insight" }).click();
    await page.locator(".new-insight-menu").waitFor();
    expect(describeViolations(await axeViolations(page))).toBe("");
    await page.screenshot({ path: shot("list-new-menu-dark-desktop.png") });
    await page.keyboard.press("Escape");

    // Delete, then undo from the list.
    await page.goto(copyUrl);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete insight" }).click();
    await page.waitForURL(/\/product-analytics$/);
    await page.locator(".insight-deleted").waitFor();
    expect(await page.getByRole("link", { name: "Signup rate bars" }).count()).toBe(0);
    await page.screenshot({ path: shot("list-undo-dark-desktop.png") });
    await page.getByRole("button", { name: "Undo" }).click();
    await page.waitForURL((u) => u.pathname === new URL(copyUrl).pathname);
    await expect.poll(() => page.locator("main h1").first().textContent()).toBe("Signup rate bars");
  });
});
