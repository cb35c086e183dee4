// Issue #23 through the insights API on PGlite and PostgreSQL: a spec naming an event or a prop the
// property has never received is refused with 400 and the field's path (run, actors, save, change),
// for every kind's event fields and every place a prop is named (a filter, a breakdown, a math);
// the known ones run; a property with no events yet accepts any name.
import { type EventRow, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

describe.each<Backend>(["pglite", "postgres"])("insight specs checked against the property's names on %s", (backend) => {
  let t: TestApp;
  let site: string;
  let empty: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    empty = await t.property(alice.accountId, "https://new.test");
    token = (await t.login(alice.email, alice.password)).token;
    const ev = (ts: string, v: string, o: Partial<EventRow> = {}): EventRow =>
      eventRow({ property: site, ts: new Date(ts), name: "pageview", path: "/", visitor_id: v, session_id: `${v}-s`, ...o });
    await t.events.append([
      ev("2024-03-05T10:00:00Z", "v1", { path: "/pricing" }),
      ev("2024-03-05T10:02:00Z", "v1", { name: "signup", props: { plan: "pro", amount: "12" } }),
      ev("2024-03-06T10:00:00Z", "v2"),
      ev("2024-03-06T10:05:00Z", "v2", { name: "purchase", props: { amount: "30" } }),
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
  const query = (spec: unknown, on = site) => post(`/api/v1/properties/${on}/insights/query`, spec);
  const range = { period: "custom", date: "2024-03-05,2024-03-07" };
  const trends = { kind: "trends", ...range, series: [{ event: "pageview" }, { event: "signup" }] };
  const funnel = { kind: "funnel", ...range, steps: [{ event: "pageview" }, { event: "signup" }] };
  const retention = { kind: "retention", ...range, start_event: { event: "signup" }, return_event: { event: "purchase" } };

  /** A 400 in the shape of every spec error, its message starting with the path. */
  const refused = async (r: Awaited<ReturnType<typeof query>>, path: string, message: RegExp) => {
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body.code).toBe("invalid_request");
    expect(body.message.startsWith(`${path}: `)).toBe(true);
    expect(body.message).toMatch(message);
    expect(body.details[0]).toEqual({ path, message: body.message.slice(path.length + 2) });
  };

  it.each([
    [
      "a trends series",
      { ...trends, series: [{ event: "pageview" }, { event: "signupp" }] },
      "series.1.event",
      /no event "signupp" in this property; did you mean "signup"\?/,
    ],
    [
      "a funnel step",
      { ...funnel, steps: [{ event: "pageview" }, { event: "checkout" }] },
      "steps.1.event",
      /no event "checkout"/,
    ],
    [
      "a funnel exclusion",
      { ...funnel, exclusions: [{ event: "refund", between: [1, 2] }] },
      "exclusions.0.event",
      /no event "refund"/,
    ],
    ["a retention start", { ...retention, start_event: { event: "signin" } }, "start_event.event", /no event "signin"/],
    [
      "a retention return",
      { ...retention, return_event: { event: "purchased" } },
      "return_event.event",
      /did you mean "purchase"/,
    ],
    ["a stickiness event", { kind: "stickiness", ...range, event: { event: "login" } }, "event.event", /no event "login"/],
    ["a lifecycle event", { kind: "lifecycle", ...range, event: { event: "login" } }, "event.event", /no event "login"/],
    [
      "a paths start (custom events)",
      { kind: "paths", ...range, type: "event", start: "signupp" },
      "start",
      /no event "signupp"/,
    ],
    ["a paths end (both kinds)", { kind: "paths", ...range, type: "all", end: "logout" }, "end", /no event "logout"/],
  ])("refuses an unknown event in %s", async (_name, spec, path, message) => {
    await refused(await query(spec), path, message);
  });

  it.each([
    [
      "the spec's filters",
      { ...trends, filters: "prop:plann==pro" },
      "filters",
      /no prop "plann" in this property's events; did you mean "plan"\?/,
    ],
    [
      "a series' filters",
      { ...trends, series: [{ event: "signup", filters: "prop:tier==pro" }] },
      "series.0.filters",
      /no prop "tier"/,
    ],
    ["a breakdown", { ...trends, breakdown: "prop:tier" }, "breakdown", /no prop "tier"/],
    [
      "a math property",
      { ...trends, series: [{ event: "signup", math: "sum", math_property: "amt" }] },
      "series.0.math_property",
      /no prop "amt"/,
    ],
    [
      "a funnel step's filters",
      { ...funnel, steps: [{ event: "pageview" }, { event: "signup", filters: "prop:tier==a" }] },
      "steps.1.filters",
      /no prop "tier"/,
    ],
    ["a funnel breakdown", { ...funnel, breakdown: "prop:tier" }, "breakdown", /no prop "tier"/],
  ])("refuses an unknown prop in %s", async (_name, spec, path, message) => {
    await refused(await query(spec), path, message);
  });

  it("lists every unknown name in the details, the first in the message", async () => {
    const r = await query({ ...trends, series: [{ event: "a1" }, { event: "signup" }, { event: "b2" }], breakdown: "prop:c3" });
    expect(r.statusCode).toBe(400);
    expect(r.json().details.map((d: { path: string }) => d.path)).toEqual(["series.0.event", "series.2.event", "breakdown"]);
  });

  it("runs specs whose names the property knows (pageview, its events, its props, built-in dimensions, page paths)", async () => {
    for (const spec of [
      { ...trends, breakdown: "prop:plan", filters: "country==US" },
      { ...trends, series: [{ event: "purchase", math: "sum", math_property: "amount", filters: "prop:amount!=0" }] },
      { ...funnel, breakdown: "browser", exclusions: [{ event: "purchase", between: [1, 2] }] },
      retention,
      { kind: "stickiness", ...range, event: { event: "signup" } },
      { kind: "lifecycle", ...range, event: { event: "pageview" } },
      { kind: "paths", ...range, type: "event", start: "signup" },
      { kind: "paths", ...range, type: "all", start: "/pricing", end: "signup" },
      // A page path is not an event name: never refused.
      { kind: "paths", ...range, type: "pageview", start: "/never-seen" },
    ]) {
      const r = await query(spec);
      expect(r.statusCode, JSON.stringify(spec)).toBe(200);
    }
  });

  it("accepts any name on a property with no events yet (a funnel built before the traffic)", async () => {
    const r = await query({ ...funnel, steps: [{ event: "pageview" }, { event: "signup", filters: "prop:plan==pro" }] }, empty);
    expect(r.statusCode).toBe(200);
    expect(r.json().results.steps[0].visitors).toBe(0);
  });

  it("checks the visitors call, saving and changing an insight, naming the field in the body", async () => {
    const badFunnel = { ...funnel, steps: [{ event: "pageview" }, { event: "checkout" }] };
    await refused(
      await post(`/api/v1/properties/${site}/insights/actors`, { spec: badFunnel, at: { step: 2, status: "converted" } }),
      "spec.steps.1.event",
      /no event "checkout"/,
    );
    const url = `/api/v1/properties/${site}/insights`;
    await refused(await post(url, { name: "Checkout", spec: badFunnel }), "spec.steps.1.event", /no event "checkout"/);
    const saved = await post(url, { name: "Signups", spec: funnel });
    expect(saved.statusCode).toBe(201);
    const patch = (payload: unknown) =>
      t.app.inject({
        method: "PATCH",
        url: `/api/v1/insights/${saved.json().short_id}`,
        headers: { authorization: `Bearer ${token}` },
        payload: payload as Record<string, unknown>,
      });
    await refused(await patch({ spec: { ...funnel, breakdown: "prop:tier" } }), "spec.breakdown", /no prop "tier"/);
    expect((await patch({ name: "Renamed" })).statusCode).toBe(200);
  });
});
