import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactPath, launchPlainBrowser } from "../browser";
import { provision, type RunningServer, startServer } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { DESKTOP, OWNER, openPage, PHONE, THEME_KEY, type WatchedPage } from "./support";

/**
 * How long a closed page may take to turn grey. Chromium sends the pageleave beacon and then an
 * engagement beacon that can reach the server after it; presence ignores such a late heartbeat.
 */
const LEAVE_TIMEOUT_MS = 10_000;
const US_ADDRESS = "8.8.8.8";
// Headless Chromium says "HeadlessChrome", which the collector rightly drops as a bot.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GB_ADDRESS = "81.2.69.142";

let server: RunningServer;
let dataDir: string;
let demoId: string;
let otherId: string;
let browser: Browser;
let owner: WatchedPage;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lookout-live-e2e-"));
  [[demoId = "", otherId = ""] = []] = await provision(dataDir, [
    {
      ...OWNER,
      sites: [
        { url: "https://demo.example", name: "Demo site" },
        { url: "https://other.example", name: "Other site" },
      ],
    },
  ]);
  expect(demoId).toMatch(/^[\w-]+$/);
  server = await startServer({ dataDir, env: { LOOKOUT_TRUSTED_PROXIES: "127.0.0.1" } });
  browser = await launchPlainBrowser();
  owner = await openPage(browser, { viewport: DESKTOP, colorScheme: "light" });
});

afterAll(async () => {
  await owner?.close();
  await browser?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const badge = (page: Page) => page.locator(".live-badge");
const bigCount = (page: Page) => page.locator(".live-count");
const visitorRow = (page: Page, clientid: string) => page.locator(`.live-visitor[data-clientid="${clientid}"]`);

async function expectCounts(page: Page, n: number, timeout = 15_000) {
  await expect.poll(() => badge(page).getAttribute("data-live-count"), { timeout }).toBe(String(n));
  await expect.poll(() => bigCount(page).getAttribute("data-live-count"), { timeout: 15_000 }).toBe(String(n));
  expect((await badge(page).innerText()).trim()).toMatch(new RegExp(`^${n}\\b`));
  expect((await bigCount(page).innerText()).trim()).toBe(String(n));
}

/** A visitor in a browser context of their own, coming from a public address. */
async function visit(address: string): Promise<{ context: BrowserContext; page: Page; clientid: string }> {
  const context = await browser.newContext({
    viewport: PHONE,
    userAgent: USER_AGENT,
    extraHTTPHeaders: { "x-forwarded-for": address },
  });
  const page = await context.newPage();
  const accepted = page.waitForResponse((r) => r.url().endsWith("/api/event") && r.status() === 202);
  await page.goto(`${server.url}/demo?property=${demoId}`);
  await page.locator("h1", { hasText: "Home" }).waitFor();
  expect((await accepted).headers()["x-lookout-dropped"]).toBeUndefined();
  const clientid = await page.evaluate(() => localStorage.getItem("lookout_cid"));
  expect(clientid).toBeTruthy();
  return { context, page, clientid: clientid! };
}

async function leave(v: { page: Page }) {
  // Closing runs pagehide, whose pageleave beacon outlives the page.
  await v.page.close({ runBeforeUnload: true });
}

describe("live view", () => {
  it("signs in through the form and opens the socket with the session cookie", async () => {
    const { page } = owner;
    await page.goto(`${server.url}/login`);
    await page.locator("#login-email").fill(OWNER.email);
    await page.locator("#login-password").fill(OWNER.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await page.waitForURL(/\/dashboard$/);
    expect((await page.context().cookies()).map((c) => c.name)).toContain("lookout_session");

    await page.goto(`${server.url}/live`);
    await page.getByRole("heading", { name: "Choose a property" }).waitFor();
    await page.getByRole("button", { name: /Demo site/ }).click();
    await page.getByText("Visitors online now").waitFor();
    await waitUntilLive(page);
    await expectCounts(page, 0);
    await page.getByText(/Nobody is on .* right now/).waitFor();
  });

  it(
    "shows a visitor of the demo site arrive, then leave greyed",
    async () => {
      const { page } = owner;
      const visitor = await visit(US_ADDRESS);

      const row = visitorRow(page, visitor.clientid);
      await row.waitFor({ timeout: 15_000 });
      await expectCounts(page, 1);
      expect(await row.getAttribute("data-active")).toBe("true");
      expect(await row.getAttribute("href")).toBe(`/customers/${visitor.clientid}`);
      const text = await row.innerText();
      expect(text).toContain("Home · Demo shop");
      expect(text).toContain("/demo/site/");
      expect(text).toContain("United States");
      expect(text).toMatch(/\d+s\s*on site/);
      expect(await row.locator("img.customer-avatar").count()).toBe(1);
      await page.locator('[aria-label="Top pages now"]', { hasText: "/demo/site/" }).waitFor();
      await page.locator('[aria-label="Countries of visitors now"]', { hasText: "United States" }).waitFor();

      // Time on site ticks without any message.
      const before = await row.locator(".live-visitor-time").innerText();
      await expect.poll(() => row.locator(".live-visitor-time").innerText(), { timeout: 5_000 }).not.toBe(before);

      await leave(visitor);
      await expectCounts(page, 0, LEAVE_TIMEOUT_MS);
      expect(await row.getAttribute("data-active")).toBe("false");
      expect(await row.evaluate((el) => el.classList.contains("live-visitor-left"))).toBe(true);
      expect(await row.innerText()).toMatch(/Left just now/);
      await page.getByRole("heading", { name: "Recently left" }).waitFor();
      await page.screenshot({ path: artifactPath("live-left-light-desktop.png"), fullPage: true });
      await visitor.context.close();
    },
    LEAVE_TIMEOUT_MS + 45_000,
  );

  it("counts per property: the header follows the current property", async () => {
    const { page } = owner;
    const visitor = await visit(GB_ADDRESS);
    await visitorRow(page, visitor.clientid).waitFor({ timeout: 15_000 });
    await expectCounts(page, 1);

    await page.getByRole("button", { name: "Change" }).click();
    await page.getByRole("button", { name: /Other site/ }).click();
    await expectCounts(page, 0);
    await page.getByRole("button", { name: "Change" }).click();
    await page.getByRole("button", { name: /Demo site/ }).click();
    await expectCounts(page, 1);
    expect(otherId).not.toBe(demoId);

    await screenshots(page);

    // The dashboard's "Live now" card shows the same number, from the same socket.
    await page.getByRole("navigation", { name: "Shortcuts" }).getByRole("link", { name: "Dashboard" }).click();
    const card = page.locator(".live-now-card [data-live-count]");
    await expect.poll(() => card.getAttribute("data-live-count"), { timeout: 15_000 }).toBe("1");
    expect(await badge(page).getAttribute("data-live-count")).toBe("1");
    await visitor.context.close();
  }, 90_000);

  it("logged no errors", () => {
    expect(owner.problems).toEqual([]);
  });
});

/** Waits for the socket to be open; a timeout says what the status showed instead. */
async function waitUntilLive(page: Page) {
  const status = page.locator(".live-status");
  try {
    await status.locator(".live-dot-live").waitFor({ timeout: 20_000 });
  } catch (err) {
    const shown = (await status.allInnerTexts()).join(" | ") || "no status";
    throw new Error(`the live socket did not open; the status shows: ${shown}`, { cause: err });
  }
}

/** /live in light and dark, desktop and phone, with one visitor on the site and one gone. */
async function screenshots(page: Page) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate(([k, t]) => localStorage.setItem(k, t), [THEME_KEY, theme] as const);
    for (const [size, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
      await page.setViewportSize(viewport);
      await page.reload();
      await waitUntilLive(page);
      await page.locator(".live-world-map svg").waitFor();
      await page.locator('.live-visitor[data-active="true"]').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.coreuiTheme)).toBe(theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${theme} ${size} overflows sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: artifactPath(`live-${theme}-${size}.png`), fullPage: true });
      if (size === "desktop") {
        const violations = await axeViolations(page);
        expect.soft(violations, `live (${theme}): axe-core\n${describeViolations(violations)}`).toEqual([]);
      }
    }
  }
  await page.evaluate((k) => localStorage.removeItem(k), THEME_KEY);
  await page.setViewportSize(DESKTOP);
}
