// Links that name the site (issue #19 item 3): the dashboard's URL carries the property with the
// period and filters, a signed-out visitor opening such a link is sent to /login and, signed in
// through the form, lands on the same view; a link naming another of the user's properties selects
// it (and stores it under SPEC.md's `currentProperty`); one naming a property of another account
// says so above the picker; the live view carries the property too.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { formatFilters } from "@lookout/schema";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { provision } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, OWNER, signIn, storage, THEME_KEY } from "./support";

const STRANGER = { email: "stranger@example.com", password: "another-long-passphrase" };
let foreign = "";

// Another account with its own property: its id must not open for the owner.
const suite = browserSuite(
  [
    { url: "https://shop.example", name: "Shop" },
    { url: "https://blog.example", name: "Blog" },
  ],
  async (dataDir) => {
    [[foreign = ""] = []] = await provision(dataDir, [
      { ...STRANGER, sites: [{ url: "https://stranger.example", name: "Stranger" }] },
    ]);
  },
);

const FILTERS = formatFilters([{ dimension: "page", op: "is", values: ["/pricing"] }]);
const RANGE = "2025-01-01,2025-01-31";

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);
const storedId = async (page: Page) =>
  JSON.parse((await storage(page, ["currentProperty"])).currentProperty ?? "null")?.unique_id ?? null;

/** Waits until the URL's parameters include `want`. */
async function waitParams(page: Page, want: Record<string, string>) {
  await page.waitForFunction((w) => Object.entries(w).every(([k, v]) => new URL(location.href).searchParams.get(k) === v), want);
}

describe("deep links", () => {
  it("survive sign-in: the same property, period and filters after the login form", { timeout: 30_000 }, async () => {
    const { page } = await suite.open();
    const [, blog = ""] = suite.web.propertyIds;
    // The Stats API calls the dashboard makes once signed in: they must be for the link's view.
    const calls: URL[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/stats/aggregate")) calls.push(new URL(r.url()));
    });
    const target = `/dashboard?${new URLSearchParams({ property: blog, period: "custom", date: RANGE, filters: FILTERS })}`;
    await page.goto(`${suite.web.server.url}${target}`);
    await page.waitForURL((u) => u.pathname === "/login");
    expect(param(page, "next")).toBe(target);

    await page.locator("#login-email").fill(OWNER.email);
    await page.locator("#login-password").fill(OWNER.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    await waitParams(page, { property: blog, period: "custom", date: RANGE, filters: FILTERS });
    await page.locator(".current-property-url", { hasText: "https://blog.example" }).waitFor();
    expect(await storedId(page)).toBe(blog);
    await expect.poll(() => calls.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const call = calls.find((u) => u.searchParams.get("property_id") === blog);
    expect(call?.searchParams.get("period")).toBe("custom");
    expect(call?.searchParams.get("date")).toBe(RANGE);
    expect(call?.searchParams.get("filters")).toBe(FILTERS);
    expect(calls.every((u) => u.searchParams.get("property_id") === blog)).toBe(true);
  });

  it("refuses to send the login anywhere but this site", async () => {
    const { page } = await suite.open();
    await page.goto(`${suite.web.server.url}/login?next=${encodeURIComponent("//evil.example/dashboard")}`);
    await page.locator("#login-email").fill(OWNER.email);
    await page.locator("#login-password").fill(OWNER.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    expect(new URL(page.url()).origin).toBe(suite.web.server.url);
  });

  it("select another of the user's properties, and the picker rewrites the link", async () => {
    const { page } = await suite.open();
    const [shop = "", blog = ""] = suite.web.propertyIds;
    await signIn(page, suite.web.server);
    await page.evaluate(
      (id) => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" })),
      shop,
    );
    await page.goto(`${suite.web.server.url}/dashboard?property=${blog}&period=last_30_days`);
    await page.locator(".current-property-url", { hasText: "https://blog.example" }).waitFor();
    await waitParams(page, { property: blog, period: "last_30_days" });
    expect(await storedId(page)).toBe(blog);

    // Change, then pick the Shop: the URL names the Shop and keeps the period.
    await page.getByRole("button", { name: "Change" }).click();
    await page.locator(".property-card", { hasText: "Shop" }).click();
    await page.locator(".current-property-url", { hasText: "https://shop.example" }).waitFor();
    await waitParams(page, { property: shop, period: "last_30_days" });
    expect(await storedId(page)).toBe(shop);
  });

  it("naming a property of another account shows a message with the picker, not its data", async () => {
    const { page } = await suite.open();
    const [shop = "", blog = ""] = suite.web.propertyIds;
    expect(foreign).toMatch(/^[\w-]+$/);
    await signIn(page, suite.web.server);
    await page.evaluate(
      (id) => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" })),
      shop,
    );
    const statsCalls: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/stats/")) statsCalls.push(r.url());
    });
    for (const id of [foreign, "no-such-site"]) {
      await page.goto(`${suite.web.server.url}/dashboard?property=${id}&period=last_30_days`);
      await page.getByRole("alert").filter({ hasText: "This link is for a property" }).waitFor();
      await page.getByRole("heading", { name: "Choose a property" }).waitFor();
      // The foreign id is neither stored nor asked about, and the other site is not shown instead.
      expect(await storedId(page)).toBe(shop);
      expect(await page.locator(".current-property-url").count()).toBe(0);
    }
    expect(statsCalls).toEqual([]);
    // The notice is axe-clean in both themes.
    for (const theme of ["light", "dark"]) {
      await page.evaluate(([k, t]) => localStorage.setItem(k as string, t as string), [THEME_KEY, theme]);
      await page.reload();
      await page.getByRole("alert").filter({ hasText: "This link is for a property" }).waitFor();
      await page.waitForFunction((t) => document.documentElement.getAttribute("data-coreui-theme") === t, theme);
      const violations = await axeViolations(page);
      expect(violations, `${theme}: ${describeViolations(violations)}`).toEqual([]);
    }

    await page.locator(".property-card", { hasText: "Blog" }).click();
    await page.locator(".current-property-url", { hasText: "https://blog.example" }).waitFor();
    await waitParams(page, { property: blog, period: "last_30_days" });
    expect(await page.getByRole("alert").filter({ hasText: "This link is for a property" }).count()).toBe(0);
  });

  it("the live view carries the property too", async () => {
    const { page } = await suite.open();
    const [shop = "", blog = ""] = suite.web.propertyIds;
    await signIn(page, suite.web.server);
    await page.evaluate(
      (id) => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" })),
      shop,
    );
    await page.goto(`${suite.web.server.url}/live`);
    await waitParams(page, { property: shop });
    await page.goto(`${suite.web.server.url}/live?property=${blog}`);
    await page.locator(".current-property-url", { hasText: "https://blog.example" }).waitFor();
    expect(param(page, "property")).toBe(blog);
    expect(await storedId(page)).toBe(blog);
  });
});
