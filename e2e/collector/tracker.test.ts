// The tracker in a real browser against the real server: the demo website (created on a fresh
// start with LOOKOUT_DEMO=1) records our pageview, a custom event with props and revenue, and the
// visitor's country from the trusted proxy's X-Forwarded-For; the Stats API shows them.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPlainBrowser } from "../browser";
import { login, type RunningServer, startServer } from "../harness";

const DESKTOP_CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

describe("tracker on the demo website", () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let demo: string;
  beforeAll(async () => {
    server = await startServer({ env: { LOOKOUT_DEMO: "1", LOOKOUT_TRUSTED_PROXIES: "127.0.0.1" } });
    browser = await launchPlainBrowser();
    const session = await login(server);
    token = session.token;
    const r = await fetch(`${server.url}/static-api/get-properties`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
      body: `accountId=${session.accountId}`,
    });
    const properties = (await r.json()) as { unique_id: string; name: string; is_demo: boolean }[];
    const found = properties.find((p) => p.is_demo);
    if (!found) throw new Error("no demo property");
    expect(found.name).toBe("Demo site");
    demo = found.unique_id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const stats = async (path: string) => {
    const r = await fetch(`${server.url}/api/v1/stats/${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    return ((await r.json()) as { results: unknown }).results;
  };
  const eventually = async <T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const v = await fn();
      if (ok(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it("has 30 days of generated history and live simulated visitors", async () => {
    const top = (await stats(`aggregate?property_id=${demo}&period=last_30_days&metrics=visitors,pageviews`)) as Record<
      string,
      { value: number }
    >;
    expect(top.visitors?.value).toBeGreaterThan(1000);
    const live = await eventually(
      async () =>
        (
          await fetch(`${server.url}/api/v1/stats/realtime/visitors?property_id=${demo}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json() as Promise<number>,
      (n) => n > 0,
    );
    expect(live).toBeGreaterThan(0);
  });

  it("records a pageview and a custom event from the page, with the visitor's country", async () => {
    // Headless Chromium says "HeadlessChrome" in its user agent, which the collector rightly
    // drops as automation; this test stands in for a person, so it uses a desktop Chrome's.
    const context = await browser.newContext({
      extraHTTPHeaders: { "x-forwarded-for": "81.2.69.142" },
      userAgent: DESKTOP_CHROME,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    await page.goto(`${server.url}/demo/site/pricing`);
    const filter = encodeURIComponent("page==/demo/site/pricing");
    const views = await eventually(
      () =>
        stats(`breakdown?property_id=${demo}&period=today&dimension=country&metrics=pageviews&filters=${filter}`) as Promise<
          { country: string; pageviews: number }[]
        >,
      (rows) => rows.length > 0,
    );
    expect(views).toEqual([{ country: "GB", pageviews: 1 }]);

    await page.click("#signup");
    const events = await eventually(
      () =>
        stats(
          `breakdown?property_id=${demo}&period=today&dimension=prop:plan&metrics=events&filters=${encodeURIComponent("event_name==signup;country==GB")}`,
        ) as Promise<{ "prop:plan": string; events: number }[]>,
      (rows) => rows.length > 0,
    );
    expect(events).toEqual([{ "prop:plan": "pro", events: 1 }]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
