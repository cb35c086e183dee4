// The funnel kind through the insights API (DESIGN.md §5) on PGlite: an unsaved funnel's exact
// answer on hand-built events, bad specs answered 400 with field-level messages (never a 500),
// the visitors behind a step (POST …/insights/actors) with their /customers links' client ids,
// a bad selector refused, and another account's property answering 404.
import { type EventRow, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

describe("funnel insights API", () => {
  let t: TestApp;
  let site: string;
  let bobSite: string;
  let token: string;
  let bobToken: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const alice = await t.user("alice@example.com");
    const bob = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    bobSite = await t.property(bob.accountId, "https://bob.test");
    token = (await t.login(alice.email, alice.password)).token;
    bobToken = (await t.login(bob.email, bob.password)).token;
    const ev = (ts: string, v: string, o: Partial<EventRow> = {}): EventRow =>
      eventRow({
        property: site,
        ts: new Date(ts),
        name: "pageview",
        path: "/",
        visitor_id: v,
        client_id: `c-${v}`,
        session_id: `${v}-s`,
        ...o,
      });
    await t.events.append([
      ev("2024-03-05T10:00:00Z", "v1", { path: "/pricing" }),
      ev("2024-03-05T10:02:00Z", "v1", { name: "signup" }),
      ev("2024-03-06T10:00:00Z", "v2", { path: "/pricing" }),
      ev("2024-03-06T10:05:00Z", "v2", { name: "signup" }),
      ev("2024-03-07T10:00:00Z", "v3", { path: "/pricing" }),
      ev("2024-03-07T10:00:00Z", "v4", { path: "/" }),
    ]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: unknown, who = token) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${who}` },
      payload: payload as Record<string, unknown>,
    });
  const spec = {
    kind: "funnel",
    period: "custom",
    date: "2024-03-05,2024-03-07",
    interval: "day",
    steps: [{ event: "pageview", filters: "page==/pricing" }, { event: "signup" }],
  };

  it("answers an unsaved funnel: visitors, conversions, drop-off, times, over time", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, spec);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.kind).toBe("funnel");
    expect(body.results.steps).toEqual([
      {
        step: 1,
        label: "1: pageview",
        visitors: 3,
        conversion: 100,
        conversion_from_previous: 100,
        dropped: 0,
        median_seconds: null,
        average_seconds: null,
      },
      {
        step: 2,
        label: "2: signup",
        visitors: 2,
        conversion: (2 / 3) * 100,
        conversion_from_previous: (2 / 3) * 100,
        dropped: 1,
        median_seconds: 210,
        average_seconds: 210,
      },
    ]);
    expect(body.results.over_time.map((b: { converted: number }) => b.converted)).toEqual([1, 1, 0]);
  });

  it("refuses bad specs with 400 and field-level messages", async () => {
    const bad = async (s: Record<string, unknown>, path: string, message: RegExp) => {
      const r = await post(`/api/v1/properties/${site}/insights/query`, { ...spec, ...s });
      expect(r.statusCode).toBe(400);
      const text = JSON.stringify(r.json());
      expect(text).toContain(path);
      expect(text).toMatch(message);
      expect(r.json().code).toBeTypeOf("string");
    };
    await bad({ steps: [{ event: "a" }] }, "steps", /at least 2 steps/);
    await bad({ steps: Array.from({ length: 21 }, () => ({ event: "a" })) }, "steps", /at most 20 steps/);
    await bad({ window: { value: 0, unit: "day" } }, "window", /at least 1/);
    await bad({ window: { value: 13, unit: "month" } }, "window", /\d+ days/);
    await bad({ exclusions: [{ event: "x", between: [2, 2] }] }, "between", /a < b/);
    await bad({ order: "any", exclusions: [{ event: "x", between: [1, 2] }] }, "exclusions", /any-order/);
    await bad({ order: "sideways" }, "order", /./);
  });

  it("lists the visitors behind a step: converted and dropped, paged by client id", async () => {
    const actors = (at: unknown, extra: Record<string, unknown> = {}) =>
      post(`/api/v1/properties/${site}/insights/actors`, { spec, at, ...extra });
    const dropped = await actors({ step: 2, status: "dropped" });
    expect(dropped.statusCode).toBe(200);
    expect(dropped.json().visitors.map((v: { client_id: string }) => v.client_id)).toEqual(["c-v3"]);
    const converted = await actors({ step: 2, status: "converted" }, { limit: 1 });
    expect(converted.json()).toMatchObject({ visitors: [{ client_id: "c-v1" }], has_more: true });
    const page2 = await actors({ step: 2, status: "converted" }, { limit: 1, offset: 1 });
    expect(page2.json()).toMatchObject({ visitors: [{ client_id: "c-v2" }], has_more: false });
    expect((await actors({ step: 0, status: "converted" })).statusCode).toBe(400);
    expect((await actors({ step: 1, status: "lost" })).statusCode).toBe(400);
  });

  it("answers 404 for another account's property", async () => {
    expect((await post(`/api/v1/properties/${bobSite}/insights/query`, spec)).statusCode).toBe(404);
    expect(
      (await post(`/api/v1/properties/${site}/insights/actors`, { spec, at: { step: 1, status: "converted" } }, bobToken))
        .statusCode,
    ).toBe(404);
  });
});
