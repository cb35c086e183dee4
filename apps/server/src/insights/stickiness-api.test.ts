// The stickiness insight through the API (DESIGN.md §5): an unsaved spec's visitors per number of
// active days with exact counts on a small fixture (exactly n, then n or more; several events on
// one day count as one active day; events outside the range, of another name or failing the event
// filter do not count), 400s naming the field for bad specs, and the actors call refused with a 400
// on `at` (stickiness lists no visitors yet).
import { type EventRow, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

describe("stickiness insights API", () => {
  let t: TestApp;
  let site: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    token = (await t.login(alice.email, alice.password)).token;
    const ev = (ts: string, v: string, o: Partial<EventRow> = {}): EventRow =>
      eventRow({ property: site, ts: new Date(ts), name: "pageview", path: "/", visitor_id: v, session_id: `${v}-${ts}`, ...o });
    await t.events.append([
      // u: active on 3 days of the range (twice on the 5th), /pricing on the 7th.
      ev("2024-03-04T10:00:00Z", "u"),
      ev("2024-03-05T09:00:00Z", "u"),
      ev("2024-03-05T15:00:00Z", "u"),
      ev("2024-03-07T10:00:00Z", "u", { path: "/pricing" }),
      // w: one day, on /pricing.
      ev("2024-03-06T10:00:00Z", "w", { path: "/pricing" }),
      // x: one day, twice.
      ev("2024-03-08T08:00:00Z", "x"),
      ev("2024-03-08T20:00:00Z", "x"),
      // y: only before and after the range.
      ev("2024-03-03T10:00:00Z", "y"),
      ev("2024-03-09T10:00:00Z", "y"),
      // z: another event only.
      ev("2024-03-05T10:00:00Z", "z", { name: "signup" }),
    ]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: unknown) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${token}` },
      payload: payload as Record<string, unknown>,
    });
  const spec = {
    kind: "stickiness",
    period: "custom",
    date: "2024-03-04,2024-03-08",
    interval: "day",
    event: { event: "pageview" },
  };

  it("answers the visitors active on exactly n days, one entry per n of the range", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, spec);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      kind: "stickiness",
      interval: "day",
      cumulative: false,
      results: [
        { intervals: 1, visitors: 2 },
        { intervals: 2, visitors: 0 },
        { intervals: 3, visitors: 1 },
        { intervals: 4, visitors: 0 },
        { intervals: 5, visitors: 0 },
      ],
    });
  });

  it("answers n or more days when cumulative", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, { ...spec, cumulative: true });
    expect(r.statusCode).toBe(200);
    expect(r.json().results).toEqual([
      { intervals: 1, visitors: 3 },
      { intervals: 2, visitors: 1 },
      { intervals: 3, visitors: 1 },
      { intervals: 4, visitors: 0 },
      { intervals: 5, visitors: 0 },
    ]);
  });

  it("counts only the events the event's filters keep", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, {
      ...spec,
      event: { event: "pageview", filters: "page==/pricing" },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().results).toEqual([
      { intervals: 1, visitors: 2 },
      { intervals: 2, visitors: 0 },
      { intervals: 3, visitors: 0 },
      { intervals: 4, visitors: 0 },
      { intervals: 5, visitors: 0 },
    ]);
  });

  it.each([
    [{ ...spec, interval: "hour" }, "interval"],
    [{ ...spec, event: { event: "" } }, "event"],
    [{ ...spec, event: { event: "pageview", filters: "nope==1" } }, "filters"],
    [{ ...spec, filters: "nope==1" }, "filters"],
    [{ ...spec, date: undefined }, "date"],
    [{ ...spec, cumulative: "yes" }, "cumulative"],
  ])("answers 400 naming the field for a bad spec %#", async (body, field) => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, body);
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json())).toContain(field);
    expect(r.json()).toHaveProperty("code");
  });

  it("refuses an actors call with a 400 on `at`", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/actors`, { spec, at: { intervals: 1 } });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain("at");
  });
});
