// Every route and redirect of SPEC.md §2, the shell's fixed parts (sidebar entries, header links,
// breadcrumb, footer) and /logout's effect on storage and on the server's token.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, OWNER, SESSION_KEYS, signIn, storage, type WatchedPage, watch } from "./support";

const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }]);
let current: WatchedPage;

const path = (page: Page) => new URL(page.url()).pathname;
const h1 = (page: Page) => page.locator("main h1").first();

const SCREENS: { path: string; heading: string; crumbs: string[] }[] = [
  { path: "/dashboard", heading: "Dashboard", crumbs: ["Home", "Dashboard"] },
  { path: "/customers/client-42", heading: "Visitor", crumbs: ["Home", "Visitor"] },
  { path: "/live", heading: "Live View", crumbs: ["Home", "Live View"] },
  { path: "/product-analytics", heading: "Product Analytics", crumbs: ["Home", "Product Analytics"] },
  {
    path: "/product-analytics/insights/ins-7",
    heading: "Insight",
    crumbs: ["Home", "Product Analytics", "Insight"],
  },
  { path: "/settings", heading: "Settings", crumbs: ["Home", "Settings"] },
  { path: "/team", heading: "Team", crumbs: ["Home", "Team"] },
  { path: "/billing", heading: "Billing", crumbs: ["Home", "Billing"] },
  { path: "/reports", heading: "Settings", crumbs: ["Home", "Reports"] },
];

describe("signed out", () => {
  it("sends every gated path to /login", async () => {
    current = await suite.open();
    const { page } = current;
    for (const p of ["/", ...SCREENS.map((s) => s.path), "/no/such/page"]) {
      await page.goto(`${suite.web.server.url}${p}`);
      await page.waitForURL((u) => u.pathname === "/login");
      await page.getByRole("button", { name: "Log In" }).waitFor();
    }
  });

  it("serves the public screens", async () => {
    current = await suite.open();
    const { page } = current;
    await page.goto(`${suite.web.server.url}/recover-password`);
    await page.getByRole("button", { name: "Recover Password" }).waitFor();
    expect(await page.locator("#recover-email").getAttribute("type")).toBe("email");
    await page.getByRole("link", { name: "Back to Login" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL((u) => u.pathname === "/recover-password");
    await page.goto(`${suite.web.server.url}/reset-password?token=abc`);
    await page.getByRole("button", { name: "Set Password" }).waitFor();
    expect(path(page)).toBe("/reset-password");
  });
});

describe("signed in", () => {
  it("redirects / and unknown paths to /dashboard", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    for (const p of ["/", "/no/such/page", "/dashboard/extra"]) {
      await page.goto(`${suite.web.server.url}${p}`);
      await page.waitForURL((u) => u.pathname === "/dashboard");
      await h1(page).waitFor();
      expect(await h1(page).textContent()).toBe("Dashboard");
    }
  });

  it("renders every route of the table with its breadcrumb", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    for (const s of SCREENS) {
      await page.goto(`${suite.web.server.url}${s.path}`);
      await page.locator("main h1", { hasText: s.heading }).waitFor();
      expect(path(page)).toBe(s.path);
      const crumbs = await page.locator(".breadcrumb .breadcrumb-item").allTextContents();
      expect(crumbs.map((c) => c.trim())).toEqual(s.crumbs);
      expect(await page.locator(".breadcrumb-item.active").last().textContent()).toBe(s.crumbs.at(-1));
    }
    // One page load per route of the table: on a loaded 2-core machine 30 s was not always enough.
  }, 120_000);

  it("shows route parameters as text", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    await page.evaluate(() => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: "x" })));
    const hostile = encodeURIComponent("<img src=x onerror=alert(1)>");
    await page.goto(`${suite.web.server.url}/customers/${hostile}`);
    await page.locator("main code", { hasText: "<img src=x onerror=alert(1)>" }).first().waitFor();
    expect(await page.locator("main img[src='x']").count()).toBe(0);
  });

  it("has the sidebar entries in the spec's order, the header links and the footer", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    await page.goto(`${suite.web.server.url}/dashboard`);
    await h1(page).waitFor();
    const entries = page.locator(".sidebar-nav .nav-link");
    expect((await entries.allTextContents()).map((t) => t.trim())).toEqual([
      "Dashboard",
      "Live View",
      "Product Analytics",
      "Settings",
      "Team",
      "Billing",
      "Reports",
      "Logout",
    ]);
    const hrefs = await entries.evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(hrefs).toEqual(["/dashboard", "/live", "/product-analytics", "/settings", "/team", "/billing", "/reports", "/logout"]);
    expect(await page.locator(".sidebar-nav .nav-link svg.nav-icon").count()).toBe(8);

    await page.locator(".sidebar-nav").getByRole("link", { name: "Live View" }).click();
    await page.locator("main h1", { hasText: "Live View" }).waitFor();
    expect(await page.locator(".sidebar-nav .nav-link.active").textContent()).toBe("Live View");

    const header = page.locator(".header");
    for (const [name, target] of [
      ["Billing", "/billing"],
      ["Settings", "/settings"],
      ["Dashboard", "/dashboard"],
    ] as const) {
      await header.getByRole("link", { name, exact: true }).click();
      await page.waitForURL((u) => u.pathname === target);
    }
    await page.getByRole("button", { name: /^Theme:/ }).waitFor();

    const avatar = page.locator(".header .customer-avatar");
    const hash = createHash("md5").update(OWNER.email).digest("hex");
    expect(await avatar.getAttribute("src")).toBe(`https://www.gravatar.com/avatar/${hash}?s=200&d=mp`);
    expect(await avatar.evaluate((img) => img.getBoundingClientRect().width)).toBe(36);

    const footer = page.locator(".footer");
    expect(await footer.textContent()).toContain("© 2025");
    expect(await footer.textContent()).toContain("Powered by Lookout");
  });
});

describe("/logout", () => {
  it("from the avatar menu: revokes the token, clears storage and lands on /login", async () => {
    current = await suite.open();
    const { page } = current;
    const answer = await signIn(page, suite.web.server);
    await page.evaluate(() => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: "x" })));
    await page.goto(`${suite.web.server.url}/settings`);
    await h1(page).waitFor();
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.locator(".dropdown-menu.show").getByRole("link", { name: "Logout" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByRole("button", { name: "Log In" }).waitFor();
    expect(await storage(page, [...SESSION_KEYS, "currentProperty"])).toEqual({
      userToken: null,
      accountId: null,
      accountId2: null,
      userEmail: null,
      currentProperty: null,
    });
    const after = await fetch(`${suite.web.server.url}/static-api/get-properties`, {
      method: "POST",
      headers: { authorization: `Bearer ${answer.token}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ accountId: answer.accountId }),
    });
    expect(after.status).toBe(401);
  });

  it("from the sidebar entry, and straight to /login without a session", async () => {
    current = await suite.open();
    const { page } = current;
    await signIn(page, suite.web.server);
    await page.goto(`${suite.web.server.url}/team`);
    await h1(page).waitFor();
    await page.locator(".sidebar-nav").getByRole("link", { name: "Logout" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    expect(await storage(page, SESSION_KEYS)).toEqual({ userToken: null, accountId: null, accountId2: null, userEmail: null });
    await page.goto(`${suite.web.server.url}/logout`);
    await page.waitForURL((u) => u.pathname === "/login");
  });
});

describe("sign-out in another tab", () => {
  it("sends this tab to /login too", async () => {
    current = await suite.open();
    const { page: a, context } = current;
    await signIn(a, suite.web.server);
    await a.goto(`${suite.web.server.url}/billing`);
    await h1(a).waitFor();
    const b = await context.newPage();
    watch(b, current.problems);
    await b.goto(`${suite.web.server.url}/logout`);
    await b.waitForURL((u) => u.pathname === "/login");
    await a.waitForURL((u) => u.pathname === "/login");
  });
});

describe("budget", () => {
  /** Gzipped bytes of every script the page loaded, fetched again from the server by URL. */
  async function scriptBytes(page: Page): Promise<number> {
    const urls = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((n) => new URL(n).pathname.endsWith(".js")),
    );
    let total = 0;
    for (const url of new Set(urls)) total += gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
    return total;
  }

  it("loads under 250 KB of gzipped JS for the first route, signed out and signed in", async () => {
    current = await suite.open();
    const { page } = current;
    await page.goto(`${suite.web.server.url}/dashboard`);
    await page.getByRole("button", { name: "Log In" }).waitFor();
    await page.waitForLoadState("networkidle");
    const signedOut = await scriptBytes(page);
    expect(signedOut).toBeGreaterThan(10_000);
    expect(signedOut).toBeLessThan(250 * 1024);

    await signIn(page, suite.web.server);
    await page.evaluate(() => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: "x" })));
    await page.goto(`${suite.web.server.url}/dashboard`);
    await page.locator(".empty-state").waitFor();
    await page.waitForLoadState("networkidle");
    expect(await scriptBytes(page)).toBeLessThan(250 * 1024);
  });
});
