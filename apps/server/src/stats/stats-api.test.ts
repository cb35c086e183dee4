// The Stats API on real stores, with an inline fixture whose every number is worked out by hand
// from DESIGN.md §4. The property's timezone is America/New_York, so day boundaries are local.
import { type EventRow, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

const base = eventRow({
  property: "",
  ts: new Date(0),
  hostname: "shop.test",
  url: "https://shop.test/",
  country: "US",
  browser: "Chrome",
  browser_version: "124",
  os: "Windows",
  os_version: "10",
  device: "desktop",
  screen: "desktop",
  language: "en",
});

describe("Stats API", () => {
  let t: TestApp;
  let site: string;
  let aliceToken: string;
  let bobToken: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const alice = await t.user("alice@example.com");
    const bob = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test", { timezone: "America/New_York" });
    await t.property(bob.accountId, "https://bob.test");
    aliceToken = (await t.login(alice.email, alice.password)).token;
    bobToken = (await t.login(bob.email, bob.password)).token;
    const ev = (ts: string, v: string, s: string, o: Partial<EventRow> = {}): EventRow => ({
      ...base,
      property: site,
      ts: new Date(ts),
      visitor_id: v,
      client_id: v,
      session_id: s,
      ...o,
      url: `https://shop.test${o.path ?? "/"}`,
    });
    await t.events.append([
      // previous period (Mar 2–4 local): one visitor
      ev("2024-03-03T12:00:00Z", "v4", "s0", { country: "FR" }),
      // v1: two pages and 30 s engaged on /pricing, then a bounce two days later
      ev("2024-03-05T15:00:00Z", "v1", "s1"),
      ev("2024-03-05T15:01:00Z", "v1", "s1", { path: "/pricing" }),
      ev("2024-03-05T15:02:00Z", "v1", "s1", { name: "engagement", path: "/pricing", engaged_ms: 30_000 }),
      ev("2024-03-07T16:00:00Z", "v1", "s3"),
      // v2: one page and a signup five minutes later (not a bounce)
      ev("2024-03-06T17:00:00Z", "v2", "s2", { country: "DE", browser: "Firefox", referrer_source: "Google", channel: "search" }),
      ev("2024-03-06T17:05:00Z", "v2", "s2", { country: "DE", browser: "Firefox", name: "signup", props: { plan: "pro" } }),
      // v3: 03:00 UTC on Mar 8 is 22:00 on Mar 7 in New York: inside the range
      ev("2024-03-08T03:00:00Z", "v3", "s4", { country: "GB", path: "/blog" }),
      // after the range (Mar 8 local)
      ev("2024-03-08T15:00:00Z", "v5", "s5", { country: "GB" }),
    ]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });

  const RANGE = "period=custom&date=2024-03-05,2024-03-07";
  const get = async (path: string, token = aliceToken) => {
    const r = await t.app.inject({ method: "GET", url: `/api/v1/stats/${path}`, headers: { authorization: `Bearer ${token}` } });
    return { status: r.statusCode, body: r.json() };
  };

  it("aggregates every metric exactly, with change against the previous period", async () => {
    const metrics = "visitors,visits,pageviews,views_per_visit,bounce_rate,visit_duration,events";
    const r = await get(`aggregate?property_id=${site}&${RANGE}&metrics=${metrics}&compare=previous_period`);
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual({
      visitors: { value: 3, comparison: 1, change: 200 },
      visits: { value: 4, comparison: 1, change: 300 },
      pageviews: { value: 5, comparison: 1, change: 400 },
      views_per_visit: { value: 1.25, comparison: 1, change: 25 },
      bounce_rate: { value: 50, comparison: 100, change: -50 },
      visit_duration: { value: 105, comparison: 0, change: null },
      events: { value: 1, comparison: 0, change: null },
    });
  });

  it("counts conversions of a goal", async () => {
    const r = await get(`aggregate?property_id=${site}&${RANGE}&metrics=visitors,conversions,conversion_rate&goal=signup`);
    expect(r.body.results).toEqual({
      visitors: { value: 3, comparison: null, change: null },
      conversions: { value: 1, comparison: null, change: null },
      conversion_rate: { value: 33.3, comparison: null, change: null },
    });
  });

  it("returns every local day of a timeseries", async () => {
    const r = await get(`timeseries?property_id=${site}&${RANGE}&metrics=visitors,pageviews&interval=day`);
    expect(r.body.results).toEqual([
      { date: "2024-03-05", visitors: 1, pageviews: 2 },
      { date: "2024-03-06", visitors: 1, pageviews: 1 },
      { date: "2024-03-07", visitors: 2, pageviews: 2 },
    ]);
  });

  it("breaks down by page, country and event, with filters", async () => {
    const pages = await get(`breakdown?property_id=${site}&${RANGE}&dimension=page&metrics=visitors,pageviews,time_on_page`);
    const byPage = Object.fromEntries(pages.body.results.map((r: { page: string }) => [r.page, r]));
    expect(byPage["/"]).toEqual({ page: "/", visitors: 2, pageviews: 3, time_on_page: 0 });
    expect(byPage["/pricing"]).toEqual({ page: "/pricing", visitors: 1, pageviews: 1, time_on_page: 30 });
    expect(byPage["/blog"]).toMatchObject({ visitors: 1, pageviews: 1 });
    expect(pages.body.results[0].page).toBe("/");

    const countries = await get(
      `breakdown?property_id=${site}&${RANGE}&dimension=country&metrics=visitors,visits&order=visits:desc`,
    );
    expect(countries.body.results[0]).toEqual({ country: "US", visitors: 1, visits: 2 });
    expect(countries.body.results).toHaveLength(3);

    const events = await get(`breakdown?property_id=${site}&${RANGE}&dimension=event_name&metrics=visitors,events`);
    expect(events.body.results).toEqual([{ event_name: "signup", visitors: 1, events: 1 }]);

    const plan = await get(`breakdown?property_id=${site}&${RANGE}&dimension=prop:plan`);
    expect(plan.body.results).toEqual([{ "prop:plan": "pro", visitors: 1 }]);

    const pricing = await get(
      `aggregate?property_id=${site}&${RANGE}&metrics=visitors,visits,pageviews&filters=${encodeURIComponent("page==/pricing")}`,
    );
    expect(pricing.body.results).toMatchObject({ visitors: { value: 1 }, visits: { value: 1 }, pageviews: { value: 1 } });

    const notUs = await get(`aggregate?property_id=${site}&${RANGE}&filters=${encodeURIComponent("country!=US")}`);
    expect(notUs.body.results.visitors.value).toBe(2);

    const paged = await get(`breakdown?property_id=${site}&${RANGE}&dimension=page&limit=1&page=2&order=dimension:asc`);
    expect(paged.body.results).toEqual([{ page: "/blog", visitors: 1 }]);
  });

  it("answers 400 naming the parameter, 401 without a token, 404 for another's property", async () => {
    const bad = await get(`breakdown?property_id=${site}&dimension=color`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "invalid_parameter", details: { param: "dimension" } });
    expect(bad.body.message).toContain("dimension");
    const tooFine = await get(`timeseries?property_id=${site}&period=last_90_days&interval=minute`);
    expect(tooFine.status).toBe(400);
    expect(tooFine.body.details).toEqual({ param: "interval" });
    // Every 400 names the parameter to change (README "Stats API").
    const calls: [string, string][] = [
      [`aggregate?property_id=${encodeURIComponent("a\u0000b")}`, "property_id"],
      ["aggregate", "property_id"],
      [`aggregate?property_id=${site}&period=someday`, "period"],
      [`aggregate?property_id=${site}&period=custom&date=2024-02-30,2024-03-01`, "date"],
      [`aggregate?property_id=${site}&metrics=visitors,nope`, "metrics"],
      [`aggregate?property_id=${site}&filters=page=~(a`, "filters"],
      [`aggregate?property_id=${site}&filters=page=~${encodeURIComponent("((.{0,10}){10}){10}Q")}`, "filters"],
      [`aggregate?property_id=${site}&filters=page==${encodeURIComponent("a\u0000")}`, "filters"],
      [`aggregate?property_id=${site}&metrics=conversions`, "goal"],
      [`aggregate?property_id=${site}&compare=yesterday`, "compare"],
      [`breakdown?property_id=${site}&dimension=page&limit=0`, "limit"],
      [`breakdown?property_id=${site}&dimension=page&order=bounce_rate`, "order"],
      [`timeseries?property_id=${site}&interval=decade`, "interval"],
    ];
    for (const [call, param] of calls) {
      const r = await get(call);
      expect([r.status, r.body.details], call).toEqual([400, { param }]);
    }
    const anon = await t.app.inject({ method: "GET", url: `/api/v1/stats/aggregate?property_id=${site}` });
    expect(anon.statusCode).toBe(401);
    for (const path of ["aggregate", "timeseries", "breakdown", "realtime/visitors"]) {
      const foreign = await get(`${path}?property_id=${site}&dimension=page`, bobToken);
      expect(foreign.status, path).toBe(404);
      expect(foreign.body.code).toBe("property_not_found");
    }
  });

  it("accepts a read-only API key, only within its account", async () => {
    const owner = await t.meta.users.findByEmail("alice@example.com");
    const bob = await t.meta.users.findByEmail("bob@example.com");
    const aliceAccount = (await t.meta.accounts.listForUser(owner?.id ?? ""))[0]?.id ?? "";
    const bobAccount = (await t.meta.accounts.listForUser(bob?.id ?? ""))[0]?.id ?? "";
    const { id, key } = await t.meta.apiKeys.create({ userId: owner?.id ?? "", accountId: aliceAccount, name: "ci" });
    const r = await get(`aggregate?property_id=${site}&${RANGE}`, key);
    expect(r.status).toBe(200);
    expect(r.body.results.visitors.value).toBe(3);
    // Read only: it cannot delete the property it can read (a key is refused every write).
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/properties/${site}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(del.statusCode).toBe(403);
    // Bound to its account even when its user is a member elsewhere.
    await t.meta.accounts.addMember(bobAccount, owner?.id ?? "", "viewer");
    const bobSite = (await t.meta.properties.listByAccount(bobAccount))[0]?.unique_id ?? "";
    expect((await get(`aggregate?property_id=${bobSite}`, aliceToken)).status).toBe(200);
    expect((await get(`aggregate?property_id=${bobSite}`, key)).status).toBe(404);
    await t.meta.apiKeys.revoke(id);
    expect((await get(`aggregate?property_id=${site}`, key)).status).toBe(401);
  });

  it("counts live visitors with a known country", async () => {
    const seen = (clientid: string, country?: string) =>
      t.presence.apply({
        kind: "seen",
        s: {
          clientid,
          propertyId: site,
          country,
          page: "/",
          title: "",
          source: "",
          referrer: "",
          device: "desktop",
          browser: "",
          os: "",
          ts: Date.now(),
          pageKey: "/",
          pageview: true,
        },
      });
    seen("live-1", "US");
    seen("live-2", "DE");
    seen("live-3");
    expect((await get(`realtime/visitors?property_id=${site}`)).body).toBe(2);
  });

  it("serves the OpenAPI document and its page", async () => {
    const doc = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    // The whole API's document (http/openapi.ts); the Stats API's calls among them.
    expect(Object.keys(doc.json().paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/stats/aggregate",
        "/api/v1/stats/timeseries",
        "/api/v1/stats/breakdown",
        "/api/v1/stats/realtime/visitors",
      ]),
    );
    const page = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("GET /api/v1/stats/breakdown");
  });
});
