// Browser tests of the built tracker in Debian's Chromium, against HTML fixtures served by
// FixtureServer (see test-server.ts for how one local server plays every hostname).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchPlainBrowser } from "../../../e2e/browser.js";
import { CDN, ensureBuilt, FixtureServer, type Hit, SHOP } from "./test-server.js";

const srv = new FixtureServer();
const { hits } = srv;
const fixture = srv.fixture.bind(srv);
const sent = srv.sent.bind(srv);
const waitForCount = srv.waitForCount.bind(srv);
let browser: Browser;
let context: BrowserContext | undefined;
const pageErrors: string[] = [];

async function newPage(init?: string): Promise<Page> {
  context = await browser.newContext({
    proxy: { server: `http://127.0.0.1:${srv.port}` },
    viewport: { width: 1280, height: 800 },
  });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return page;
}

/** Lets the tracker act, for assertions that something was *not* sent. */
const settle = (page: Page, ms = 400) => page.waitForTimeout(ms);

beforeAll(async () => {
  await ensureBuilt();
  await srv.start();
  browser = await launchPlainBrowser();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  // The tracker must never throw into the host page.
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await srv.close();
});

describe("pageviews", () => {
  it("sends a pageview on load to the script's origin as text/plain, with a stored client id", async () => {
    const { id, path } = fixture();
    const page = await newPage();
    await page.goto(`${SHOP}${path}?utm_source=news`, { referer: "https://www.google.com/" });
    const [hit] = await waitForCount(id, "pageview", 1);
    expect(hit?.host).toBe("cdn.lookout.test");
    expect(hit?.path).toBe("/api/event");
    expect(hit?.contentType).toMatch(/^text\/plain/);
    expect(hit?.body).toMatchObject({
      p: id,
      n: "pageview",
      u: `${SHOP}${path}?utm_source=news`,
      r: "https://www.google.com/",
      w: 1280,
      ti: `Fixture ${id}`,
      l: expect.any(String),
    });
    expect(hit?.body.c).toMatch(/^[0-9a-z]{28}$/);
    expect(hit?.body).not.toHaveProperty("h");
    expect(await page.evaluate(() => localStorage.getItem("lookout_cid"))).toBe(hit?.body.c);

    // The same browser keeps its id across page loads.
    await page.reload();
    const second = await waitForCount(id, "pageview", 2);
    expect(second[1]?.body.c).toBe(hit?.body.c);
  });

  it("follows pushState, ignores replaceState to the same path, counts popstate", async () => {
    const { id, path } = fixture();
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    await waitForCount(id, "pageview", 1);

    await page.evaluate(() => history.pushState({}, "", "/app/about"));
    await waitForCount(id, "pageview", 2);
    // Routers often replaceState the URL they just pushed, or only its query: not a new view.
    await page.evaluate(() => history.replaceState({}, "", "/app/about"));
    await page.evaluate(() => history.replaceState({}, "", "/app/about?tab=2"));
    await page.evaluate(() => history.pushState({}, "", "/app/about?tab=3"));
    await settle(page);
    expect(sent(id, "pageview")).toHaveLength(2);

    await page.evaluate(() => history.replaceState({}, "", "/app/redirected"));
    await waitForCount(id, "pageview", 3);
    // popstate: back to /app/about?tab=3 (a new view), to /app/about?tab=2 (same path), to the start.
    await page.goBack();
    await waitForCount(id, "pageview", 4);
    await page.goBack();
    await page.goBack();
    await waitForCount(id, "pageview", 5);
    await settle(page);

    expect(sent(id, "pageview").map((h) => new URL(String(h.body.u)).pathname)).toEqual([
      path,
      "/app/about",
      "/app/redirected",
      "/app/about",
      path,
    ]);
    // Leaving a view by navigation reports its engaged time against the view left.
    const engagement = await waitForCount(id, "engagement", 1);
    expect(engagement[0]?.body.u).toBe(`${SHOP}${path}`);
    expect(engagement[0]?.body.g).toBeGreaterThan(0);
  });

  it("counts fragment routes only in hash mode", async () => {
    const hashed = fixture({ attrs: "data-hash" });
    const page = await newPage();
    await page.goto(`${SHOP}${hashed.path}`);
    await waitForCount(hashed.id, "pageview", 1);
    await page.evaluate(() => {
      location.hash = "#/pricing";
    });
    const views = await waitForCount(hashed.id, "pageview", 2);
    expect(views[1]?.body).toMatchObject({ u: `${SHOP}${hashed.path}#/pricing`, h: true });
    await page.evaluate(() => history.pushState({}, "", "#/docs"));
    await waitForCount(hashed.id, "pageview", 3);
    await settle(page);
    expect(sent(hashed.id, "pageview")).toHaveLength(3); // hashchange + popstate fire once per view

    const plain = fixture();
    await page.goto(`${SHOP}${plain.path}`);
    await waitForCount(plain.id, "pageview", 1);
    await page.evaluate(() => {
      location.hash = "#section-2";
    });
    await settle(page);
    expect(sent(plain.id, "pageview")).toHaveLength(1);
  });

  it("counts once when the script is included twice", async () => {
    const { id, path } = fixture({ head: `<script defer src="${CDN}/js/script.js" data-property="dup"></script>` });
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    await settle(page);
    expect(sent("dup", "pageview").length + sent(id, "pageview").length).toBe(1);
  });
});

describe("events", () => {
  it("sends custom events with props and revenue, including calls queued before load", async () => {
    const stub =
      "<script>window.lookout=window.lookout||function(){(lookout.q=lookout.q||[]).push(arguments)};lookout('early',{props:{x:1}})</script>";
    const { id, path } = fixture({ head: stub });
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    const [early] = await waitForCount(id, "early", 1);
    expect(early?.body.pr).toEqual({ x: 1 });
    await page.evaluate(() =>
      window.lookout?.("signup", { props: { plan: "pro", seats: 3, trial: false }, revenue: { amount: 49.5, currency: "EUR" } }),
    );
    const [signup] = await waitForCount(id, "signup", 1);
    expect(signup?.body).toMatchObject({
      n: "signup",
      pr: { plan: "pro", seats: 3, trial: false },
      rv: { amount: 49.5, currency: "EUR" },
      u: `${SHOP}${path}`,
    });
    // Queued calls run after the pageview, so the pageview opens the visit.
    expect(hits.findIndex((h) => h.body.p === id && h.body.n === "pageview")).toBeLessThan(hits.indexOf(early as Hit));
  });

  it("identifies a known customer", async () => {
    const { id, path } = fixture();
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    await page.evaluate(() => window.lookout?.identify("ada@example.com", { name: "Ada", plan: "team" }));
    const [hit] = await waitForCount(id, "identify", 1);
    expect(hit?.body).toMatchObject({ e: "ada@example.com", t: { name: "Ada", plan: "team" } });
    expect(hit?.body.c).toMatch(/^[0-9a-z]{28}$/);
  });

  it("reports outbound clicks (path only) when opted in, not internal ones", async () => {
    const links = `<a id="out" href="https://other.example/page?secret=1" onclick="event.preventDefault()">out</a>
      <a id="in" href="/f/internal" onclick="event.preventDefault()">in</a>`;
    const on = fixture({ attrs: "data-outbound", body: links });
    const page = await newPage();
    await page.goto(`${SHOP}${on.path}`);
    await waitForCount(on.id, "pageview", 1);
    await page.click("#in");
    await page.click("#out");
    await page.click("#out", { button: "middle" });
    const clicks = await waitForCount(on.id, "Outbound Link: Click", 2);
    expect(clicks[0]?.body.pr).toEqual({ url: "https://other.example/page" });
    await settle(page);
    expect(sent(on.id).map((h) => h.body.n)).toEqual(["pageview", "Outbound Link: Click", "Outbound Link: Click"]);

    const off = fixture({ body: links });
    await page.goto(`${SHOP}${off.path}`);
    await waitForCount(off.id, "pageview", 1);
    await page.click("#out");
    await settle(page);
    expect(sent(off.id, "Outbound Link: Click")).toHaveLength(0);
  });

  it("reports file downloads with the default or a custom extension list", async () => {
    const links = `<a id="pdf" href="/files/Report.PDF?token=abc" onclick="event.preventDefault()">pdf</a>
      <a id="zip" href="https://files.other.example/pkg.zip" onclick="event.preventDefault()">zip</a>
      <a id="html" href="/about.html" onclick="event.preventDefault()">about</a>`;
    const all = fixture({ attrs: "data-downloads data-outbound", body: links });
    const page = await newPage();
    await page.goto(`${SHOP}${all.path}`);
    await waitForCount(all.id, "pageview", 1);
    for (const l of ["#pdf", "#zip", "#html"]) await page.click(l);
    const downloads = await waitForCount(all.id, "File Download", 2);
    expect(downloads.map((h) => h.body.pr)).toEqual([
      { url: `${SHOP}/files/Report.PDF` },
      { url: "https://files.other.example/pkg.zip" },
    ]);
    await settle(page);
    // A download on another host is a download, not also an outbound click.
    expect(sent(all.id, "Outbound Link: Click")).toHaveLength(0);

    const zipOnly = fixture({ attrs: 'data-downloads="zip"', body: links });
    await page.goto(`${SHOP}${zipOnly.path}`);
    await waitForCount(zipOnly.id, "pageview", 1);
    await page.click("#pdf");
    await page.click("#zip");
    const [zip] = await waitForCount(zipOnly.id, "File Download", 1);
    expect(zip?.body.pr).toEqual({ url: "https://files.other.example/pkg.zip" });
    await settle(page);
    expect(sent(zipOnly.id, "File Download")).toHaveLength(1);
  });
});

describe("engagement", () => {
  it("sends heartbeats with engaged time while visible and stops when hidden", async () => {
    const { id, path } = fixture({ attrs: 'data-heartbeat-ms="250"' });
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    const beats = await waitForCount(id, "engagement", 3);
    for (const b of beats) {
      expect(b.body.g).toBeGreaterThan(100);
      expect(b.body.g).toBeLessThan(5000); // generous: timers stretch on a loaded machine
      expect(b.body.u).toBe(`${SHOP}${path}`);
    }
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await settle(page, 200);
    const count = sent(id, "engagement").length;
    await settle(page, 800);
    expect(sent(id, "engagement")).toHaveLength(count);
  });

  it("sends a pageleave beacon when the visitor navigates away", async () => {
    const { id, path } = fixture();
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    await waitForCount(id, "pageview", 1);
    await settle(page, 300);
    await page.goto("http://elsewhere.example/");
    const [leave] = await waitForCount(id, "pageleave", 1);
    expect(leave?.body.u).toBe(`${SHOP}${path}`);
    expect(leave?.body.g).toBeGreaterThanOrEqual(0);
    const engaged = sent(id).reduce((sum, h) => sum + (Number(h.body.g) || 0), 0);
    expect(engaged).toBeGreaterThanOrEqual(250);
  });
});

describe("privacy and robustness", () => {
  it("sends nothing and stores nothing for a browser that opted out", async () => {
    const { id, path } = fixture({ attrs: "data-outbound" });
    const page = await newPage("localStorage.setItem('lookout_ignore', 'true')");
    await page.goto(`${SHOP}${path}`);
    await page.waitForFunction(() => typeof window.lookout?.identify === "function");
    await page.evaluate(() => window.lookout?.("signup"));
    await settle(page);
    expect(sent(id)).toEqual([]);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(["lookout_ignore"]);
  });

  it("uses no storage in cookieless mode", async () => {
    const { id, path } = fixture({ attrs: "data-cookieless" });
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    await page.evaluate(() => window.lookout?.identify("ada@example.com"));
    const [view] = await waitForCount(id, "pageview", 1);
    await waitForCount(id, "identify", 1);
    expect(view?.body).not.toHaveProperty("c");
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await page.evaluate(() => document.cookie)).toBe("");
  });

  it("skips localhost, *.localhost and 127.x unless data-allow-localhost is set", async () => {
    const skipped = fixture({ src: "/js/script.js" });
    const allowed = fixture({ src: "/js/script.js", attrs: "data-allow-localhost" });
    const page = await newPage();
    for (const host of [`127.0.0.1:${srv.port}`, `localhost:${srv.port}`, `app.localhost:${srv.port}`, `127.0.0.2:${srv.port}`]) {
      await page.goto(`http://${host}${skipped.path}`);
      // The API exists (site code calling it must not break) but does nothing and stores nothing.
      await page.waitForFunction(() => typeof window.lookout?.identify === "function");
      await page.evaluate(() => window.lookout?.("signup"));
      expect(await page.evaluate(() => localStorage.length)).toBe(0);
    }
    await page.goto(`http://127.0.0.1:${srv.port}${allowed.path}`);
    const [hit] = await waitForCount(allowed.id, "pageview", 1);
    expect(hit?.host).toBe(`127.0.0.1:${srv.port}`);
    await settle(page);
    expect(sent(skipped.id)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem("lookout_cid"))).toMatch(/^[0-9a-z]{28}$/);
  });

  it("posts to data-api when given", async () => {
    const { id, path } = fixture({ attrs: 'data-api="http://collector.example/custom/collect"' });
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    const [hit] = await waitForCount(id, "pageview", 1);
    expect([hit?.host, hit?.path]).toEqual(["collector.example", "/custom/collect"]);
  });

  it("keeps working without localStorage or sendBeacon and never throws into the page", async () => {
    const { id, path } = fixture();
    const page = await newPage(`
      Object.defineProperty(window, "localStorage", { get() { throw new DOMException("denied", "SecurityError"); } });
      delete Navigator.prototype.sendBeacon;`);
    await page.goto(`${SHOP}${path}`);
    const [view] = await waitForCount(id, "pageview", 1);
    expect(view?.body).not.toHaveProperty("c"); // the server falls back to a daily hash
    expect(view?.contentType).toMatch(/^text\/plain/);
    const threw = await page.evaluate(() => {
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      try {
        const l = window.lookout as unknown as (...a: unknown[]) => void;
        l();
        l(null, 5);
        l("x", { props: circular });
        window.lookout?.identify(undefined as unknown as string, circular as never);
        history.pushState({}, "", "/still-works");
        return false;
      } catch {
        return true;
      }
    });
    expect(threw).toBe(false);
    await waitForCount(id, "pageview", 2);
  });

  it("does nothing without data-property", async () => {
    const { id, path } = fixture({ property: null });
    const page = await newPage();
    await page.goto(`${SHOP}${path}`);
    await page.waitForFunction(() => typeof window.lookout?.identify === "function");
    await page.evaluate(() => window.lookout?.("signup"));
    await settle(page);
    expect(hits.filter((h) => String(h.body.u).includes(id))).toEqual([]);
  });
});
