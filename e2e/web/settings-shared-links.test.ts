// Settings › Shared links against a real server with seeded traffic: a link made in Settings opens
// in a fresh browser (no session) on the property's dashboard with the Stats API's numbers, the
// date picker and filters working and nothing of the account; the embed layout and its framing
// header; a password link (wrong, then right password); revoking stops an open page at once;
// axe-core and screenshots in both themes, desktop and phone.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatCount } from "../../apps/web/src/lib/format";
import { artifactPath } from "../browser";
import { login } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, DESKTOP, openPage, PHONE, seedEvents, signIn, THEME_KEY, type WatchedPage } from "./support";

const suite = browserSuite(
  [{ url: "https://shop.example", name: "Shop" }],
  seedEvents({ indexes: [0], days: 30, visitors: 300 }),
);
let current: WatchedPage;

const shop = () => suite.web.propertyIds[0] as string;

/** The owner's Stats API answer for the top visitors number (what the shared page must show). */
async function visitors(period: string, filters?: string): Promise<number> {
  const { token } = await login(suite.web.server);
  const qs = new URLSearchParams({ property_id: shop(), period, metrics: "visitors", ...(filters ? { filters } : {}) });
  const r = await fetch(`${suite.web.server.url}/api/v1/stats/aggregate?${qs}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await r.json()) as { results: { visitors: { value: number } } };
  return body.results.visitors.value;
}

async function openSettings(page: Page, theme?: "light" | "dark") {
  await signIn(page, suite.web.server);
  await page.evaluate(
    ({ id, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" }));
      if (theme) localStorage.setItem(key, theme);
    },
    { id: shop(), theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}/settings?section=shared-links`);
  await page.locator("#settings-section-title", { hasText: "Shared links" }).waitFor();
}

async function createLink(page: Page, name: string, password = ""): Promise<string> {
  await page.getByRole("button", { name: "New link" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  if (password) await page.getByLabel("Password (optional)").fill(password);
  await page.getByRole("button", { name: "Create link" }).click();
  const row = page.locator(`[data-link="${name}"]`);
  await row.waitFor();
  return row.getByRole("textbox", { name: `Address of ${name}` }).inputValue();
}

/** Waits until the visitors card shows `value` (and nothing is loading). */
async function expectVisitors(page: Page, value: number) {
  await page.waitForFunction(
    (v) =>
      document.querySelector('.stat-card[data-metric="visitors"] .stat-value')?.getAttribute("data-value") === String(v) &&
      !document.querySelector(".top-stats[aria-busy='true']"),
    value,
  );
  expect(await page.locator('.stat-card[data-metric="visitors"] .stat-value').textContent()).toBe(formatCount(value));
}

async function expectNoViolations(page: Page, what: string) {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${describeViolations(violations)}`).toEqual([]);
}

/** Links of the page that lead into this server (the app): there must be none on a shared page. */
const appLinks = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll("a[href]"))
      // A dropdown toggle's href="#" stays on the page.
      .filter((a) => !(a.getAttribute("href") ?? "").startsWith("#"))
      .map((a) => new URL((a as HTMLAnchorElement).href, location.href))
      .filter((u) => u.origin === location.origin)
      .map((u) => u.pathname),
  );

describe("shared links", () => {
  let openUrl: string;

  it("creates a link in Settings; a fresh browser sees the dashboard, read-only", { timeout: 60_000 }, async () => {
    current = await suite.open();
    await openSettings(current.page);
    openUrl = await createLink(current.page, "Public");
    expect(openUrl).toMatch(new RegExp(`^${suite.web.server.url}/share/[A-Za-z0-9_-]{22}$`));
    await current.page.locator('[data-link="Public"]').getByText("No password").waitFor();

    // A fresh context: no session, no storage.
    const visitor = await openPage(suite.browser);
    try {
      const { page } = visitor;
      const res = await page.goto(openUrl);
      expect(res?.headers()["content-security-policy"]).toContain("frame-ancestors *");
      expect(res?.headers()["x-frame-options"]).toBeUndefined();
      await page.locator("main h1", { hasText: "Shop" }).waitFor();
      await expectVisitors(page, await visitors("last_7_days"));
      // Nothing of the account: no sidebar, no account menu, no link into the app.
      expect(await page.locator(".sidebar").count()).toBe(0);
      expect(await page.getByRole("button", { name: /account|log out/i }).count()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem("userToken"))).toBeNull();
      expect(await page.locator(".stat-live").getByText("Live now").count()).toBe(1);

      // The date picker and filters work through the link.
      await page.getByLabel("Date range").selectOption("last_30_days");
      await page.waitForFunction(() => new URL(location.href).searchParams.get("period") === "last_30_days");
      await expectVisitors(page, await visitors("last_30_days"));
      const row = page.locator('[data-panel="devices"] .breakdown-row').first();
      await row.waitFor();
      const device = (await row.getAttribute("data-value")) ?? "";
      await row.locator(".breakdown-label").click();
      await page.waitForFunction(() => new URL(location.href).searchParams.has("filters"));
      const filters = new URL(page.url()).searchParams.get("filters") ?? "";
      expect(filters).toContain(device);
      await expectVisitors(page, await visitors("last_30_days", filters));
      await page.locator('[data-panel="pages"] .breakdown-row').first().waitFor();
      expect(await appLinks(page)).toEqual([]);
      await expectNoViolations(page, "shared page");

      // The embed layout: no page header, still the numbers.
      await page.goto(`${openUrl}?embed=true`);
      await page.locator(".share-embed h1", { hasText: "Shop" }).waitFor();
      expect(await page.locator("header").count()).toBe(0);
      await expectVisitors(page, await visitors("last_7_days"));
      expect(new URL(page.url()).searchParams.get("embed")).toBe("true");
      await page.locator(".timeseries-chart canvas").waitFor();
      await page.screenshot({ path: artifactPath("shares-embed-light-desktop.png") });
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.close();
    }

    // Embedded in a site whose visitors block third-party storage, reading localStorage throws:
    // the embed still works.
    const blocked = await openPage(suite.browser);
    try {
      await blocked.context.addInitScript(() => {
        Object.defineProperty(window, "localStorage", {
          get() {
            throw new DOMException("Access is denied for this document.", "SecurityError");
          },
        });
      });
      await blocked.page.goto(`${openUrl}?embed=true`);
      await expectVisitors(blocked.page, await visitors("last_7_days"));
      expect(blocked.problems).toEqual([]);
    } finally {
      await blocked.close();
    }
  });

  it("asks for the password (wrong, then right), and revoking stops an open page at once", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const settings = current.page;
    await openSettings(settings);
    const url = await createLink(settings, "Team", "sesame-open");
    await settings.locator('[data-link="Team"]').getByText("Password").first().waitFor();
    // A protected link offers no embed code.
    expect(await settings.locator('[data-link="Team"]').getByRole("button", { name: "Embed" }).count()).toBe(0);

    const visitor = await openPage(suite.browser);
    try {
      const { page } = visitor;
      const res = await page.goto(url);
      expect(res?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(res?.headers()["x-frame-options"]).toBe("DENY");
      await page.getByRole("heading", { name: "Password required" }).waitFor();
      await page.getByLabel("Password", { exact: true }).fill("not-the-one");
      await page.getByRole("button", { name: "View statistics" }).click();
      await expect(page.getByRole("alert").textContent()).resolves.toBe("Incorrect password. Please try again.");
      await page.screenshot({ path: artifactPath("shares-password-wrong-light-desktop.png") });
      await page.getByLabel("Password", { exact: true }).fill("sesame-open");
      await page.getByRole("button", { name: "View statistics" }).click();
      await page.locator("main h1", { hasText: "Shop" }).waitFor();
      await expectVisitors(page, await visitors("last_7_days"));
      // The cookie is HttpOnly: the page's scripts cannot read it.
      expect(await page.evaluate(() => document.cookie)).not.toContain("lookout_share_");

      // Revoke in Settings, with a confirmation.
      await settings.locator('[data-link="Team"]').getByRole("button", { name: "Revoke" }).click();
      await settings.locator(".modal.show").getByRole("button", { name: "Revoke link" }).click();
      await settings.locator('[data-link="Team"]').waitFor({ state: "detached" });

      // The open page's next call fails, and says so plainly.
      await page.getByLabel("Date range").selectOption("last_30_days");
      await page.getByRole("heading", { name: "This shared link is not available" }).waitFor();
      await page.reload();
      await page.getByRole("heading", { name: "Link not available" }).waitFor();
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.close();
    }
  });
});

describe("shared links screenshots", () => {
  let shareUrl = "";
  let lockedUrl = "";

  for (const [device, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    for (const theme of ["light", "dark"] as const) {
      it(`${theme}, ${device}`, { timeout: 60_000 }, async () => {
        current = await suite.open({ viewport, colorScheme: theme });
        const { page } = current;
        await openSettings(page, theme);
        if (!shareUrl) {
          shareUrl = await createLink(page, "Screenshots");
          lockedUrl = await createLink(page, "Locked", "sesame-open");
        }
        await page.locator('[data-link="Screenshots"]').getByRole("button", { name: "Embed" }).click();
        await page.getByTestId("embed-snippet").waitFor();
        // Axe reads the colours of the moment: not those of the button under the pointer.
        await page.mouse.move(0, 0);
        const noOverflow = async (what: string) => {
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${what} overflows sideways at ${device} width`).toBeLessThanOrEqual(0);
        };
        await noOverflow("settings");
        await expectNoViolations(page, `settings ${theme} ${device}`);
        await page.screenshot({ path: artifactPath(`shares-settings-${theme}-${device}.png`), fullPage: true });

        // The shared page in a fresh context with the same theme.
        const visitor = await openPage(suite.browser, { viewport, colorScheme: theme });
        try {
          const v = visitor.page;
          await v.goto(shareUrl);
          await expectVisitors(v, await visitors("last_7_days"));
          await v.locator(".timeseries-chart canvas").waitFor();
          await v.locator('[data-panel="pages"] .breakdown-row').first().waitFor();
          await v.waitForTimeout(400);
          const overflow = await v.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `shared page overflows at ${device} width`).toBeLessThanOrEqual(0);
          await expectNoViolations(v, `shared page ${theme} ${device}`);
          await v.screenshot({ path: artifactPath(`shares-page-${theme}-${device}.png`), fullPage: true });
          await v.goto(lockedUrl);
          await v.getByRole("heading", { name: "Password required" }).waitFor();
          await expectNoViolations(v, `password page ${theme} ${device}`);
          await v.screenshot({ path: artifactPath(`shares-password-${theme}-${device}.png`), fullPage: true });
          expect(visitor.problems).toEqual([]);
        } finally {
          await visitor.close();
        }
      });
    }
  }
});
