// The signed-in shell (SPEC.md §2–§4): theme persistence and auto mode, sidebar show/hide and
// unfoldable on desktop and phone, the current property with breadcrumb Change, restore on load
// and cross-tab sync, the date range kept while navigating, and keyboard reach.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, PHONE, signIn, storage, THEME_KEY, type WatchedPage, watch } from "./support";

const suite = browserSuite([
  { url: "https://shop.example", name: "Shop" },
  { url: "https://blog.example", name: "Blog" },
]);
let current: WatchedPage;

const themeAttr = (page: Page) => page.evaluate(() => document.documentElement.dataset.coreuiTheme);
const sidebarClasses = async (page: Page) => ((await page.locator(".sidebar").getAttribute("class")) ?? "").split(/\s+/);
const wrapperPadding = (page: Page) => page.locator(".wrapper").evaluate((el) => getComputedStyle(el).paddingInlineStart);

async function openShell(page: Page, path = "/dashboard") {
  await page.goto(`${suite.web.server.url}${path}`);
  await page.locator("main h1").first().waitFor();
}

async function chooseTheme(page: Page, label: "Light" | "Dark" | "Auto") {
  await page.getByRole("button", { name: /^Theme:/ }).click();
  await page.locator(".dropdown-menu.show").getByRole("button", { name: label }).click();
}

describe("theme", () => {
  it("follows the system preference while nothing is stored", async () => {
    for (const scheme of ["dark", "light"] as const) {
      current = await suite.open({ colorScheme: scheme });
      const { page } = current;
      await page.goto(`${suite.web.server.url}/login`);
      await page.getByRole("button", { name: "Log In" }).waitFor();
      expect(await themeAttr(page)).toBe(scheme);
      expect(await storage(page, [THEME_KEY])).toEqual({ [THEME_KEY]: null });
      if (scheme === "dark") {
        expect(current.problems).toEqual([]);
        await current.close();
      }
    }
  });

  it("keeps a chosen theme across reloads, and auto follows system changes", async () => {
    current = await suite.open({ colorScheme: "light" });
    const { page } = current;
    await signIn(page, suite.web.server);
    await openShell(page);
    expect(await themeAttr(page)).toBe("light");

    await chooseTheme(page, "Dark");
    expect(await themeAttr(page)).toBe("dark");
    expect(await storage(page, [THEME_KEY])).toEqual({ [THEME_KEY]: "dark" });
    await page.reload();
    await page.locator("main h1").first().waitFor();
    expect(await themeAttr(page)).toBe("dark");
    expect(await page.getByRole("button", { name: "Theme: Dark" }).count()).toBe(1);

    await chooseTheme(page, "Auto");
    expect(await storage(page, [THEME_KEY])).toEqual({ [THEME_KEY]: "auto" });
    expect(await themeAttr(page)).toBe("light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => document.documentElement.dataset.coreuiTheme === "dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.waitForFunction(() => document.documentElement.dataset.coreuiTheme === "light");

    await chooseTheme(page, "Light");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await themeAttr(page)).toBe("light");
    expect(await storage(page, [THEME_KEY])).toEqual({ [THEME_KEY]: "light" });
  });

  it("is applied before the app's code runs (no light flash for dark users)", async () => {
    current = await suite.open({ colorScheme: "light" });
    const { page } = current;
    await page.goto(`${suite.web.server.url}/login`);
    await page.evaluate((k) => localStorage.setItem(k, "dark"), THEME_KEY);
    await page.route("**/assets/*.js", (r) => r.abort());
    await page.goto(`${suite.web.server.url}/login`);
    expect(await themeAttr(page)).toBe("dark");
    current.problems.length = 0; // the aborted bundle is this test's own doing
  });
});

describe("sidebar", () => {
  it("hides and shows from the header, and folds from its footer toggler (desktop)", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    await openShell(page);
    expect(await sidebarClasses(page)).not.toContain("hide");
    expect(await wrapperPadding(page)).toBe("256px");

    const toggle = page.locator(".header-toggler-start");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await toggle.click();
    await page.waitForFunction(() => document.querySelector(".sidebar")?.classList.contains("hide"));
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector(".wrapper") as Element).paddingInlineStart === "0px",
    );
    await toggle.click();
    await page.waitForFunction(() => !document.querySelector(".sidebar")?.classList.contains("hide"));

    const folder = page.locator(".sidebar-toggler");
    await folder.click();
    expect(await sidebarClasses(page)).toContain("sidebar-narrow-unfoldable");
    await page.mouse.move(900, 400); // off the sidebar, so it stays narrow
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector(".wrapper") as Element).paddingInlineStart === "64px",
    );
    await folder.click();
    expect(await sidebarClasses(page)).not.toContain("sidebar-narrow-unfoldable");

    // The page footer carries the same toggler.
    const footerToggler = page.locator(".footer-unfoldable-toggler");
    await footerToggler.click();
    expect(await sidebarClasses(page)).toContain("sidebar-narrow-unfoldable");
    await footerToggler.click();
    expect(await sidebarClasses(page)).not.toContain("sidebar-narrow-unfoldable");
  });

  it("starts closed on a phone, opens from the header and closes with its close button", async () => {
    current = await suite.open({ viewport: PHONE });
    const { page } = current;
    await signIn(page, suite.web.server);
    await openShell(page);
    const inView = () => page.locator(".sidebar").evaluate((el) => el.getBoundingClientRect().right > 0);
    expect(await sidebarClasses(page)).not.toContain("show");
    await page.waitForFunction(() => (document.querySelector(".sidebar")?.getBoundingClientRect().right ?? 1) <= 0);

    await page.locator(".header-toggler-start").click();
    await page.waitForFunction(() => document.querySelector(".sidebar")?.classList.contains("show"));
    await page.waitForFunction(() => (document.querySelector(".sidebar")?.getBoundingClientRect().left ?? -1) >= 0);
    expect(await inView()).toBe(true);

    await page.getByRole("button", { name: "Close the sidebar" }).click();
    await page.waitForFunction(() => !document.querySelector(".sidebar")?.classList.contains("show"));

    await page.locator(".header-toggler-start").click();
    await page.locator(".sidebar-nav").getByRole("link", { name: "Team" }).click();
    await page.locator("main h1", { hasText: "Team" }).waitFor();
    await page.waitForFunction(() => !document.querySelector(".sidebar")?.classList.contains("show"));
  });
});

describe("current property", () => {
  it("is chosen from the picker, shown in the breadcrumb, restored on load and cleared by Change", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    await openShell(page);
    const cards = page.locator(".property-card");
    await cards.first().waitFor();
    expect(await cards.locator(".property-card-name").allTextContents()).toEqual(["Shop", "Blog"]);
    expect(await cards.locator(".property-card-url").allTextContents()).toEqual(["https://shop.example", "https://blog.example"]);

    await cards.filter({ hasText: "Blog" }).click();
    await page.locator(".current-property-url", { hasText: "https://blog.example" }).waitFor();
    const stored = JSON.parse((await storage(page, ["currentProperty"])).currentProperty ?? "null");
    expect(stored).toEqual({ unique_id: suite.web.propertyIds[1], website_url: "https://blog.example" });
    expect(await page.locator(".property-card").count()).toBe(0);

    await page.reload();
    await page.locator(".current-property-url", { hasText: "https://blog.example" }).waitFor();

    await page.getByRole("button", { name: "Change" }).click();
    await page.locator(".property-card").first().waitFor();
    expect(await page.locator(".current-property").count()).toBe(0);
    expect(await storage(page, ["currentProperty"])).toEqual({ currentProperty: null });
  });

  it("keeps every open tab in step", async () => {
    current = await suite.open();
    const { page: a, context } = current;
    await signIn(a, suite.web.server);
    await openShell(a);
    const b = await context.newPage();
    watch(b, current.problems);
    await openShell(b, "/live");
    await a.locator(".property-card").first().waitFor();
    await b.locator(".property-card").first().waitFor();

    await a.locator(".property-card", { hasText: "Shop" }).click();
    await b.locator(".current-property-url", { hasText: "https://shop.example" }).waitFor();
    expect(await b.locator(".property-card").count()).toBe(0);

    // A selection made elsewhere with only an id is shown by its id.
    await b.evaluate(() => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: "only-an-id" })));
    await a.locator(".current-property-url", { hasText: "only-an-id" }).waitFor();

    await b.getByRole("button", { name: "Change" }).click();
    await a.locator(".property-card").first().waitFor();
    expect(await a.locator(".current-property").count()).toBe(0);
    expect(await storage(a, ["currentProperty"])).toEqual({ currentProperty: null });
  });
});

describe("date range", () => {
  it("defaults to the last 7 days and is kept while navigating", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    await openShell(page);
    const select = page.getByLabel("Date range");
    expect(await select.inputValue()).toBe("last_7_days");
    // The 7 calendar days that end today (no property chosen: the browser's timezone), not 7×24 h.
    const days = await page.evaluate(() => {
      const fmt = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
      const now = new Date();
      return fmt.formatRange(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6), now);
    });
    expect(await page.getByTestId("date-range-span").textContent()).toBe(days);

    await select.selectOption("last_30_days");
    await page.locator(".sidebar-nav").getByRole("link", { name: "Product Analytics" }).click();
    await page.locator("main h1", { hasText: "Product Analytics" }).waitFor();
    // Insights carry their own ranges; the dashboard's range is kept for the way back.
    await page.locator(".sidebar-nav").getByRole("link", { name: "Dashboard" }).click();
    expect(await page.getByLabel("Date range").inputValue()).toBe("last_30_days");
  });
});

describe("keyboard", () => {
  it("skips to the content and picks a property without a mouse", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    await openShell(page);
    await page.locator(".property-card").first().waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.classList.contains("property-card"))) break;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("Shop");
    await page.keyboard.press("Enter");
    await page.locator(".current-property-url", { hasText: "https://shop.example" }).waitFor();
  });
});
