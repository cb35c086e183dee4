// The retention insight through the API (DESIGN.md §5): an unsaved spec's cohort grid with exact
// counts (peers.md §1.3's vector, first_time), 400s naming the field for bad specs and bad cells,
// and the visitors behind one cell from POST …/insights/actors, each a client id.
import { type EventRow, eventRow, type Role } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

describe("retention insights API", () => {
  let t: TestApp;
  let site: string;
  const tokens: Partial<Record<Role, string>> = {};
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    const u = await t.user("viewer@example.com");
    await t.meta.accounts.addMember(alice.accountId, u.id, "viewer");
    tokens.viewer = (await t.login(u.email, u.password)).token;
    const ev = (ts: string, v: string, o: Partial<EventRow> = {}): EventRow =>
      eventRow({ property: site, ts: new Date(ts), name: "pageview", path: "/", visitor_id: v, session_id: `${v}-${ts}`, ...o });
    // U1 active d0, d2; U2 active d1, d2 (peers.md §1.3), d0 = 4 March 2024 (UTC property).
    await t.events.append([
      ev("2024-03-04T10:00:00Z", "U1"),
      ev("2024-03-06T10:00:00Z", "U1"),
      ev("2024-03-05T10:00:00Z", "U2"),
      ev("2024-03-06T10:00:00Z", "U2"),
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
      headers: { authorization: `Bearer ${tokens.viewer}` },
      payload: payload as Record<string, unknown>,
    });
  const spec = {
    kind: "retention",
    period: "custom",
    date: "2024-03-04,2024-03-06",
    start_event: { event: "pageview" },
    return_event: { event: "pageview" },
    period_unit: "day",
    periods: 2,
  };

  it("answers the cohort grid with counts (n0 = size), every period complete", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, spec);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      kind: "retention",
      period_unit: "day",
      periods: 2,
      results: {
        cohorts: [
          { date: "2024-03-04", size: 1, values: [1, 0, 1], incomplete: false },
          { date: "2024-03-05", size: 1, values: [1, 1, 0], incomplete: false },
          { date: "2024-03-06", size: 0, values: [0, 0, 0], incomplete: false },
        ],
      },
    });
  });

  it.each([
    [{ ...spec, periods: 0 }, "periods"],
    [{ ...spec, periods: 13 }, "periods"],
    [{ ...spec, period_unit: "hour" }, "period_unit"],
    [{ ...spec, retention_type: "first_ever" }, "retention_type"],
    [{ ...spec, start_event: { event: "" } }, "start_event"],
    [{ ...spec, return_event: { event: "x", filters: "nope==1" } }, "return_event"],
  ])("answers 400 naming the field for a bad spec %#", async (body, field) => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, body);
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json())).toContain(field);
    expect(r.json()).toHaveProperty("code");
  });

  it("lists the visitors behind a cell, and refuses a malformed cell with a 400 on `at`", async () => {
    const url = `/api/v1/properties/${site}/insights/actors`;
    const r = await post(url, { spec, at: { cohort: "2024-03-04", period: 2 } });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ visitors: [{ client_id: "U1" }], has_more: false });
    const bad = await post(url, { spec, at: { cohort: "4 March", period: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("at.cohort");
  });
});
