// The lifecycle insight through the API (DESIGN.md §5): an unsaved spec's statuses per day with
// exact counts (peers.md §1.5's vector, dormant negative), 400s naming the field for bad specs, and
// the actors call refused with a 400 on `at` (lifecycle lists no visitors yet).
import { type EventRow, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

describe("lifecycle insights API", () => {
  let t: TestApp;
  let site: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    token = (await t.login(alice.email, alice.password)).token;
    const ev = (ts: string, v: string): EventRow =>
      eventRow({ property: site, ts: new Date(ts), name: "pageview", path: "/", visitor_id: v, session_id: `${v}-${ts}` });
    await t.events.append([ev("2024-03-04T10:00:00Z", "u"), ev("2024-03-05T10:00:00Z", "u"), ev("2024-03-07T10:00:00Z", "u")]);
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
    kind: "lifecycle",
    period: "custom",
    date: "2024-03-04,2024-03-08",
    interval: "day",
    event: { event: "pageview" },
  };

  it("answers new, returning, resurrecting and dormant (negative) per day", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, spec);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      kind: "lifecycle",
      interval: "day",
      results: [
        { date: "2024-03-04", new: 1, returning: 0, resurrecting: 0, dormant: 0 },
        { date: "2024-03-05", new: 0, returning: 1, resurrecting: 0, dormant: 0 },
        { date: "2024-03-06", new: 0, returning: 0, resurrecting: 0, dormant: -1 },
        { date: "2024-03-07", new: 0, returning: 0, resurrecting: 1, dormant: 0 },
        { date: "2024-03-08", new: 0, returning: 0, resurrecting: 0, dormant: -1 },
      ],
    });
  });

  it.each([
    [{ ...spec, interval: "hour" }, "interval"],
    [{ ...spec, event: { event: "" } }, "event"],
    [{ ...spec, filters: "nope==1" }, "filters"],
  ])("answers 400 naming the field for a bad spec %#", async (body, field) => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, body);
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json())).toContain(field);
    expect(r.json()).toHaveProperty("code");
  });

  it("refuses an actors call with a 400 on `at`", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/actors`, { spec, at: { date: "2024-03-04" } });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain("at");
  });
});
