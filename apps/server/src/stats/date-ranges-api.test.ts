// Dates and totals agree through the Stats API (issue #19 item 1, DESIGN.md §4): a preset and the
// same days picked as a custom range give the same numbers, a chart has one bucket per day its
// label names and none after now, and a custom range that ends in the future or starts after it
// ends is a 400 {message, code}. Runs against the real clock, in Auckland (a day boundary far from
// UTC's), with events placed on local days around the last 7 days' edges.
import { bucketOf, resolveDateRange } from "@lookout/query";
import { addCalendarDays, type EventRow, eventRow, localCalendarDay, presetRange } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

const TZ = "Pacific/Auckland";

describe.each<Backend>(["pglite", "postgres"])("Stats API date ranges on %s", (backend) => {
  let t: TestApp;
  let site: string;
  let token: string;
  let today: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test", { timezone: TZ });
    token = (await t.login(alice.email, alice.password)).token;
    const now = new Date();
    today = localCalendarDay(TZ, now);
    /** One minute after the local day `offset` days from today starts. */
    const on = (offset: number) => {
      const day = addCalendarDays(today, offset);
      const from = resolveDateRange({ preset: "custom", from: day, to: day }, { timezone: TZ, now }).from;
      return new Date(from.getTime() + 60_000);
    };
    const ev = (ts: Date, v: string): EventRow =>
      eventRow({
        property: site,
        ts,
        hostname: "shop.test",
        url: "https://shop.test/",
        visitor_id: v,
        client_id: v,
        session_id: v,
        country: "NZ",
      });
    await t.events.append([
      ev(on(-7), "eight-days-ago"), // outside the last 7 days
      ev(on(-6), "first-day"),
      ev(on(-3), "middle"),
      ev(on(0), "today"),
    ]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (path: string) => {
    const r = await t.app.inject({ method: "GET", url: `/api/v1/stats/${path}`, headers: { authorization: `Bearer ${token}` } });
    return { status: r.statusCode, body: r.json() };
  };
  const visitors = async (range: string) => {
    const r = await get(`aggregate?property_id=${site}&${range}&metrics=visitors,pageviews`);
    expect(r.status).toBe(200);
    return r.body.results;
  };

  it("gives the same totals for last 7 days and the same 7 days as a custom range", async () => {
    const days = presetRange({ preset: "last_7_days" }, today);
    expect(days.days).toBe(7);
    const preset = await visitors("period=last_7_days");
    const custom = await visitors(`period=custom&date=${days.firstDay},${days.lastDay}`);
    expect(preset).toEqual(custom);
    expect(preset.visitors.value).toBe(3);
    // The eighth day the old label named is another range with other numbers.
    expect((await visitors(`period=custom&date=${addCalendarDays(days.firstDay, -1)},${days.lastDay}`)).visitors.value).toBe(4);
  });

  it("charts one point per day the label names, ending today", async () => {
    const days = presetRange({ preset: "last_7_days" }, today);
    const r = await get(`timeseries?property_id=${site}&period=last_7_days`);
    expect(r.status).toBe(200);
    const dates = r.body.results.map((p: { date: string }) => p.date);
    expect(dates).toHaveLength(days.days);
    expect([dates[0], dates.at(-1)]).toEqual([days.firstDay, days.lastDay]);
    expect(r.body.results.map((p: { visitors: number }) => p.visitors)).toEqual([1, 0, 0, 1, 0, 0, 1]);
  });

  it("draws today by hour up to the hour holding now, no later", async () => {
    const before = bucketOf("hour", TZ, new Date());
    const r = await get(`timeseries?property_id=${site}&period=today&interval=hour`);
    const after = bucketOf("hour", TZ, new Date());
    expect(r.status).toBe(200);
    const last = r.body.results.at(-1).date;
    expect([before, after]).toContain(last);
    expect(r.body.results[0].date).toBe(`${today} 00:00:00`);
  });

  it("answers 400 {message, code} for a custom range ending in the future or starting after it ends", async () => {
    const tomorrow = addCalendarDays(today, 1);
    const future = await get(`aggregate?property_id=${site}&period=custom&date=${today},${tomorrow}`);
    expect(future.status).toBe(400);
    expect(future.body).toMatchObject({ code: "invalid_parameter", details: { param: "date" } });
    expect(future.body.message).toContain(`choose an end on or before today (${today})`);
    const ts = await get(`timeseries?property_id=${site}&period=custom&date=${tomorrow},${tomorrow}`);
    expect(ts.status).toBe(400);
    const reversed = await get(`aggregate?property_id=${site}&period=custom&date=${today},${addCalendarDays(today, -1)}`);
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ code: "invalid_parameter", details: { param: "date" } });
    expect(typeof reversed.body.message).toBe("string");
  });
});
