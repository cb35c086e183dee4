// The EventStore conformance suite (DESIGN.md §1): every adapter (DuckDB embedded, ClickHouse
// scale-out) runs exactly these tests against a real engine. `open` returns a fresh, migrated,
// empty store; each test works on properties of its own, so one store serves the whole suite.
import type { Dimension, EventRow, QuerySpecInput } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "./event-store.js";
import { at, event, profile } from "./fixtures.js";
import { type AggregateResult, type BreakdownRow, runStats, type TimeseriesPoint } from "./stats.js";

const CTX = { timezone: "UTC", now: at("2024-05-10 12:00:00") };

export function eventStoreConformance(name: string, open: () => Promise<EventStore>): void {
  describe(`EventStore conformance: ${name}`, () => {
    let store: EventStore;
    let n = 0;
    /** A property no other test uses. */
    const prop = (label: string) => `conf-${label}-${++n}`;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    const aggregate = async (property: string, metrics: QuerySpecInput["metrics"] = ["visitors", "visits", "pageviews"]) =>
      (await runStats(store, { kind: "aggregate", property, metrics }, CTX)) as AggregateResult;
    const values = (r: AggregateResult) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v?.value]));

    it("migrate() is idempotent and keeps data", async () => {
      const p = prop("migrate");
      await store.append([event({ property: p, ts: at("2024-05-09 10:00:00") })]);
      await store.migrate();
      await store.migrate();
      await store.sync();
      expect(await store.events(p)).toHaveLength(1);
      expect(values(await aggregate(p))).toEqual({ visitors: 1, visits: 1, pageviews: 1 });
    });

    it("append() resolves, then after sync() events() and stats see every row", async () => {
      const p = prop("append");
      await store.append([
        event({ property: p, ts: at("2024-05-09 10:00:00"), visitor_id: "a", session_id: "a1" }),
        event({ property: p, ts: at("2024-05-09 10:01:00"), visitor_id: "a", session_id: "a1", path: "/x" }),
        event({ property: p, ts: at("2024-05-09 11:00:00"), visitor_id: "b", session_id: "b1" }),
      ]);
      expect(await store.events(p)).toHaveLength(3);
      await store.sync();
      expect(values(await aggregate(p))).toEqual({ visitors: 2, visits: 2, pageviews: 3 });
      await store.append([event({ property: p, ts: at("2024-05-09 12:00:00"), visitor_id: "c", session_id: "c1" })]);
      await store.sync();
      expect(values(await aggregate(p))).toEqual({ visitors: 3, visits: 3, pageviews: 4 });
    });

    it("append() of nothing resolves and changes nothing", async () => {
      const p = prop("empty");
      await store.append([]);
      await store.sync();
      expect(await store.events(p)).toEqual([]);
      expect(values(await aggregate(p))).toEqual({ visitors: 0, visits: 0, pageviews: 0 });
    });

    it("a failing append() rejects and stores nothing of its batch", async () => {
      const p = prop("atomic");
      const good = event({ property: p, ts: at("2024-05-09 10:00:00") });
      const bad = event({ property: p, ts: new Date(Number.NaN) });
      await expect(store.append([good, good, bad])).rejects.toThrow();
      await store.sync();
      expect(await store.events(p)).toEqual([]);
      expect(values(await aggregate(p))).toEqual({ visitors: 0, visits: 0, pageviews: 0 });
      // The store stays usable.
      await store.append([good]);
      await store.sync();
      expect(await store.events(p)).toHaveLength(1);
    });

    it("concurrent appends all land, and sync() covers all of them", async () => {
      const p = prop("concurrent");
      const batches = Array.from({ length: 12 }, (_, i) =>
        Array.from({ length: 5 }, (_, j) =>
          event({
            property: p,
            ts: new Date(at("2024-05-09 08:00:00").getTime() + (i * 5 + j) * 60_000),
            visitor_id: `v${(i % 6) % 4}`, // a visit belongs to one visitor
            session_id: `s${i % 6}`,
          }),
        ),
      );
      await Promise.all(batches.map((b) => store.append(b)));
      await store.sync();
      expect(await store.events(p, { limit: 100 })).toHaveLength(60);
      expect(values(await aggregate(p))).toEqual({ visitors: 4, visits: 6, pageviews: 60 });
    });

    it("round-trips every column", async () => {
      const p = prop("columns");
      const full = event({
        property: p,
        ts: new Date("2024-05-09T10:00:00.123Z"),
        name: "purchase",
        visitor_id: "vid",
        session_id: "sid",
        client_id: "cid",
        hostname: "shop.example",
        path: "/checkout",
        url: "https://shop.example/checkout",
        title: "Checkout — ünïcode ✓",
        referrer: "https://www.google.com/",
        referrer_source: "Google",
        channel: "search",
        utm_source: "a",
        utm_medium: "b",
        utm_campaign: "c",
        utm_term: "d",
        utm_content: "e",
        country: "DE",
        region: "Berlin",
        city: "Berlin",
        browser: "Firefox",
        browser_version: "125",
        os: "GNU/Linux",
        os_version: "",
        device: "desktop",
        screen: "laptop",
        language: "de",
        props: { plan: "pro", "key with space": "v'\"" },
        revenue: 49.5,
        revenue_currency: "EUR",
        engaged_ms: 1234,
      });
      await store.append([full]);
      expect(await store.events(p)).toEqual([full]);
    });

    it("events(): time order, newestFirst, limit, clientId, from (inclusive) and to (exclusive)", async () => {
      const p = prop("events");
      const other = prop("events-other");
      const t = (m: number) => new Date(at("2024-05-09 10:00:00").getTime() + m * 60_000);
      // Appended out of order, in two batches.
      await store.append([
        event({ property: p, ts: t(3), client_id: "c1", path: "/3" }),
        event({ property: p, ts: t(1), client_id: "c2", path: "/1" }),
      ]);
      await store.append([
        event({ property: p, ts: t(2), client_id: "c1", path: "/2" }),
        event({ property: p, ts: t(0), client_id: "c1", path: "/0" }),
        event({ property: other, ts: t(1), client_id: "c1", path: "/other" }),
      ]);
      const paths = (rows: EventRow[]) => rows.map((r) => r.path);
      expect(paths(await store.events(p))).toEqual(["/0", "/1", "/2", "/3"]);
      expect(paths(await store.events(p, { newestFirst: true }))).toEqual(["/3", "/2", "/1", "/0"]);
      expect(paths(await store.events(p, { limit: 2 }))).toEqual(["/0", "/1"]);
      expect(paths(await store.events(p, { newestFirst: true, limit: 1 }))).toEqual(["/3"]);
      expect(paths(await store.events(p, { clientId: "c1" }))).toEqual(["/0", "/2", "/3"]);
      expect(paths(await store.events(p, { clientId: "nobody" }))).toEqual([]);
      expect(paths(await store.events(p, { from: t(1), to: t(3) }))).toEqual(["/1", "/2"]);
      expect(paths(await store.events(other))).toEqual(["/other"]);
      expect(await store.events(prop("events-none"))).toEqual([]);
    });

    it("events() returns at most 10 000 rows", async () => {
      const p = prop("events-cap");
      const t0 = at("2024-05-01 00:00:00").getTime();
      await store.append(Array.from({ length: 10_005 }, (_, i) => event({ property: p, ts: new Date(t0 + i * 1000) })));
      expect(await store.events(p, { limit: 50_000 })).toHaveLength(10_000);
      expect(await store.events(p, { limit: 0 })).toHaveLength(1);
    });

    it("upsertVisitors(): earliest first_seen, latest last_seen, non-empty fields replace, traits merge", async () => {
      const p = prop("visitors");
      expect(await store.visitor(p, "c1")).toBeNull();
      await store.upsertVisitors([
        profile({
          property: p,
          client_id: "c1",
          email: "a@example.com",
          name: "Ann",
          traits: { plan: "free", team: "x" },
          first_seen: at("2024-05-02 00:00:00"),
          last_seen: at("2024-05-03 00:00:00"),
        }),
      ]);
      await store.upsertVisitors([
        profile({
          property: p,
          client_id: "c1",
          email: "",
          name: "Ann B.",
          traits: { plan: "pro", seats: "3" },
          first_seen: at("2024-05-01 00:00:00"),
          last_seen: at("2024-05-02 12:00:00"),
        }),
      ]);
      expect(await store.visitor(p, "c1")).toEqual({
        property: p,
        client_id: "c1",
        email: "a@example.com", // an empty email keeps the stored one
        name: "Ann B.",
        traits: { plan: "pro", team: "x", seats: "3" },
        first_seen: at("2024-05-01 00:00:00"),
        last_seen: at("2024-05-03 00:00:00"),
      });
    });

    it("upsertVisitors(): several profiles of one visitor in a batch apply in order", async () => {
      const p = prop("visitors-batch");
      await store.upsertVisitors([
        profile({
          property: p,
          client_id: "c",
          email: "1@x.test",
          traits: { k: "1", a: "a" },
          last_seen: at("2024-05-05 00:00:00"),
        }),
        profile({ property: p, client_id: "other", name: "Other" }),
        profile({ property: p, client_id: "c", name: "Second", traits: { k: "2" }, first_seen: at("2024-04-01 00:00:00") }),
        profile({ property: p, client_id: "c", email: "3@x.test", traits: { k: "3", b: "b" } }),
      ]);
      expect(await store.visitor(p, "c")).toEqual({
        property: p,
        client_id: "c",
        email: "3@x.test",
        name: "Second",
        traits: { k: "3", a: "a", b: "b" },
        first_seen: at("2024-04-01 00:00:00"),
        last_seen: at("2024-05-05 00:00:00"),
      });
      expect((await store.visitor(p, "other"))?.name).toBe("Other");
      // Profiles are per property.
      expect(await store.visitor(prop("visitors-elsewhere"), "c")).toBeNull();
    });

    it("recentSessions(): each visitor's latest session since the cut-off", async () => {
      const p = prop("recent");
      const q = prop("recent-other");
      await store.append([
        event({ property: p, ts: at("2024-05-09 09:00:00"), visitor_id: "a", session_id: "a-old" }),
        event({ property: p, ts: at("2024-05-09 11:00:00"), visitor_id: "a", session_id: "a-new" }),
        event({ property: p, ts: at("2024-05-09 11:05:00"), visitor_id: "a", session_id: "a-new" }),
        event({ property: p, ts: at("2024-05-09 08:00:00"), visitor_id: "b", session_id: "b-gone" }),
        event({ property: q, ts: at("2024-05-09 10:30:00"), visitor_id: "a", session_id: "qa" }),
      ]);
      await store.sync();
      const since = at("2024-05-09 08:30:00");
      const mine = (await store.recentSessions(since))
        .filter((s) => s.property === p || s.property === q)
        .map((s) => ({ ...s, last_ts: new Date(s.last_ts).toISOString() }))
        .sort((x, y) => x.property.localeCompare(y.property));
      expect(mine).toEqual([
        { property: p, visitor_id: "a", session_id: "a-new", last_ts: "2024-05-09T11:05:00.000Z" },
        { property: q, visitor_id: "a", session_id: "qa", last_ts: "2024-05-09T10:30:00.000Z" },
      ]);
    });

    it("deleteProperty() removes one property's events, profiles and stats, and nothing else", async () => {
      const a = prop("delete-a");
      const b = prop("delete-b");
      const rows = (p: string) => [
        event({ property: p, ts: at("2024-05-09 10:00:00"), visitor_id: "v", session_id: "s" }),
        event({ property: p, ts: at("2024-05-09 10:01:00"), visitor_id: "v", session_id: "s", name: "signup" }),
      ];
      await store.append([...rows(a), ...rows(b)]);
      await store.upsertVisitors([profile({ property: a, client_id: "c" }), profile({ property: b, client_id: "c" })]);
      await store.sync();
      await store.deleteProperty(a);
      await store.sync();
      expect(await store.events(a)).toEqual([]);
      expect(await store.visitor(a, "c")).toBeNull();
      expect(values(await aggregate(a, ["visitors", "visits", "pageviews", "events"]))).toEqual({
        visitors: 0,
        visits: 0,
        pageviews: 0,
        events: 0,
      });
      expect(await runStats(store, { kind: "breakdown", property: a, dimensions: ["event_name"] }, CTX)).toEqual([]);
      expect(await store.events(b)).toHaveLength(2);
      expect(await store.visitor(b, "c")).not.toBeNull();
      expect(values(await aggregate(b, ["visitors", "visits", "pageviews", "events"]))).toEqual({
        visitors: 1,
        visits: 1,
        pageviews: 1,
        events: 1,
      });
      // The property can receive data again, and only the new data counts.
      await store.append([event({ property: a, ts: at("2024-05-09 11:00:00"), visitor_id: "v", session_id: "s2" })]);
      await store.sync();
      expect(values(await aggregate(a))).toEqual({ visitors: 1, visits: 1, pageviews: 1 });
    });

    it("deleteVisitor() removes one client id's events and profile from every statistic, and nothing else", async () => {
      const a = prop("delvis");
      const ev = (v: string, s: string, t: string, over: Partial<EventRow> = {}) =>
        event({ property: a, ts: at(t), visitor_id: v, client_id: v, session_id: s, ...over });
      await store.append([
        ev("gone", "g1", "2024-05-09 10:00:00"),
        ev("gone", "g1", "2024-05-09 10:01:00", { name: "signup" }),
        ev("gone", "g2", "2024-05-09 12:00:00", { path: "/x" }),
        ev("stays", "s1", "2024-05-09 10:00:30"),
        ev("stays", "s1", "2024-05-09 10:02:00", { name: "signup" }),
      ]);
      await store.upsertVisitors([
        profile({ property: a, client_id: "gone", email: "g@example.com" }),
        profile({ property: a, client_id: "stays" }),
      ]);
      await store.sync();
      const metrics: QuerySpecInput["metrics"] = ["visitors", "visits", "pageviews", "events"];
      expect(values(await aggregate(a, metrics))).toEqual({ visitors: 2, visits: 3, pageviews: 3, events: 2 });
      expect(await store.deleteVisitor(a, "gone")).toBe(3);
      await store.sync();
      expect(await store.events(a, { clientId: "gone" })).toEqual([]);
      expect(await store.visitor(a, "gone")).toBeNull();
      expect(await store.visitor(a, "stays")).not.toBeNull();
      expect(values(await aggregate(a, metrics))).toEqual({ visitors: 1, visits: 1, pageviews: 1, events: 1 });
      const pages = (await runStats(
        store,
        { kind: "breakdown", property: a, dimensions: ["page"], metrics: ["visitors"] },
        CTX,
      )) as BreakdownRow[];
      expect(pages.map((r) => r.page)).toEqual(["/"]);
      expect(await store.deleteVisitor(a, "nobody")).toBe(0);
    });

    it("one property's data never shows in another's stats, even with the same visitor and visit ids", async () => {
      const a = prop("iso-a");
      const b = prop("iso-b");
      const visit = (p: string, path: string, extra: Partial<EventRow> = {}) => [
        event({ property: p, ts: at("2024-05-09 10:00:00"), visitor_id: "same", session_id: "same", path, ...extra }),
        event({
          property: p,
          ts: at("2024-05-09 10:02:00"),
          visitor_id: "same",
          session_id: "same",
          path,
          name: "engagement",
          engaged_ms: 5000,
          ...extra,
        }),
      ];
      await store.append([
        ...visit(a, "/a", { country: "DE" }),
        ...visit(a, "/a2", { country: "DE" }),
        event({
          property: a,
          ts: at("2024-05-09 10:05:00"),
          visitor_id: "same",
          session_id: "same",
          name: "signup",
          props: { plan: "a" },
        }),
        ...visit(b, "/b", { country: "FR" }),
      ]);
      await store.sync();
      const all = ["visitors", "visits", "pageviews", "bounce_rate", "visit_duration", "events", "time_on_page"] as const;
      expect(values(await aggregate(b, [...all]))).toEqual({
        visitors: 1,
        visits: 1,
        pageviews: 1,
        bounce_rate: 100,
        visit_duration: 120,
        events: 0,
        time_on_page: 5,
      });
      const breakdown = async (dimension: Dimension) =>
        (await runStats(
          store,
          { kind: "breakdown", property: b, dimensions: [dimension], metrics: ["visitors"] },
          CTX,
        )) as BreakdownRow[];
      expect(await breakdown("page")).toEqual([{ page: "/b", visitors: 1 }]);
      expect(await breakdown("country")).toEqual([{ country: "FR", visitors: 1 }]);
      expect(await breakdown("event_name")).toEqual([]);
      expect(await breakdown("prop:plan")).toEqual([]);
      const chart = (await runStats(
        store,
        { kind: "timeseries", property: b, interval: "day", metrics: ["pageviews"] },
        CTX,
      )) as TimeseriesPoint[];
      expect(chart.reduce((s, x) => s + (x.pageviews ?? 0), 0)).toBe(1);
      // And the other way round.
      expect(values(await aggregate(a, ["visitors", "visits", "pageviews", "events"]))).toEqual({
        visitors: 1,
        visits: 1,
        pageviews: 2,
        events: 1,
      });
    });

    it("query() returns plain JS values", async () => {
      const p = prop("plain");
      await store.append([event({ property: p, ts: at("2024-05-09 10:00:00") })]);
      await store.sync();
      const r = await aggregate(p, ["visitors"]);
      expect(typeof r.visitors?.value).toBe("number");
    });
  });
}
