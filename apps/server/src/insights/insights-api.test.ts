// Insights (DESIGN.md §5) on PGlite and PostgreSQL: run an unsaved trends spec (exact numbers on
// hand-built events, a formula over two series), save, list, read, change and soft-delete one,
// bad input (400 naming the field, never a 500), each role against the matrix (read: every member;
// write: editor and up), and another account's property and insight ids answering 404.
import { type EventRow, eventRow, type Role } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

describe.each<Backend>(["pglite", "postgres"])("insights API on %s", (backend) => {
  let t: TestApp;
  let site: string;
  let bobSite: string;
  const tokens: Partial<Record<Role | "bob", string>> = {};
  beforeAll(async () => {
    t = await createTestApp(backend);
    const alice = await t.user("alice@example.com");
    const bob = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    bobSite = await t.property(bob.accountId, "https://bob.test");
    tokens.owner = (await t.login(alice.email, alice.password)).token;
    tokens.bob = (await t.login(bob.email, bob.password)).token;
    for (const role of ["viewer", "editor"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
    }
    const ev = (ts: string, v: string, o: Partial<EventRow> = {}): EventRow =>
      eventRow({ property: site, ts: new Date(ts), name: "pageview", path: "/", visitor_id: v, session_id: `${v}-s`, ...o });
    await t.events.append([
      ev("2024-03-05T10:00:00Z", "v1"),
      ev("2024-03-05T10:01:00Z", "v1", { path: "/pricing" }),
      ev("2024-03-05T10:02:00Z", "v1", { name: "signup", country: "US" }),
      ev("2024-03-06T10:00:00Z", "v2", { country: "DE" }),
      ev("2024-03-06T10:05:00Z", "v2", { name: "signup", country: "DE" }),
      ev("2024-03-07T10:00:00Z", "v3", { country: "DE" }),
    ]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    who: keyof typeof tokens = "owner",
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[who]}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const spec = {
    kind: "trends",
    period: "custom",
    date: "2024-03-05,2024-03-07",
    interval: "day",
    series: [{ event: "pageview", math: "unique_visitors" }, { event: "signup" }],
    formula: "B/A*100",
  };

  it("runs an unsaved trends spec with a formula: exact numbers per day and in total", async () => {
    const r = await call("POST", `/api/v1/properties/${site}/insights/query`, "viewer", spec);
    expect(r.statusCode).toBe(200);
    expect(r.json().results).toEqual([
      {
        series: "formula",
        series_index: null,
        total: (2 / 3) * 100,
        data: [
          { date: "2024-03-05", value: 100 },
          { date: "2024-03-06", value: 100 },
          { date: "2024-03-07", value: 0 },
        ],
      },
    ]);
    const both = await call("POST", `/api/v1/properties/${site}/insights/query`, "viewer", {
      ...spec,
      formula: undefined,
      breakdown: "country",
    });
    expect(both.statusCode).toBe(200);
    const rows = both
      .json()
      .results.map((x: { series: string; breakdown_value: string; total: number }) => [x.series, x.breakdown_value, x.total]);
    // Breakdown values sorted, "$other" last; a value without any event in any series is left out.
    expect(rows).toEqual([
      ["A: pageview", "", 1],
      ["B: signup", "", 0],
      ["A: pageview", "DE", 2],
      ["B: signup", "DE", 1],
      ["A: pageview", "US", 0],
      ["B: signup", "US", 1],
    ]);
  });

  it("compares with the previous period: earlier values per point, totals and their change", async () => {
    // 6–7 March against the two days before (4–5 March): v1's visit on the 5th is the earlier period.
    const body = { ...spec, date: "2024-03-06,2024-03-07", formula: undefined, comparison: "previous_period" };
    const r = await call("POST", `/api/v1/properties/${site}/insights/query`, "viewer", body);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      kind: "trends",
      comparison: { type: "previous_period", first_day: "2024-03-04", last_day: "2024-03-05" },
      results: [
        {
          series: "A: pageview",
          series_index: 0,
          total: 2,
          data: [
            { date: "2024-03-06", value: 1 },
            { date: "2024-03-07", value: 1 },
          ],
          comparison: {
            total: 1,
            change: 100,
            data: [
              { date: "2024-03-04", value: 0 },
              { date: "2024-03-05", value: 1 },
            ],
          },
        },
        {
          series: "B: signup",
          series_index: 1,
          total: 1,
          data: [
            { date: "2024-03-06", value: 1 },
            { date: "2024-03-07", value: 0 },
          ],
          comparison: {
            total: 1,
            change: 0,
            data: [
              { date: "2024-03-04", value: 0 },
              { date: "2024-03-05", value: 1 },
            ],
          },
        },
      ],
    });
    // The formula over the earlier values: 1 signup per 2 visitors now, 1 per 1 before.
    const f = await call("POST", `/api/v1/properties/${site}/insights/query`, "viewer", { ...body, formula: "B/A*100" });
    expect(f.json().results).toEqual([
      {
        series: "formula",
        series_index: null,
        total: 50,
        data: [
          { date: "2024-03-06", value: 100 },
          { date: "2024-03-07", value: 0 },
        ],
        comparison: {
          total: 100,
          change: -50,
          data: [
            { date: "2024-03-04", value: null },
            { date: "2024-03-05", value: 100 },
          ],
        },
      },
    ]);
    // A year earlier there is nothing: counts are 0, the change has no base.
    const y = await call("POST", `/api/v1/properties/${site}/insights/query`, "viewer", {
      ...body,
      comparison: "year_over_year",
    });
    expect(y.json().comparison).toEqual({ type: "year_over_year", first_day: "2023-03-06", last_day: "2023-03-07" });
    expect(y.json().results[0].comparison).toEqual({
      total: 0,
      change: null,
      data: [
        { date: "2023-03-06", value: 0 },
        { date: "2023-03-07", value: 0 },
      ],
    });
  });

  it.each([
    [{ ...spec, period: "all_time", comparison: "previous_period" }, "comparison"],
    [{ ...spec, comparison: "last_week" }, "comparison"],
    [{ ...spec, series: [] }, "series"],
    [{ ...spec, formula: "A/C" }, "formula"],
    [{ ...spec, formula: "process.exit()" }, "formula"],
    [{ ...spec, series: [{ event: "x", math: "sum" }] }, "series"],
    [{ ...spec, filters: "nope==1" }, "filters"],
    [{ ...spec, breakdown: "entry_page" }, "dimension"],
    [{ ...spec, period: "custom", date: "2024-02-30,2024-03-01" }, "date"],
  ])("answers 400 for bad input %#", async (body, field) => {
    const r = await call("POST", `/api/v1/properties/${site}/insights/query`, "viewer", body);
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json())).toContain(field);
    expect(r.json()).toHaveProperty("code");
  });

  it("saves, lists, reads, changes and soft-deletes an insight; roles and foreign ids as the matrix says", async () => {
    const url = `/api/v1/properties/${site}/insights`;
    expect((await call("POST", url, "viewer", { name: "Signups", spec })).statusCode).toBe(404);
    const created = await call("POST", url, "editor", { name: "Signups", spec, tags: ["growth"] });
    expect(created.statusCode).toBe(201);
    const insight = created.json();
    expect(insight).toMatchObject({ name: "Signups", kind: "trends", favourite: false, tags: ["growth"] });
    expect(insight.short_id).toMatch(/^[A-Za-z0-9]{8}$/);

    const list = await call("GET", url, "viewer");
    expect(list.json().results.map((x: { short_id: string }) => x.short_id)).toEqual([insight.short_id]);
    const one = `/api/v1/insights/${insight.short_id}`;
    expect((await call("GET", one, "viewer")).json()).toMatchObject({ name: "Signups" });
    const result = await call("GET", `${one}/result`, "viewer");
    expect(result.json().results[0].total).toBeCloseTo(66.667, 2);

    expect((await call("PATCH", one, "viewer", { favourite: true })).statusCode).toBe(404);
    const patched = await call("PATCH", one, "editor", { favourite: true, name: "Signup rate" });
    expect(patched.json()).toMatchObject({ favourite: true, name: "Signup rate" });
    expect((await call("PATCH", one, "editor", {})).statusCode).toBe(400);

    // Another account: the property and the insight are not found, like unknown ids.
    expect((await call("GET", one, "bob")).statusCode).toBe(404);
    expect((await call("GET", `/api/v1/insights/AAAAAAAA`, "bob")).statusCode).toBe(404);
    expect((await call("GET", `/api/v1/insights/bad`, "owner")).statusCode).toBe(400);
    expect((await call("DELETE", one, "bob")).statusCode).toBe(404);
    expect((await call("GET", url, "bob")).statusCode).toBe(404);
    expect((await call("GET", `/api/v1/properties/${bobSite}/insights`, "owner")).statusCode).toBe(404);

    expect((await call("DELETE", one, "viewer")).statusCode).toBe(404);
    expect((await call("DELETE", one, "editor")).statusCode).toBe(204);
    expect((await call("GET", one, "owner")).statusCode).toBe(404);
    expect((await call("GET", url)).json().results).toEqual([]);
    const audit = await t.meta.audit.list({ limit: 20 });
    expect(audit.filter((a) => a.action === "insight.delete")).toHaveLength(1);
  });
});
