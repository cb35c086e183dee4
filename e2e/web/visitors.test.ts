// Visitors (issue #21) in the browser: a visitor arrives on the demo site and is opened from the
// Live View, shows "online now" and goes offline through the socket; identify's e-mail and avatar
// appear on their page; a long hand-built history pages by "Load more visits" without gaps or
// repeats and filters by event name through the URL; a person's second device is listed and
// merged; an admin exports one client id's data as JSON; the list searches, filters, links and
// exports its CSV; a visitor is deleted after typing their client id and is gone from the list and
// their page. Both themes at desktop and phone width are photographed (/tmp/shots-visitors and
// test-artifacts) and checked with axe-core.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EventRow, eventRow } from "@lookout/schema";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactPath, launchPlainBrowser } from "../browser";
import { login, provision, type RunningServer, startServer } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { DESKTOP, type LoginAnswer, OWNER, openPage, PHONE, signIn, THEME_KEY, type WatchedPage } from "./support";

// Headless Chromium says "HeadlessChrome", which the collector rightly drops as a bot.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const US_ADDRESS = "8.8.8.8";
const SHOTS = "/tmp/shots-visitors";

/** A server-side client id with the characters a path must encode ("/", "?", "#", space is not visible ASCII). */
const LONG_ID = "grace/laptop?v=1#a";
const PHONE_ID = "grace-phone";
const GRACE = "grace@example.com";
const LONG_VISITS = 45;

let server: RunningServer;
let dataDir: string;
let shopId: string;
let browser: Browser;
let session: LoginAnswer;
let owner: WatchedPage;

/** Answers on a busy 2-core machine: expect.poll's own 1 s is too short. */
const SLOW = { timeout: 10_000 };
const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The long history: LONG_VISITS visits of LONG_ID one day apart (newest yesterday noon UTC),
 * each two pageviews a minute apart with 40 s engaged on the first, and on every third visit a
 * Purchase (props plan, revenue 12.5 EUR). Plus two visits of PHONE_ID, identified with the
 * same e-mail, so both are one person.
 */
function longHistory(property: string): EventRow[] {
  const rows: EventRow[] = [];
  const base = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - DAY + 12 * HOUR;
  const common = {
    property,
    visitor_id: "grace-laptop-visitor",
    client_id: LONG_ID,
    hostname: "shop.example",
    country: "GB",
    region: "England",
    city: "London",
    browser: "Firefox",
    os: "Linux",
    device: "desktop",
    screen: "laptop",
    language: "en-GB",
  };
  for (let i = 0; i < LONG_VISITS; i++) {
    const start = base - i * DAY;
    const session_id = `grace-visit-${String(i).padStart(2, "0")}`;
    const first = i === LONG_VISITS - 1;
    rows.push(
      eventRow({
        ...common,
        session_id,
        ts: new Date(start),
        path: "/",
        url: "https://shop.example/",
        title: "Home",
        ...(first
          ? {
              referrer: "https://news.example/",
              referrer_source: "Newsletter",
              channel: "email",
              utm_source: "newsletter",
              utm_campaign: "spring",
            }
          : {}),
      }),
      eventRow({ ...common, session_id, ts: new Date(start + 30_000), name: "engagement", path: "/", engaged_ms: 40_000 }),
      eventRow({
        ...common,
        session_id,
        ts: new Date(start + 60_000),
        path: `/products/${i}`,
        url: `https://shop.example/products/${i}`,
        title: `Product ${i}`,
      }),
    );
    if (i % 3 === 0) {
      rows.push(
        eventRow({
          ...common,
          session_id,
          ts: new Date(start + 90_000),
          name: "Purchase",
          path: `/products/${i}`,
          props: { plan: "<b>team</b>" },
          revenue: 12.5,
          revenue_currency: "EUR",
        }),
      );
    }
  }
  for (let i = 0; i < 2; i++) {
    const start = base - i * DAY + 2 * HOUR;
    rows.push(
      eventRow({
        ...common,
        visitor_id: "grace-phone-visitor",
        client_id: PHONE_ID,
        session_id: `grace-phone-${i}`,
        ts: new Date(start),
        path: "/phone",
        url: "https://shop.example/phone",
        browser: "Safari",
        os: "iOS",
        device: "mobile",
        screen: "mobile",
      }),
    );
  }
  return rows;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), "lookout-visitors-e2e-"));
  [[shopId = ""] = []] = await provision(dataDir, [{ ...OWNER, sites: [{ url: "https://shop.example", name: "Shop" }] }]);
  expect(shopId).toMatch(/^[\w-]+$/);
  const { openDuckDbEventStore } = await import("@lookout/storage");
  const store = await openDuckDbEventStore(join(dataDir, "events.duckdb"));
  try {
    await store.migrate();
    const rows = longHistory(shopId);
    await store.append(rows);
    const seen = rows.map((r) => r.ts.getTime());
    const first_seen = new Date(Math.min(...seen));
    const last_seen = new Date(Math.max(...seen));
    await store.upsertVisitors([
      {
        property: shopId,
        client_id: LONG_ID,
        email: GRACE,
        name: "Grace Hopper",
        traits: { plan: "team", name: "Grace Hopper" },
        first_seen,
        last_seen,
      },
      { property: shopId, client_id: PHONE_ID, email: GRACE, name: "", traits: {}, first_seen, last_seen },
    ]);
    await store.sync();
  } finally {
    await store.close();
  }
  server = await startServer({ dataDir, env: { LOOKOUT_TRUSTED_PROXIES: "127.0.0.1" } });
  browser = await launchPlainBrowser();
  session = await login(server, OWNER.email, OWNER.password);
  owner = await openPage(browser, { viewport: DESKTOP, colorScheme: "light" });
  await signIn(owner.page, server, session);
  await owner.page.evaluate(
    (id) => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" })),
    shopId,
  );
}, 120_000);

afterAll(async () => {
  await owner?.close();
  await browser?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const visitorUrl = (clientId: string) => `${server.url}/customers/${encodeURIComponent(clientId)}`;
const visits = (page: Page) => page.locator(".visits > .visit");
const md5 = (s: string) => createHash("md5").update(s).digest("hex");

/** A visitor in a browser context of their own, on the demo site of the shop. */
async function arrive(): Promise<{ context: BrowserContext; page: Page; clientid: string }> {
  const context = await browser.newContext({
    viewport: PHONE,
    userAgent: USER_AGENT,
    extraHTTPHeaders: { "x-forwarded-for": US_ADDRESS },
  });
  const page = await context.newPage();
  const accepted = page.waitForResponse((r) => r.url().endsWith("/api/event") && r.status() === 202);
  await page.goto(`${server.url}/demo?property=${shopId}`);
  await page.locator("h1", { hasText: "Home" }).waitFor();
  expect((await accepted).headers()["x-lookout-dropped"]).toBeUndefined();
  const clientid = await page.evaluate(() => localStorage.getItem("lookout_cid"));
  expect(clientid).toBeTruthy();
  return { context, page, clientid: clientid as string };
}

async function waitUntilLive(page: Page) {
  await page.locator(".live-status .live-dot-live").waitFor({ timeout: 20_000 });
}

/** The current page in both themes at both widths: a PNG each, no sideways overflow, axe clean. */
async function shoot(page: Page, name: string, ready: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate(([k, t]) => localStorage.setItem(k, t), [THEME_KEY, theme] as const);
    for (const [size, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
      await page.setViewportSize(viewport);
      await page.reload();
      await page.locator(ready).first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.evaluate(async () => {
        await document.fonts.ready;
        await Promise.all(Array.from(document.images).map((img) => img.decode().catch(() => undefined)));
      });
      await page.waitForTimeout(250);
      expect(await page.evaluate(() => document.documentElement.dataset.coreuiTheme)).toBe(theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} ${theme} ${size} overflows sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, `${name}-${theme}-${size}.png`), fullPage: true });
      await page.screenshot({ path: artifactPath(`visitors-${name}-${theme}-${size}.png`), fullPage: true });
      // The full page shrinks too much to read in a viewer: its top parts at full size too.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, part = 1; y < height && part <= 3; y += 1400, part++) {
        const clip = { x: 0, y, width: viewport.width, height: Math.min(1400, height - y) };
        await page.screenshot({ path: join(SHOTS, `${name}-${theme}-${size}-part${part}.png`), fullPage: true, clip });
      }
      const violations = await axeViolations(page);
      expect.soft(violations, `${name} (${theme}, ${size}): axe-core\n${describeViolations(violations)}`).toEqual([]);
    }
  }
  await page.evaluate((k) => localStorage.setItem(k, "light"), THEME_KEY);
  await page.setViewportSize(DESKTOP);
}

describe("visitors", () => {
  it("opens a visitor from the Live View, online now, then identified with e-mail and avatar, then offline", {
    timeout: 90_000,
  }, async () => {
    const { page } = owner;
    await page.goto(`${server.url}/live`);
    await waitUntilLive(page);
    const visitor = await arrive();
    const row = page.locator(`.live-visitor[data-clientid="${visitor.clientid}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await page.waitForURL(`**/customers/${encodeURIComponent(visitor.clientid)}`);
    await page.locator(".visitor-client-id", { hasText: visitor.clientid }).waitFor();
    await expect.poll(() => page.locator(".visitor-presence").getAttribute("data-online"), { timeout: 15_000 }).toBe("true");
    expect(await page.locator(".visitor-presence").innerText()).toContain("Online now");
    // Not identified: the bundled placeholder, not a Gravatar.
    expect(await page.locator(".visitor-header img.customer-avatar").getAttribute("src")).not.toContain("gravatar");
    await page.locator(".visit-event-path", { hasText: "/demo/site/" }).first().waitFor();

    await visitor.page.evaluate(() =>
      (window as unknown as { lookout: { identify: (e: string, t: Record<string, string>) => void } }).lookout.identify(
        " Ada@Example.com ",
        {
          name: "Ada Lovelace",
          plan: "<i>pro</i>",
        },
      ),
    );
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.locator(".visitor-header").waitFor();
          return page.locator(".visitor-name").innerText();
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toBe("Ada Lovelace");
    // Stored as sent (trimmed); the avatar hashes it trimmed and lower-cased.
    expect(await page.locator(".visitor-email").innerText()).toBe("Ada@Example.com");
    // SPEC.md §2: the avatar from the hash of the trimmed, lower-cased e-mail.
    expect(await page.locator(".visitor-header img.customer-avatar").getAttribute("src")).toBe(
      `https://www.gravatar.com/avatar/${md5("ada@example.com")}?s=200&d=mp`,
    );
    // A trait is text, never markup.
    await page.locator(".visitor-traits dd", { hasText: "<i>pro</i>" }).waitFor();
    expect(await page.locator(".visitor-traits i").count()).toBe(0);

    // Leaving shows through the socket, without a reload.
    await visitor.page.close({ runBeforeUnload: true });
    await expect.poll(() => page.locator(".visitor-presence").getAttribute("data-online"), { timeout: 15_000 }).toBe("false");
    await visitor.context.close();
  });

  it("pages through a long history without gaps or repeats, and filters it by event name in the URL", {
    timeout: 60_000,
  }, async () => {
    const { page } = owner;
    await page.goto(visitorUrl(LONG_ID));
    await page.locator(".visitor-client-id", { hasText: LONG_ID }).waitFor();
    expect(await page.locator(".visitor-name").innerText()).toBe("Grace Hopper");
    // The figures cover both devices of the person.
    const figure = (key: string) => page.locator(`[data-figure="${key}"] dd`).innerText();
    expect(await figure("visits")).toBe(String(LONG_VISITS + 2));
    expect(await figure("pageviews")).toBe(String(LONG_VISITS * 2 + 2));
    expect(await figure("events")).toBe(String(Math.ceil(LONG_VISITS / 3)));
    await page.locator(".visitor-also-seen a", { hasText: PHONE_ID }).waitFor();

    await expect.poll(() => visits(page).count(), SLOW).toBe(20);
    const more = page.getByRole("button", { name: "Load more visits" });
    await more.click();
    await expect.poll(() => visits(page).count(), SLOW).toBe(40);
    await more.click();
    await expect.poll(() => visits(page).count(), SLOW).toBe(LONG_VISITS + 2);
    expect(await more.count()).toBe(0);
    const sessions = await visits(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-session")));
    expect(new Set(sessions).size).toBe(LONG_VISITS + 2);
    // Newest first, the phone's visits merged in time order.
    expect(sessions.slice(0, 4)).toEqual(["grace-phone-0", "grace-visit-00", "grace-phone-1", "grace-visit-01"]);
    expect(sessions.at(-1)).toBe(`grace-visit-${LONG_VISITS - 1}`);

    // Filter by event name: only visits with a Purchase, their props as text and revenue shown.
    await page.getByLabel("Event name").fill("Purchase");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/[?&]event=Purchase/);
    await expect.poll(() => visits(page).count(), SLOW).toBe(Math.min(20, Math.ceil(LONG_VISITS / 3)));
    const first = visits(page).first();
    expect(await first.locator(".visit-summary").getAttribute("aria-expanded")).toBe("true");
    await first.locator(".visit-event-props dd", { hasText: "<b>team</b>" }).waitFor();
    expect(await first.locator(".visit-event-props b").count()).toBe(0);
    expect(await first.locator(".visit-event-revenue").innerText()).toMatch(/12[.,]50/);
    // The filter survives a reload (it is the URL's).
    await page.reload();
    await expect.poll(() => visits(page).count(), SLOW).toBe(Math.min(20, Math.ceil(LONG_VISITS / 3)));
    expect(await page.getByLabel("Event name").inputValue()).toBe("Purchase");
    await page.getByRole("button", { name: "Clear" }).click();
    await expect.poll(() => page.url(), SLOW).not.toContain("event=");

    // An admin's export: everything stored about this client id (not the phone's), as JSON.
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export JSON" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^visitor-.*\.json$/);
    const exported = JSON.parse(readFileSync((await file.path()) as string, "utf8")) as {
      client_id: string;
      profile: { email: string } | null;
      events: { client_id?: string }[];
    };
    expect(exported.client_id).toBe(LONG_ID);
    expect(exported.profile?.email).toBe(GRACE);
    expect(exported.events.length).toBe(LONG_VISITS * 3 + Math.ceil(LONG_VISITS / 3));
  });

  it("looks right in both themes at both widths (visitor page and list)", { timeout: 120_000 }, async () => {
    const { page } = owner;
    await page.goto(visitorUrl(LONG_ID));
    await shoot(page, "visitor", ".activity-calendar canvas");
    await page.goto(`${server.url}/product-analytics?tab=visitors`);
    await shoot(page, "list", ".visitor-link");
  });

  it("searches and filters the list in the URL, and each row opens the visitor", { timeout: 60_000 }, async () => {
    const { page } = owner;
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole("link", { name: "See each visitor" }).click();
    await page.waitForURL(/\/product-analytics\?tab=visitors$/);
    const links = page.locator(".visitor-link");
    await expect.poll(() => links.count(), SLOW).toBe(3);

    await page.getByLabel("Search visitors").fill("grace");
    await page.waitForURL(/[?&]q=grace/);
    await expect.poll(() => links.count(), SLOW).toBe(2);
    await page.getByRole("radio", { name: "Anonymous" }).click();
    await page.waitForURL(/identified=anonymous/);
    await page.getByText("No visitor matches this search.").waitFor();
    await page.getByRole("radio", { name: "Identified" }).click();
    await expect.poll(() => links.count(), SLOW).toBe(2);
    await page.getByLabel("Sort by").selectOption("visits");
    await page.waitForURL(/order=visits/);
    await expect.poll(() => links.first().getAttribute("data-clientid"), SLOW).toBe(LONG_ID);
    expect(await links.first().getAttribute("href")).toBe(`/customers/${encodeURIComponent(LONG_ID)}`);

    // The CSV is the server's, of this search.
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const csv = readFileSync((await (await download).path()) as string, "utf8")
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toMatch(/^client_id,email,name,/);
    expect(csv.length).toBe(3);

    // Reloading keeps the whole view.
    await page.reload();
    expect(await page.getByLabel("Search visitors").inputValue()).toBe("grace");
    await expect.poll(() => links.first().getAttribute("data-clientid"), SLOW).toBe(LONG_ID);
    await links.first().click();
    await page.locator(".visitor-client-id", { hasText: LONG_ID }).waitFor();
  });

  it("deletes a visitor after typing the client id; they are gone from the list and their page", {
    timeout: 60_000,
  }, async () => {
    const { page } = owner;
    await page.goto(visitorUrl(LONG_ID));
    await page.getByRole("button", { name: "Delete visitor" }).click();
    const dialog = page.getByRole("dialog");
    const confirm = dialog.getByRole("button", { name: "Delete visitor" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type .* to confirm/).fill("grace");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type .* to confirm/).fill(LONG_ID);
    await confirm.click();
    await page.waitForURL(/\/product-analytics\?tab=visitors$/);
    await page.locator(".visitors-deleted", { hasText: "Grace Hopper" }).waitFor();
    const ids = () => page.locator(".visitor-link").evaluateAll((els) => els.map((el) => el.getAttribute("data-clientid")));
    await expect.poll(ids, SLOW).toContain(PHONE_ID);
    expect(await ids()).not.toContain(LONG_ID);

    await page.goto(visitorUrl(LONG_ID));
    await page.getByRole("heading", { name: "This visitor is not known" }).waitFor();
    // The person's other device stays.
    await page.goto(visitorUrl(PHONE_ID));
    await page.locator(".visitor-client-id", { hasText: PHONE_ID }).waitFor();
    expect(await page.locator(".visitor-also-seen").count()).toBe(0);
  });

  it("logged no errors", () => {
    expect(owner.problems).toEqual([]);
  });
});
