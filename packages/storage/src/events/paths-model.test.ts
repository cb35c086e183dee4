// runPaths on every event engine (DuckDB, ClickHouse) against a plain-TypeScript model of
// DESIGN.md §4 Paths on random small traffic (visits of a few visitors with repeats, ties in time,
// custom events and filters, a range crossing a DST change), and exact numbers on hand-built
// visits, each test naming the rule it pins. The visitors behind a node go through
// runInsightActors, as the API calls it.
import { midnightAtOrBefore } from "@lookout/query";
import { type EventRow, type PathsAnswer, type PathsSpecInput, PathsSpecSchema } from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventReader } from "./event-store.js";
import { at, event } from "./fixtures.js";
import { runInsightActors } from "./insights.js";
import { runPaths } from "./paths.js";
import { type TestStore, testEngines } from "./test-engines.js";

const TZ = "America/New_York";
const DAY = 86_400_000;
const T0 = Date.parse("2024-03-06T05:00:00Z");
const NOW = new Date(T0 + 20 * DAY);
/** 2024-03-07..2024-03-10 local: the last day is 23 hours long (DST starts 10 March). */
const FROM = Date.parse("2024-03-07T05:00:00Z");
const TO = Date.parse("2024-03-11T04:00:00Z");
const CUSTOM = new Set(["signup", "purchase"]);

/** The model: DESIGN.md §4 read literally, from the events in memory. */
function model(events: EventRow[], input: PathsSpecInput): PathsAnswer {
  const spec = PathsSpecSchema.parse(input);
  const isItem = (e: EventRow) =>
    spec.type === "pageview"
      ? e.name === "pageview"
      : spec.type === "event"
        ? CUSTOM.has(e.name)
        : e.name === "pageview" || CUSTOM.has(e.name);
  const countryOk = (e: EventRow) => !spec.filters || e.country !== "FR"; // the one filter the random specs use: country!=FR
  const visits = new Map<string, { visitor: string; evs: { t: number; item: string }[] }>();
  for (const e of events) {
    const t = e.ts.getTime();
    if (t < FROM || t >= TO || !isItem(e) || !countryOk(e)) continue;
    const item = e.name === "pageview" ? e.path : e.name;
    const visit = visits.get(e.session_id) ?? { visitor: e.visitor_id, evs: [] };
    visit.evs.push({ t, item });
    visits.set(e.session_id, visit);
  }
  const edgeVisitors = new Map<string, Set<string>>();
  const nodeVisitors = new Map<string, Set<string>>();
  let paths = 0;
  for (const { visitor, evs } of visits.values()) {
    evs.sort((a, b) => a.t - b.t || (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
    const seq = evs.map((x) => x.item).filter((x, i, all) => i === 0 || all[i - 1] !== x);
    let path: string[] | null = seq;
    const s = spec.start ? seq.indexOf(spec.start) : 0;
    if (s < 0) path = null;
    else if (spec.end) {
      const e = seq.indexOf(spec.end, s);
      if (e < 0 || (spec.start && e - s + 1 > spec.steps)) path = null;
      else path = seq.slice(Math.max(s, e + 1 - spec.steps), e + 1);
    } else path = seq.slice(s, s + spec.steps);
    if (!path || path.length === 0) continue;
    paths++;
    path.forEach((x, i) => {
      const nk = JSON.stringify([i + 1, x]);
      nodeVisitors.set(nk, (nodeVisitors.get(nk) ?? new Set()).add(visitor));
      if (i + 1 < (path as string[]).length) {
        const ek = JSON.stringify([i + 1, x, (path as string[])[i + 1]]);
        edgeVisitors.set(ek, (edgeVisitors.get(ek) ?? new Set()).add(visitor));
      }
    });
  }
  const edges = [...edgeVisitors.entries()]
    .map(([k, set]) => {
      const [step, source, target] = JSON.parse(k) as [number, string, string];
      return { step, source, target, visitors: set.size };
    })
    .sort(
      (a, b) =>
        b.visitors - a.visitors ||
        a.step - b.step ||
        (a.source < b.source ? -1 : a.source > b.source ? 1 : 0) ||
        (a.target < b.target ? -1 : a.target > b.target ? 1 : 0),
    )
    .slice(0, 50);
  const nodes = new Map<string, { step: number; node: string; visitors: number }>();
  for (const e of edges) {
    for (const [step, node] of [
      [e.step, e.source],
      [e.step + 1, e.target],
    ] as const) {
      nodes.set(JSON.stringify([step, node]), {
        step,
        node,
        visitors: nodeVisitors.get(JSON.stringify([step, node]))?.size ?? 0,
      });
    }
  }
  const nodeList = [...nodes.values()].sort(
    (a, b) => a.step - b.step || b.visitors - a.visitors || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0),
  );
  return { kind: "paths", results: { edges, nodes: nodeList, paths } };
}

const eventArb = fc.record({
  visitor: fc.integer({ min: 0, max: 4 }),
  visit: fc.integer({ min: 0, max: 2 }),
  // Whole minutes over 6 days, so that equal timestamps (ties) happen.
  minute: fc.integer({ min: 0, max: 6 * 24 * 60 - 1 }),
  name: fc.constantFrom("pageview", "pageview", "pageview", "signup", "purchase", "engagement"),
  path: fc.constantFrom("/", "/a", "/b", "/c"),
  country: fc.constantFrom("US", "FR"),
});
const specArb = fc.record({
  type: fc.constantFrom("pageview" as const, "event" as const, "all" as const),
  start: fc.constantFrom(undefined, "/", "/a", "signup"),
  end: fc.constantFrom(undefined, "/b", "purchase"),
  steps: fc.integer({ min: 3, max: 5 }),
  filtered: fc.boolean(),
  mark: fc.integer({ min: 0, max: 6 }),
});
/** Specs the paths rollups answer (pages, no anchor, no filter): rare among specArb's. */
const rollupSpecArb = fc.record({
  type: fc.constant("pageview" as const),
  start: fc.constant(undefined),
  end: fc.constant(undefined),
  steps: fc.integer({ min: 3, max: 10 }),
  filtered: fc.constant(false),
  mark: fc.integer({ min: 0, max: 6 }),
});

const ENGINES = await testEngines();

describe.each(ENGINES)("runPaths on $name", (engine) => {
  let store: TestStore;
  let run = 0;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("paths-model");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });
  const ctx = { timezone: TZ, now: NOW };
  const range = { period: "custom" as const, date: "2024-03-07,2024-03-10" };

  it.skipIf(engine.skip !== undefined).each([
    ["random traffic and specs", specArb],
    ["random traffic, pages without anchors (the paths rollups' specs)", rollupSpecArb],
  ] as const)("agrees with the plain-TypeScript model on %s", { timeout: 120_000 }, async (_, specs) => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { maxLength: 50 }), specs, async (raw, s) => {
        const property = `paths-${++run}`;
        const events = raw.map((r) =>
          event({
            property,
            ts: new Date(T0 + r.minute * 60_000),
            name: r.name,
            path: r.path,
            visitor_id: `v${r.visitor}`,
            client_id: `c${r.visitor}`,
            session_id: `v${r.visitor}-${r.visit}`,
            country: r.country,
          }),
        );
        if (events.length > 0) await store.append(events);
        await store.sync();
        const spec: PathsSpecInput = {
          kind: "paths",
          ...range,
          type: s.type,
          steps: s.steps,
          ...(s.start ? { start: s.start } : {}),
          ...(s.end ? { end: s.end } : {}),
          ...(s.filtered ? { filters: "country!=FR" } : {}),
        };
        const expected = model(events, spec);
        expect(await runPaths(store, property, spec, { ...ctx, dayRollups: false })).toEqual(expected);
        // The insights' rollups are DuckDB's (ClickHouse's day rows serve stats only: stats-model.test.ts).
        if (store.dialect !== "duckdb" || !store.buildDayRollups || events.length === 0) return;
        // From the paths rollups (DuckDB, pages without anchors or filters), whole or up to a
        // mark anywhere in the range (visits over it and over the range's ends swapped from
        // events): the same answer. Any earlier mark is one the store could have.
        await store.buildDayRollups(property, TZ);
        for (const through of [store.dayRollupThrough?.(property, TZ), midnightAtOrBefore(TZ, T0 + s.mark * DAY)]) {
          const capped: EventReader = { ...store, dayRollupThrough: () => through };
          expect(await runPaths(capped, property, spec, ctx)).toEqual(expected);
        }
      }),
      { numRuns: 50 },
    );
  });

  /** Appends hand-built visits: [visitor, visit, "YYYY-MM-DD HH:MM:SS.mmm" UTC, name-or-path]. */
  async function seed(property: string, rows: [string, string, string, string][]) {
    await store.append(
      rows.map(([visitor, visit, ts, item]) =>
        event({
          property,
          ts: at(ts),
          name: item.startsWith("/") ? "pageview" : item,
          path: item.startsWith("/") ? item : "/",
          visitor_id: visitor,
          client_id: `client-${visitor}`,
          session_id: `${visitor}-${visit}`,
        }),
      ),
    );
    await store.sync();
  }
  const spec = (over: Partial<PathsSpecInput>): PathsSpecInput => ({ kind: "paths", ...range, ...over });

  it.skipIf(engine.skip !== undefined)(
    "peers.md §1.6: /a /b /b /c collapses to a→b→c; /d in a later visit starts a new path",
    async () => {
      const property = `paths-vec-${++run}`;
      await seed(property, [
        ["p", "1", "2024-03-08 15:00:00.000", "/a"],
        ["p", "1", "2024-03-08 15:05:00.000", "/b"],
        ["p", "1", "2024-03-08 15:06:00.000", "/b"],
        ["p", "1", "2024-03-08 15:10:00.000", "/c"],
        ["p", "2", "2024-03-08 15:50:00.000", "/d"],
      ]);
      const a = await runPaths(store, property, spec({}), ctx);
      expect(a.results.edges).toEqual([
        { step: 1, source: "/a", target: "/b", visitors: 1 },
        { step: 2, source: "/b", target: "/c", visitors: 1 },
      ]);
      // The one-event visit (/d) is a path with no edge.
      expect(a.results.paths).toBe(2);
    },
  );

  it.skipIf(engine.skip !== undefined)(
    "loops and repeated pages: a page seen again later is a new node; an edge counts visitors once",
    async () => {
      const property = `paths-loop-${++run}`;
      await seed(property, [
        ["x", "1", "2024-03-08 15:00:00.000", "/a"],
        ["x", "1", "2024-03-08 15:01:00.000", "/b"],
        ["x", "1", "2024-03-08 15:02:00.000", "/a"],
        ["x", "1", "2024-03-08 15:03:00.000", "/b"],
        ["x", "2", "2024-03-09 15:00:00.000", "/a"],
        ["x", "2", "2024-03-09 15:01:00.000", "/b"],
        ["y", "1", "2024-03-09 16:00:00.000", "/a"],
        ["y", "1", "2024-03-09 16:00:00.000", "/a"],
        ["y", "1", "2024-03-09 16:01:00.000", "/b"],
      ]);
      const a = await runPaths(store, property, spec({}), ctx);
      expect(a.results.edges).toEqual([
        { step: 1, source: "/a", target: "/b", visitors: 2 },
        { step: 2, source: "/b", target: "/a", visitors: 1 },
        { step: 3, source: "/a", target: "/b", visitors: 1 },
      ]);
      expect(a.results.paths).toBe(3);
    },
  );

  it.skipIf(engine.skip !== undefined)(
    "keeps the top 50 edges with ties cut by target in code-unit order; an anchor absent from the range matches no visit",
    async () => {
      const property = `paths-top-${++run}`;
      // 60 visitors, each "/" then a page of their own: 60 edges of one visitor each. Targets
      // in mixed case and with an accent, so that their order is the item order, not insertion's.
      const targets = Array.from({ length: 60 }, (_, i) => `/${["Z", "a", "é", "b"][i % 4]}${String(59 - i).padStart(2, "0")}`);
      await seed(
        property,
        targets.flatMap((t, i): [string, string, string, string][] => [
          [`u${i}`, "1", "2024-03-08 15:00:00.000", "/"],
          [`u${i}`, "1", "2024-03-08 15:01:00.000", t],
        ]),
      );
      const a = await runPaths(store, property, spec({ type: "pageview" }), ctx);
      const cu = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      expect(a.results.edges.map((e) => e.target)).toEqual([...targets].sort(cu).slice(0, 50));
      expect(a.results.edges.every((e) => e.step === 1 && e.source === "/" && e.visitors === 1)).toBe(true);
      expect(a.results.paths).toBe(60);
      const none = await runPaths(store, property, spec({ type: "pageview", start: "/nowhere" }), ctx);
      expect(none.results).toEqual({ edges: [], nodes: [], paths: 0 });
    },
  );

  it.skipIf(engine.skip !== undefined)(
    "start and end anchors; equal timestamps ordered by item; custom events as nodes",
    async () => {
      const property = `paths-anchor-${++run}`;
      await seed(property, [
        ["u", "1", "2024-03-08 15:00:00.000", "/home"],
        ["u", "1", "2024-03-08 15:01:00.000", "/pricing"],
        ["u", "1", "2024-03-08 15:02:00.000", "signup"],
        ["u", "1", "2024-03-08 15:02:00.000", "/welcome"],
        ["w", "1", "2024-03-08 17:00:00.000", "/pricing"],
        ["w", "1", "2024-03-08 17:00:01.500", "/docs"],
        ["w", "1", "2024-03-08 17:00:01.200", "signup"],
      ]);
      const from = await runPaths(store, property, spec({ type: "all", start: "/pricing" }), ctx);
      // Same second: "/welcome" < "signup"; the millisecond orders w's signup before /docs.
      expect(from.results.edges).toEqual([
        { step: 1, source: "/pricing", target: "/welcome", visitors: 1 },
        { step: 1, source: "/pricing", target: "signup", visitors: 1 },
        { step: 2, source: "/welcome", target: "signup", visitors: 1 },
        { step: 2, source: "signup", target: "/docs", visitors: 1 },
      ]);
      const to = await runPaths(store, property, spec({ type: "all", end: "signup", steps: 3 }), ctx);
      // To signup within 3 steps: u's last three (/home falls off), w's two.
      expect(to.results.edges).toEqual([
        { step: 1, source: "/pricing", target: "/welcome", visitors: 1 },
        { step: 1, source: "/pricing", target: "signup", visitors: 1 },
        { step: 2, source: "/welcome", target: "signup", visitors: 1 },
      ]);
      const events = await runPaths(store, property, spec({ type: "event" }), ctx);
      expect(events.results).toEqual({ edges: [], nodes: [], paths: 2 });
      const actors = await runInsightActors(
        store,
        property,
        {
          spec: PathsSpecSchema.parse(spec({ type: "all", start: "/pricing" })),
          at: { step: 2, node: "signup" },
          limit: 50,
          offset: 0,
        },
        ctx,
      );
      expect(actors.visitors.map((v) => v.client_id)).toEqual(["client-w"]);
    },
  );

  it.skipIf(engine.skip !== undefined)(
    "the range in local time across the DST change: events before its first and after its last local midnight are out",
    async () => {
      const property = `paths-dst-${++run}`;
      await seed(property, [
        // 2024-03-07 00:00 New York is 05:00 UTC (EST); 2024-03-11 00:00 is 04:00 UTC (EDT).
        ["d", "1", "2024-03-07 04:59:59.000", "/before"],
        ["d", "1", "2024-03-07 05:00:00.000", "/first"],
        ["d", "1", "2024-03-11 03:59:59.000", "/last"],
        ["d", "1", "2024-03-11 04:00:00.000", "/after"],
      ]);
      const a = await runPaths(store, property, spec({}), ctx);
      expect(a.results.edges).toEqual([{ step: 1, source: "/first", target: "/last", visitors: 1 }]);
      const empty = await runPaths(store, property, spec({ date: "2024-03-12,2024-03-13" }), ctx);
      expect(empty.results).toEqual({ edges: [], nodes: [], paths: 0 });
    },
  );
});
