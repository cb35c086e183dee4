// Keyboard use of the dashboard (issue #19 item 6): the panels' tabs follow the WAI-ARIA tabs
// pattern (arrows and Home/End move and select, only the selected tab is in the Tab order, a
// menu tab is focused but not opened); removing a filter chip leaves focus on the next chip, the
// previous one, or the Filter button when none is left; every control has a visible focus ring.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { formatFilters } from "@lookout/schema";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, seedEvents, signIn, THEME_KEY } from "./support";

const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }], seedEvents({ indexes: [0], days: 3, visitors: 40 }));
const shop = () => suite.web.propertyIds[0] as string;

async function openDashboard(page: Page, query: string, theme: "light" | "dark" = "light") {
  await signIn(page, suite.web.server);
  await page.evaluate(
    ({ id, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" }));
      localStorage.setItem(key, theme);
    },
    { id: shop(), theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}/dashboard?property=${shop()}&period=last_7_days${query}`);
  await page.locator("main h1", { hasText: "Dashboard" }).waitFor();
}

/** What has focus: its text or aria-label, and its role. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      name: (el?.getAttribute("aria-label") ?? el?.textContent ?? "").trim(),
      role: el?.getAttribute("role") ?? el?.tagName.toLowerCase() ?? "",
      inMain: !!el?.closest("main") && el !== document.querySelector("main"),
    };
  });

/** The tabs of a panel as [label, aria-selected, tabindex]. */
const tabState = (page: Page, panel: string) =>
  page
    .locator(`[data-panel="${panel}"] [role="tab"]`)
    .evaluateAll((tabs) => tabs.map((t) => [t.textContent?.trim(), t.getAttribute("aria-selected"), t.getAttribute("tabindex")]));

describe("dashboard tabs", () => {
  it("move and select with the arrow keys, Home and End; only the selected tab is in the Tab order", async () => {
    const { page } = await suite.open();
    await openDashboard(page, "");
    const tabs = page.locator('[data-panel="sources"] [role="tab"]');
    await tabs.first().waitFor();
    expect(await tabState(page, "sources")).toEqual([
      ["Channels", "true", "0"],
      ["Sources", "false", "-1"],
      ["Referrers", "false", "-1"],
      ["UTM", "false", "-1"],
    ]);

    await tabs.first().focus();
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toMatchObject({ name: "Sources", role: "tab" });
    expect((await tabState(page, "sources"))[1]).toEqual(["Sources", "true", "0"]);
    expect((await tabState(page, "sources"))[0]).toEqual(["Channels", "false", "-1"]);
    await page.locator('[data-panel="sources"] [role="tabpanel"][aria-label="Sources"]').waitFor();

    await page.keyboard.press("End");
    // The UTM tab opens a menu: focused, not opened, and the selection stays.
    expect(await focused(page)).toMatchObject({ name: "UTM", role: "tab" });
    expect(await tabs.nth(3).getAttribute("aria-expanded")).toBe("false");
    expect((await tabState(page, "sources"))[1]).toEqual(["Sources", "true", "0"]);

    await page.keyboard.press("ArrowRight"); // wraps to the first
    expect(await focused(page)).toMatchObject({ name: "Channels", role: "tab" });
    expect((await tabState(page, "sources"))[0]).toEqual(["Channels", "true", "0"]);
    await page.keyboard.press("ArrowLeft"); // wraps to the last
    expect(await focused(page)).toMatchObject({ name: "UTM" });
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toMatchObject({ name: "Referrers" });
    expect((await tabState(page, "sources"))[2]).toEqual(["Referrers", "true", "0"]);

    // Tab leaves the list in one step: the next stop is outside the tablist.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-panel="sources"] [role="tablist"]'))).toBe(false);

    // The Goals panel's tabs too.
    const goals = page.locator('[data-panel="goals"] [role="tab"]');
    await goals.first().focus();
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toMatchObject({ name: "Custom events", role: "tab" });
    expect(await goals.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await goals.nth(0).getAttribute("tabindex")).toBe("-1");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`shows a visible focus ring on tabs, buttons and chips (${theme})`, async () => {
      const { page } = await suite.open();
      await openDashboard(
        page,
        `&filters=${encodeURIComponent(formatFilters([{ dimension: "page", op: "is", values: ["/a"] }]))}`,
        theme,
      );
      const targets = [
        '[data-panel="pages"] [role="tab"][aria-selected="true"]',
        ".filter-chip-remove",
        ".filter-chip-edit",
        ".filter-add",
        ".stat-card-button",
        '[data-panel="pages"] .card-footer .btn',
      ];
      for (const selector of targets) {
        await page.locator(selector).first().waitFor();
        // Focus by keyboard (Tab from the element before), so :focus-visible applies.
        await page.locator(selector).first().focus();
        await page.keyboard.press("Shift+Tab");
        await page.keyboard.press("Tab");
        const ring = await page
          .locator(selector)
          .first()
          .evaluate((el) => {
            const s = getComputedStyle(el);
            return { focused: el === document.activeElement, style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth) };
          });
        expect(ring, selector).toEqual({ focused: true, style: "solid", width: 2 });
      }
    });
  }
});

describe("filter chips", () => {
  it("keep focus in place when one is removed", async () => {
    const { page } = await suite.open();
    const filters = formatFilters([
      { dimension: "page", op: "is", values: ["/a"] },
      { dimension: "source", op: "is", values: ["Google"] },
      { dimension: "browser", op: "is", values: ["Firefox"] },
    ]);
    await openDashboard(page, `&filters=${encodeURIComponent(filters)}`);
    const removes = page.locator(".filter-chip-remove");
    await removes.nth(2).waitFor();

    // The middle chip: focus moves to the one that took its place (the last).
    await removes.nth(1).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => removes.count()).toBe(2);
    await expect.poll(async () => (await focused(page)).name).toMatch(/^Remove filter: Browser/);

    // The last chip: focus moves to the one before it.
    await page.keyboard.press("Enter");
    await expect.poll(() => removes.count()).toBe(1);
    await expect.poll(async () => (await focused(page)).name).toMatch(/^Remove filter: Page/);

    // The only chip: focus goes to the bar's Filter button, not to the body.
    await page.keyboard.press("Enter");
    await expect.poll(() => removes.count()).toBe(0);
    await expect.poll(async () => (await focused(page)).name).toBe("Filter");
    expect(new URL(page.url()).searchParams.get("filters")).toBeNull();
  });
});
