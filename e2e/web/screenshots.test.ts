// Screenshots of every screen in light and dark, at desktop (1280x800) and phone (375x812) widths,
// saved as test artifacts (test-artifacts/web-*.png) for people to look at. Each shot also checks
// the page has no horizontal overflow and logged no errors, and that axe-core finds no WCAG A/AA
// violations. A screen loads once per width: shot light, then switched to dark in place through
// the theme menu and shot again (a full load of the app was most of a shot's time).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { existsSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, type ExpectStatic, expect, it } from "vitest";
import { SECTION_IDS } from "../../apps/web/src/features/settings/sections";
import { artifactPath, launchPlainBrowser } from "../browser";
import { login } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import {
  DESKTOP,
  type LoginAnswer,
  openPage,
  PHONE,
  signIn,
  startWebServer,
  THEME_KEY,
  type WatchedPage,
  type WebServer,
} from "./support";

let web: WebServer;
let browser: Browser;
let session: LoginAnswer;
/** A pending invitation's token, for the public /invite/{token} screen. */
let inviteToken = "";

/** Invites someone as the owner and reads the link's token from the printed mail outbox. */
async function mailedInvitation(server: WebServer, owner: LoginAnswer): Promise<string> {
  const r = await fetch(`${server.server.url}/api/v1/accounts/${owner.accountId}/invitations`, {
    method: "POST",
    headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
    body: JSON.stringify({ email: "invited.person@example.com", role: "editor" }),
  });
  if (!r.ok) throw new Error(`invitation: ${r.status} ${await r.text()}`);
  for (let i = 0; i < 100; i++) {
    const link = /\/invite\/([A-Za-z0-9_%-]+)/.exec(server.server.logs());
    if (link?.[1]) return decodeURIComponent(link[1]);
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error("no invitation e-mail in the outbox");
}

beforeAll(async () => {
  web = await startWebServer([
    { url: "https://shop.example", name: "Shop" },
    { url: "https://a-rather-long-subdomain.blog.example.org", name: "Engineering blog" },
    { url: "https://intranet.example", name: "Intranet" },
  ]);
  browser = await launchPlainBrowser();
  session = await login(web.server);
  await seedVisitor(web.server.url, web.propertyIds[VISITOR_PROPERTY] as string);
  inviteToken = await mailedInvitation(web, session);
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

interface Shot {
  name: string;
  path: string;
  signedIn: boolean;
  /** Whether a current property is chosen before the shot. */
  property?: boolean;
  /** Which property is chosen (the first unless given). */
  propertyIndex?: number;
  /** What shows once the screen has loaded; signed-in screens default to the picker or an empty state. */
  ready?: string;
  /** Something to do on the page before the shot (open a menu...). */
  prepare?: (page: Page, device: Device) => Promise<void>;
  /**
   * The screen loads again for the dark shot instead of switching theme in place: what `prepare`
   * opened or toggled (a menu, the sidebar) and a pass through the theme menu would disturb each other.
   */
  loadPerTheme?: boolean;
}

type Theme = "light" | "dark";
type Device = keyof typeof SIZES;

const SIZES = { desktop: DESKTOP, phone: PHONE };
/** The Settings screen's card; a section has loaded once its calls have settled (settled()). */
const SECTION_READY = ".settings-main .card-body";
/** The Team screen once its members have loaded. */
const TEAM_READY = ".team-members table";
/** An insight's result drawn: its query settled and something other than a spinner in its box. */
const INSIGHT_READY = '.insight-result[aria-busy="false"] > :not(.spinner-border)';
const settled = async (page: Page) => {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !document.querySelector(".settings-main .spinner-border, .settings-main .placeholder-glow"));
};

/** The visitor screens' shots use the third property, which has one identified visitor (seedVisitor). */
const VISITOR_PROPERTY = 2;
const VISITOR_ID = "shot-visitor-0001";
const SITE_URLS = ["https://shop.example", "https://a-rather-long-subdomain.blog.example.org", "https://intranet.example"];
const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** A visitor's pageviews, a custom event with props and revenue, and identify, through the collector. */
async function seedVisitor(url: string, property: string) {
  const site = SITE_URLS[VISITOR_PROPERTY];
  const events = [
    { name: "pageview", url: `${site}/`, title: "Intranet home", referrer: "https://www.google.com/" },
    { name: "pageview", url: `${site}/handbook/onboarding`, title: "Onboarding" },
    { name: "Download", url: `${site}/handbook/onboarding`, props: { file: "handbook.pdf" } },
    { name: "Purchase", url: `${site}/shop`, props: { plan: "team" }, revenue: { amount: 49, currency: "EUR" } },
    { name: "identify", url: `${site}/shop`, email: "grace@example.com", traits: { name: "Grace Hopper", plan: "team" } },
  ];
  for (const e of events) {
    const r = await fetch(`${url}/api/event`, {
      method: "POST",
      headers: { "content-type": "text/plain", "user-agent": CHROME_UA },
      body: JSON.stringify({ property, client_id: VISITOR_ID, screen_width: 1280, language: "en-GB", ...e }),
    });
    expect(r.status).toBe(202);
    expect(r.headers.get("x-lookout-dropped")).toBeNull();
  }
}

/** The visitor page has loaded its history too. */
const settledVisitors = async (page: Page) => {
  await page.locator(".visits > .visit").first().waitFor();
  await page.waitForLoadState("networkidle");
};

const SHOTS: Shot[] = [
  { name: "login", path: "/login", signedIn: false },
  {
    name: "login-error",
    path: "/login",
    signedIn: false,
    prepare: async (page) => {
      await page.locator("#login-email").fill("someone@example.com");
      await page.locator("#login-password").fill("wrong password");
      await page.getByRole("button", { name: "Log In" }).click();
      await page.locator(".alert-danger").waitFor();
    },
  },
  { name: "recover-password", path: "/recover-password", signedIn: false },
  {
    name: "recover-password-sent",
    path: "/recover-password",
    signedIn: false,
    prepare: async (page) => {
      await page.locator("#recover-email").fill("someone@example.com");
      await page.getByRole("button", { name: "Recover Password" }).click();
      await page.locator(".alert-success").waitFor();
    },
  },
  { name: "reset-password", path: "/reset-password?token=a-token-from-an-email", signedIn: false },
  { name: "property-picker", path: "/dashboard", signedIn: true },
  { name: "dashboard", path: "/dashboard", signedIn: true, property: true },
  { name: "live", path: "/live", signedIn: true, property: true, ready: ".live-count" },
  { name: "product-analytics", path: "/product-analytics", signedIn: true, property: true, ready: ".insights-empty" },
  { name: "insight", path: "/product-analytics/insights/new", signedIn: true, property: true, ready: INSIGHT_READY },
  {
    name: "insight-paths",
    path: "/product-analytics/insights/new?kind=paths",
    signedIn: true,
    property: true,
    ready: INSIGHT_READY,
  },
  {
    name: "insight-funnel",
    path: "/product-analytics/insights/new?kind=funnel",
    signedIn: true,
    property: true,
    ready: INSIGHT_READY,
  },
  { name: "customer", path: "/customers/c-8f3a2b", signedIn: true, property: true },
  {
    name: "customer-identified",
    path: `/customers/${VISITOR_ID}`,
    signedIn: true,
    property: true,
    propertyIndex: VISITOR_PROPERTY,
    ready: ".activity-calendar canvas",
    prepare: settledVisitors,
  },
  { name: "visitors-empty", path: "/product-analytics?tab=visitors", signedIn: true, property: true, ready: ".visitors-empty" },
  {
    name: "visitors",
    path: "/product-analytics?tab=visitors",
    signedIn: true,
    property: true,
    propertyIndex: VISITOR_PROPERTY,
    ready: ".visitor-link",
  },
  { name: "reports", path: "/reports", signedIn: true, property: true, ready: SECTION_READY, prepare: settled },
  ...SECTION_IDS.map((id) => ({
    name: `settings-${id}`,
    path: `/settings?section=${id}`,
    signedIn: true,
    property: true,
    ready: SECTION_READY,
    prepare: settled,
  })),
  { name: "team", path: "/team", signedIn: true, ready: TEAM_READY, prepare: settled },
  {
    name: "invite",
    get path() {
      return `/invite/${inviteToken}`;
    },
    signedIn: false,
    prepare: async (page) => {
      await page.locator("#invite-name").waitFor();
    },
  },
  { name: "billing", path: "/billing", signedIn: true, ready: ".billing-history-chart canvas" },
  {
    name: "theme-menu",
    path: "/team",
    signedIn: true,
    ready: TEAM_READY,
    loadPerTheme: true,
    prepare: async (page) => {
      await page.getByRole("button", { name: /^Theme:/ }).click();
      await page.locator(".dropdown-menu.show").waitFor();
    },
  },
  {
    name: "account-menu",
    path: "/team",
    signedIn: true,
    ready: TEAM_READY,
    loadPerTheme: true,
    prepare: async (page) => {
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.locator(".dropdown-menu.show").waitFor();
    },
  },
  {
    name: "sidebar",
    path: "/dashboard",
    signedIn: true,
    property: true,
    loadPerTheme: true,
    prepare: async (page, device) => {
      if (device === "phone") {
        await page.locator(".header-toggler-start").click();
        await page.waitForFunction(() => (document.querySelector(".sidebar")?.getBoundingClientRect().left ?? -1) >= 0);
        // The backdrop fades in: checked half-faded, the page behind it had half its contrast.
        await page.waitForFunction(() =>
          [".sidebar", ".sidebar-backdrop"].every((sel) =>
            (document.querySelector(sel)?.getAnimations() ?? []).every((a) => a.playState !== "running"),
          ),
        );
      } else {
        await page.locator(".sidebar-toggler").click();
        await page.mouse.move(900, 500);
        await page.waitForFunction(
          () => getComputedStyle(document.querySelector(".wrapper") as Element).paddingInlineStart === "64px",
        );
      }
    },
  },
];

/**
 * Loads a shot's screen on a page that is already signed in (or not), with the theme and the
 * current property stored first as a returning visitor would have them, and prepares it. Pages are
 * reused across shots (a context and a sign-in per shot made this walk the suite's slowest file).
 */
async function load(watched: WatchedPage, shot: Shot, theme: Theme, device: Device) {
  const { page } = watched;
  // As the context's colour scheme was before: the system's preference matches the stored theme.
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate(
    ({ key, theme, property }) => {
      localStorage.setItem(key, theme);
      if (property) localStorage.setItem("currentProperty", JSON.stringify(property));
      else localStorage.removeItem("currentProperty");
    },
    {
      key: THEME_KEY,
      theme,
      property: shot.property
        ? { unique_id: web.propertyIds[shot.propertyIndex ?? 0], website_url: SITE_URLS[shot.propertyIndex ?? 0] }
        : null,
    },
  );
  await page.goto(`${web.server.url}${shot.path}`);
  await page.locator("main h1").first().waitFor();
  if (shot.signedIn)
    await page
      .locator(shot.ready ?? ".property-card, .empty-state")
      .first()
      .waitFor();
  await shot.prepare?.(page, device);
}

/**
 * Turns the loaded screen dark in place. Signed in, through the header's theme menu, whose choice
 * stores the theme and repaints (charts redraw on the attribute); its controls get their click
 * events dispatched rather than a pointer's, which would leave the pointer hovering whatever lies
 * under the menu and the focus on its toggle, neither of which a freshly loaded screen has. The
 * signed-out screens have no theme menu: the theme is stored and applied as theme.ts does (none
 * of them reads the layout state's theme).
 */
async function switchToDark(watched: WatchedPage, shot: Shot) {
  const { page } = watched;
  await page.emulateMedia({ colorScheme: "dark" });
  if (shot.signedIn) {
    const focused = await page.evaluateHandle(() => document.activeElement);
    await page.getByRole("button", { name: /^Theme:/ }).dispatchEvent("click");
    await page.locator(".dropdown-menu.show").getByRole("button", { name: "Dark" }).dispatchEvent("click");
    await page.waitForFunction(
      () => document.documentElement.dataset.coreuiTheme === "dark" && !document.querySelector(".dropdown-menu.show"),
    );
    // The menu's toggle took the focus when it opened: give it back.
    await page.evaluate((el) => {
      if (el === document.activeElement) return;
      if (el instanceof HTMLElement && el !== document.body) el.focus();
      else (document.activeElement as HTMLElement | null)?.blur();
    }, focused);
    await focused.dispose();
  } else {
    await page.evaluate((key) => {
      localStorage.setItem(key, "dark");
      document.documentElement.dataset.coreuiTheme = "dark";
    }, THEME_KEY);
  }
}

/**
 * The checks and the shot of the screen as it is: the theme, no sideways overflow, no problems in
 * the page since `seen`, the screenshot, axe-core.
 */
async function check(expect: ExpectStatic, watched: WatchedPage, shot: Shot, theme: Theme, device: Device, seen: number) {
  const { page } = watched;
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(Array.from(document.images).map((img) => img.decode().catch(() => undefined)));
  });
  // Let CoreUI's 150 ms fades finish (and, after a theme switch, any colour transition): the
  // transitions running once the next frames have started any a class change just asked for (was
  // a fixed 200 ms a shot, most of them with nothing fading).
  await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const fading = document.getAnimations().filter((a) => a instanceof CSSTransition);
    await Promise.all(fading.map((a) => a.finished.catch(() => undefined)));
  });
  expect(await page.evaluate(() => document.documentElement.dataset.coreuiTheme)).toBe(theme);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${shot.name} overflows sideways at ${device} width (${theme})`).toBeLessThanOrEqual(0);
  const file = artifactPath(`web-${shot.name}-${theme}-${device}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect(existsSync(file)).toBe(true);
  expect(watched.problems.slice(seen), `${shot.name} (${theme}, ${device}): problems in the page`).toEqual([]);
  // Accessibility in both themes at both widths (a phone shows other controls: the sidebar toggle,
  // stacked navigation).
  const violations = await axeViolations(page);
  expect
    .soft(violations, `${shot.name} (${theme}, ${device}): axe-core violations\n${describeViolations(violations)}`)
    .toEqual([]);
}

/** The sidebar's classes (none on the signed-out screens): shown, hidden, narrow. */
const sidebarState = (page: Page) => page.evaluate(() => document.querySelector(".sidebar")?.className ?? "");

/**
 * One shot in both themes: the screen loads light and is checked, then turns dark in place (as a
 * person switching theme would see it) and is checked again, which halves the page loads. A shot
 * with `loadPerTheme` loads again for the dark shot, and so does a screen whose sidebar hid itself
 * meanwhile: the full-page screenshot can fire a passing 1x1 window resize, on which CoreUI's
 * sidebar finds itself out of view and the app stores it as hidden (a fresh load shows it).
 */
async function shootBothThemes(expect: ExpectStatic, watched: WatchedPage, shot: Shot, device: Device) {
  let seen = watched.problems.length;
  await load(watched, shot, "light", device);
  const sidebar = await sidebarState(watched.page);
  await check(expect, watched, shot, "light", device, seen);
  seen = watched.problems.length;
  if (shot.loadPerTheme || (await sidebarState(watched.page)) !== sidebar) await load(watched, shot, "dark", device);
  else await switchToDark(watched, shot);
  await check(expect, watched, shot, "dark", device, seen);
}

/** A page at the device's size, signed in or not, on a document of the server's origin. */
async function pageFor(device: Device, signedIn: boolean): Promise<WatchedPage> {
  const watched = await openPage(browser, { viewport: SIZES[device] });
  if (signedIn) await signIn(watched.page, web.server, session);
  // Any document of the origin gives its storage (the favicon spares a load of the whole app).
  else await watched.page.goto(`${web.server.url}/favicon.svg`);
  return watched;
}

// One walk per width, each with its own `expect` (the test context's). The widths do not run side by
// side: in the suite another worker keeps the two cores busy, and two walks beside it only contend.
describe("screenshots", () => {
  for (const device of ["desktop", "phone"] as const) {
    it(`every screen, light and dark, ${device}`, { timeout: 400_000 }, async ({ expect }) => {
      const signedOut = await pageFor(device, false);
      const signedIn = await pageFor(device, true);
      try {
        for (const shot of SHOTS) await shootBothThemes(expect, shot.signedIn ? signedIn : signedOut, shot, device);
      } finally {
        await signedOut.close();
        await signedIn.close();
      }
    });
  }
});
