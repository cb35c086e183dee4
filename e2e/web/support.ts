import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { launchPlainBrowser } from "../browser";
import { login, provision, type RunningServer, startServer } from "../harness";

export const OWNER = { email: "owner@example.com", password: "correct-horse-battery-staple" };
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };
export const THEME_KEY = "coreui-free-react-admin-template-theme";
export const SESSION_KEYS = ["userToken", "accountId", "accountId2", "userEmail"] as const;

export interface SiteSpec {
  url: string;
  name: string;
}

export interface WebServer {
  server: RunningServer;
  /** unique_id of each created property, in the order given. */
  propertyIds: string[];
  stop: () => Promise<void>;
}

/**
 * Writes data into the fresh data directory before the server starts (the embedded stores admit
 * one process), for example events into `<dataDir>/events.duckdb` (see seedEvents).
 */
export type SeedHook = (dataDir: string, propertyIds: string[]) => Promise<void>;

/** Starts a server whose owner (OWNER) already has the given properties, seeded by `seed` if given. */
export async function startWebServer(sites: SiteSpec[] = [], seed?: SeedHook): Promise<WebServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "lookout-web-e2e-"));
  const [propertyIds = []] = await provision(dataDir, [{ ...OWNER, sites }]);
  await seed?.(dataDir, propertyIds);
  const server = await startServer({ dataDir });
  return {
    server,
    propertyIds,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const PLACEHOLDER_AVATAR =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#6261cc"/></svg>';

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and page errors seen so far (CSP violations land here). */
  problems: string[];
  close: () => Promise<void>;
}

/**
 * A fresh context and page; Gravatar answers with a local image because the test machine is offline.
 * The page asks for reduced motion, as some people do: charts draw at once and placeholders hold
 * still (the app honours the setting), which saves a fifth of Chromium's work in these tests.
 * Actions may take 60 s instead of Playwright's 30: under the whole suite's load on 2 cores a
 * full-page screenshot of a chart at phone width once took longer than 30 s.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: "reduce", ...options });
  await context.route("https://www.gravatar.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "image/svg+xml", body: PLACEHOLDER_AVATAR }),
  );
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const problems: string[] = [];
  watch(page, problems);
  return { page, context, problems, close: () => context.close() };
}

export interface BrowserSuite {
  readonly web: WebServer;
  readonly browser: Browser;
  /** Opens the test's page (openPage); after the test it must have seen no problems, and closes. */
  open(options?: BrowserContextOptions): Promise<WatchedPage>;
}

/** The frame of a browser test file: one server with `sites`, one browser, a watched page per test. */
export function browserSuite(sites: SiteSpec[], seed?: SeedHook): BrowserSuite {
  let web: WebServer | undefined;
  let browser: Browser | undefined;
  let current: WatchedPage | undefined;
  beforeAll(async () => {
    // Chromium starts while the server does (each takes seconds on a loaded machine).
    const launched = launchPlainBrowser();
    try {
      web = await startWebServer(sites, seed);
    } finally {
      browser = await launched;
    }
  });
  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });
  afterEach(async () => {
    const page = current;
    current = undefined;
    if (!page) return;
    expect(page.problems).toEqual([]);
    await page.close();
  });
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("the browser suite has not started (use it inside tests)");
    return v;
  };
  return {
    get web() {
      return started(web);
    },
    get browser() {
      return started(browser);
    },
    async open(options) {
      current = await openPage(started(browser), options);
      return current;
    },
  };
}

/** Records console errors and uncaught errors of a page, except the expected failed calls. */
export function watch(page: Page, problems: string[]): void {
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const text = m.text();
    // Failed calls the test provoked on purpose (401, 400...) are logged by the browser itself.
    if (/^Failed to load resource: the server responded with a status of (4\d\d|5\d\d)/.test(text)) return;
    problems.push(`console: ${text}`);
  });
}

export type LoginAnswer = Awaited<ReturnType<typeof login>>;

/**
 * Signs in through the API (or reuses an earlier answer) and leaves the browser as the login screen
 * would: the session in storage, the session and XSRF cookies (the live socket signs in with them).
 * The page is left on a document of the server's origin that is not the app: go to a screen next.
 */
export async function signIn(page: Page, server: RunningServer, earlier?: LoginAnswer): Promise<LoginAnswer> {
  const answer = earlier ?? (await login(server, OWNER.email, OWNER.password));
  await page.context().addCookies(answer.cookies.map((c) => ({ ...c, url: server.url })));
  // Any document of the server's origin gives its storage; the favicon spares Chromium a load of
  // the whole app (about a second of its CPU) that the caller's next page.goto would repeat.
  await page.goto(`${server.url}/favicon.svg`);
  await page.evaluate((a) => {
    localStorage.setItem("userToken", a.token);
    localStorage.setItem("accountId", a.accountId);
    localStorage.setItem("accountId2", a.accountId2);
    localStorage.setItem("userEmail", a.email);
  }, answer);
  return answer;
}

export async function storage(page: Page, keys: readonly string[]): Promise<Record<string, string | null>> {
  return page.evaluate((ks) => Object.fromEntries(ks.map((k) => [k, localStorage.getItem(k)])), [...keys]);
}

/** Holds a matching request until `release` is called, so a test can look at the busy state. */
export async function holdRequests(page: Page, urlPart: string): Promise<{ release: () => void }> {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  await page.route(`**${urlPart}`, async (route) => {
    await gate;
    await route.continue();
  });
  return { release: () => release() };
}

/**
 * A SeedHook writing synthetic traffic (@lookout/traffic) for the properties at `indexes` straight
 * into `<dataDir>/events.duckdb`, one append per batch. The modules load only when a test seeds.
 */
export function seedEvents(opts: { indexes: number[]; days?: number; visitors?: number; seed?: number }): SeedHook {
  return async (dataDir, propertyIds) => {
    const { openDuckDbEventStore } = await import("@lookout/storage");
    const { generateEvents } = await import("@lookout/traffic");
    const store = await openDuckDbEventStore(join(dataDir, "events.duckdb"));
    try {
      await store.migrate();
      const end = new Date();
      for (const i of opts.indexes) {
        const property = propertyIds[i];
        if (!property) throw new Error(`no property at index ${i}`);
        const batches = generateEvents({
          property,
          days: opts.days ?? 30,
          visitors: opts.visitors ?? 400,
          seed: opts.seed ?? 1,
          end,
        });
        for (const batch of batches) await store.append(batch);
      }
      await store.sync();
    } finally {
      await store.close();
    }
  };
}
