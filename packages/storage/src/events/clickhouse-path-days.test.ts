// ClickHouse's path rows (@lookout/query clickhouse-path-days.ts, insights/paths-days.ts): filled
// with the day rows for a pair's settled batches, read by page paths without anchors or filters for
// the whole local days they cover, and exact: every answer equals the same store's answer from
// events alone, half and all settled, in a timezone with a half-hour offset, over ranges that end
// inside the data and after it, after a visitor's deletion and a late insert into a settled day,
// and on random short visits settled up to a random day.
import { dayRowsKey, SETTLE_MS, VISIT_PATHS_TABLE } from "@lookout/query";
import type { EventRow, PathsSpecInput } from "@lookout/schema";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickHouseTestDatabase, requireClickHouse, stopClickHouseCluster } from "../test-services.js";
import { dayNumber } from "./clickhouse-marks.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { at, event, recordingQueries } from "./fixtures.js";
import { runPaths } from "./paths.js";
import type { StatsContext } from "./stats.js";
import { testEngines } from "./test-engines.js";

const DAY = 86_400_000;
const END = at("2024-06-01 00:00:00");
const TZ = "America/New_York";
const settledThrough = (day: number) => new Date((day + 1) * DAY + SETTLE_MS);

/** Page paths the rows answer (over ranges ending after the data and inside it), and one they cannot (a filter). */
const SPECS: { spec: PathsSpecInput; rows: boolean }[] = [
  { spec: { kind: "paths", period: "custom", date: "2024-05-20,2024-05-31", type: "pageview", steps: 5 }, rows: true },
  { spec: { kind: "paths", period: "custom", date: "2024-05-19,2024-05-31", type: "pageview", steps: 10 }, rows: true },
  { spec: { kind: "paths", period: "custom", date: "2024-05-22,2024-05-26", type: "pageview", steps: 3 }, rows: true },
  { spec: { kind: "paths", period: "custom", date: "2024-05-29,2024-05-29", type: "pageview", steps: 4 }, rows: true },
  {
    spec: { kind: "paths", period: "custom", date: "2024-05-20,2024-05-31", type: "pageview", steps: 5, filters: "country!=ZZ" },
    rows: false,
  },
];

const ch = await requireClickHouse();
// One node, and the two-shard cluster (the fill's reads and INSERT through Distributed tables).
const ENGINES = (await testEngines({ cluster: true })).filter((e) => e.name.startsWith("clickhouse"));
afterAll(() => stopClickHouseCluster());

describe.each(ENGINES)("ClickHouse path rows on $name", (engine) => {
  if (engine.skip) {
    it.skip(engine.skip, () => {});
    return;
  }
  const oneNode = engine.name === "clickhouse";
  const property = "paths-days.example";
  const opened: ClickHouseEventStore[] = [];
  let store: ClickHouseEventStore;
  const sqls: string[] = [];
  const rows: EventRow[] = [];
  for (const batch of generateEvents({
    property,
    days: 14,
    visitors: Math.ceil(6000 / EVENTS_PER_VISITOR),
    seed: 21,
    end: END,
    maxEvents: 6000,
    batchSize: 6000,
  }))
    rows.push(...batch);
  const last = Math.max(...rows.map((r) => dayNumber(r.ts.getTime())));

  const open = async (database: string) => {
    if (!("url" in ch)) throw new Error(ch.skip);
    const s = await openClickHouseEventStore(`${ch.url}/${database}`, {
      settleEveryMs: 0,
      supersededGraceMs: 0,
      timelines: false,
    });
    opened.push(s);
    return s;
  };
  /** Each spec's answer with path rows where they answer (and whether it read them), and from events alone. */
  const both = async (tz = TZ, of = property, specs = SPECS.map((s) => s.spec), now = new Date(END.getTime() - 1)) => {
    const ctx: StatsContext = { timezone: tz, now };
    const withRows = [];
    const read: boolean[] = [];
    for (const spec of specs) {
      sqls.length = 0;
      withRows.push(await runPaths(recordingQueries(store, sqls), of, spec, ctx));
      read.push(sqls.some((s) => s.includes(VISIT_PATHS_TABLE)));
    }
    const without = [];
    for (const spec of specs) without.push(await runPaths(store, of, spec, { ...ctx, dayRollups: false }));
    return { withRows, without, read };
  };
  const count = async (sql: string) => Number((await store.query<{ n: number }>({ sql, params: {} }))[0]?.n ?? 0);
  const mutationsDone = async () => {
    for (let i = 0; i < 200; i++) {
      const n = await count(`SELECT count() AS n FROM system.mutations WHERE database = '${store.database}' AND is_done = 0`);
      if (n === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const READS = SPECS.map((s) => s.rows);

  beforeAll(async () => {
    store = (await engine.open("pathdays")) as ClickHouseEventStore;
    opened.push(store);
    await store.buildDayRollups(property, TZ);
    await store.append(rows);
  }, 120_000);
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  it("reads no path rows before a day is settled, then answers from them exactly, half and all settled", async () => {
    const live = await both();
    expect(live.read.every((r) => !r)).toBe(true);
    expect(live.withRows).toEqual(live.without);
    expect(live.without[0]?.results.paths).toBeGreaterThan(100);
    expect(live.without[0]?.results.edges.length).toBe(50);

    await store.settle(settledThrough(last - 5));
    const half = await both();
    // The last spec's day is after the settled ones.
    expect(half.read).toEqual([true, true, true, false, false]);
    expect(half.withRows).toEqual(live.without);

    await store.settle(settledThrough(last + 5));
    const all = await both();
    expect(all.read).toEqual(READS);
    expect(all.withRows).toEqual(live.without);
    // Every settled visit with a pageview has one count-of-paths row share.
    expect(await count(`SELECT sum(visitors) AS n FROM ${VISIT_PATHS_TABLE} WHERE kind = 2 AND tz = '${TZ}'`)).toBe(
      await count("SELECT count() AS n FROM visits_done WHERE pageviews > 0"),
    );
  });

  // The rest on one node: a second timezone, deletions' mutations and a store per random case.
  if (!oneNode) return;

  it("fills a pair first asked for after settling (a half-hour offset) for every settled day", async () => {
    await store.buildDayRollups(property, "Asia/Kolkata");
    const r = await both("Asia/Kolkata");
    expect(r.read).toEqual(READS);
    expect(r.withRows).toEqual(r.without);
  });

  it("stays exact after a visitor's deletion (their batches' rows are filled again) and a late insert into a settled day", async () => {
    // A visitor with visits on several days: their rows chain prev_lday over them.
    const days = new Map<string, Set<number>>();
    for (const r of rows) days.set(r.client_id, (days.get(r.client_id) ?? new Set()).add(dayNumber(r.ts.getTime())));
    // Days with a gap between: the refill covers batches that are not consecutive.
    const gapped = ([, d]: [string, Set<number>]) => d.size >= 2 && Math.max(...d) - Math.min(...d) >= d.size;
    const visitor = [...days.entries()].find(gapped)?.[0] as string;
    expect(await store.deleteVisitor(property, visitor)).toBeGreaterThan(0);
    const after = await both();
    expect(after.read).toEqual(READS);
    expect(after.withRows).toEqual(after.without);
    // Every row is a batch's: none written for the days between the batches filled.
    expect(await count(`SELECT count() AS n FROM ${VISIT_PATHS_TABLE} WHERE batch = 0`)).toBe(0);

    // A returning visitor's late visit on a settled day with the most common first page.
    const top = after.without[0]?.results.edges[0];
    const returning = rows.find((r) => r.ts.getTime() > Date.parse("2024-05-27T00:00:00Z"))?.visitor_id as string;
    const late = [top?.source ?? "/", top?.target ?? "/late", "/late"].map((path, i) =>
      event({
        property,
        ts: at(`2024-05-25 15:0${i}:00`),
        name: "pageview",
        path,
        visitor_id: returning,
        session_id: "late-1",
        client_id: "late",
      }),
    );
    await store.append(late);
    const unsettled = await both();
    expect(unsettled.withRows).toEqual(unsettled.without);
    expect(unsettled.without).not.toEqual(after.without);
    await store.settle(settledThrough(last + 5));
    await mutationsDone();
    const resettled = await both();
    expect(resettled.read).toEqual(READS);
    expect(resettled.withRows).toEqual(unsettled.without);
  });

  it("counts a settled visit over the range's end by its pages before it, and reads the rows up to a UTC bound inside a local day", async () => {
    const of = "paths-bounds.example";
    const db = await open(clickHouseTestDatabase("pathdays_bounds"));
    const visit = (visitor: string, session: string, pages: [string, string][]) =>
      pages.map(([t, path]) =>
        event({ property: of, ts: at(t), name: "pageview", path, visitor_id: visitor, client_id: visitor, session_id: session }),
      );
    // New York: local midnight of May 10 is 04:00 UTC. Visitor a's second visit runs over it; the
    // range that ends there (longer than the two days read from its start) has its first two pages
    // from events, not its settled whole path.
    const events = [
      ...visit("a", "a1", [["2024-05-08 15:00:00", "/x"]]),
      ...visit("a", "a2", [
        ["2024-05-10 03:50:00", "/x"],
        ["2024-05-10 03:55:00", "/y"],
        ["2024-05-10 04:05:00", "/z"],
      ]),
      ...visit("b", "b1", [
        ["2024-05-09 12:00:00", "/x"],
        ["2024-05-09 12:01:00", "/y"],
      ]),
      // May 12 local, settled (its UTC day is), then the live UTC day May 13: its first hours are still local May 12.
      ...visit("c", "c1", [
        ["2024-05-12 22:00:00", "/x"],
        ["2024-05-12 22:01:00", "/z"],
      ]),
      ...visit("d", "d1", [["2024-05-12 23:00:00", "/y"]]),
      ...visit("c", "c2", [
        ["2024-05-13 01:00:00", "/y"],
        ["2024-05-13 01:01:00", "/z"],
      ]),
      ...visit("e", "e1", [
        ["2024-05-13 02:00:00", "/x"],
        ["2024-05-13 02:30:00", "/z"],
      ]),
      // A settled visit over the UTC bound, whose visitor comes back on the live day: its events
      // after the bound are not a visit of their own.
      ...visit("f", "f1", [
        ["2024-05-12 23:50:00", "/x"],
        ["2024-05-13 00:10:00", "/y"],
        ["2024-05-13 00:20:00", "/z"],
      ]),
      ...visit("f", "f2", [["2024-05-13 03:00:00", "/z"]]),
    ];
    const prev = store;
    store = db;
    try {
      await db.buildDayRollups(of, TZ);
      await db.append(events);
      // Through May 12 (the visit over its end ended at 00:20), so the rows' bound is May 13's UTC midnight.
      await db.settle(at("2024-05-13 12:00:00"));
      expect((await db.settledVisits()).pathRows?.[dayRowsKey(of, TZ)]).toBe(dayNumber(at("2024-05-13 00:00:00").getTime()));
      const specs: PathsSpecInput[] = [
        { kind: "paths", period: "custom", date: "2024-05-05,2024-05-09", type: "pageview", steps: 3 },
        { kind: "paths", period: "custom", date: "2024-05-10,2024-05-13", type: "pageview", steps: 3 },
      ];
      const r = await both(TZ, of, specs, at("2024-05-13 20:00:00"));
      expect(r.read).toEqual([true, true]);
      expect(r.withRows).toEqual(r.without);
      // a's second visit counts /x then /y on May 9 (its /z is after the range).
      const first = r.without[0]?.results;
      expect(first?.paths).toBe(3);
      expect(first?.edges).toContainEqual(expect.objectContaining({ step: 1, source: "/x", target: "/y", visitors: 2 }));
      expect(first?.edges.some((e) => e.target === "/z")).toBe(false);
    } finally {
      store = prev;
      await db.close();
      opened.splice(opened.indexOf(db), 1);
    }
  });

  it("agrees with the answer from events on random short visits settled up to a random day", { timeout: 240_000 }, async () => {
    const T0 = Date.parse("2024-03-06T05:00:00Z");
    const visitArb = fc.record({
      visitor: fc.integer({ min: 0, max: 5 }),
      // Visit starts over 6 days, each page a few minutes after the last (ties too).
      start: fc.integer({ min: 0, max: 6 * 24 * 60 - 1 }),
      pages: fc.array(fc.record({ gap: fc.integer({ min: 0, max: 40 }), path: fc.constantFrom("/", "/a", "/b", "/c") }), {
        minLength: 1,
        maxLength: 6,
      }),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(visitArb, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom("America/New_York", "Asia/Kolkata"),
        async (visits, mark, tz) => {
          const of = `random-${++run}`;
          const db = await open(clickHouseTestDatabase("pathdays_random"));
          const events: EventRow[] = visits.flatMap((v, i) => {
            let t = T0 + v.start * 60_000;
            return v.pages.map((p) => {
              t += p.gap * 60_000;
              return event({
                property: of,
                ts: new Date(t),
                name: "pageview",
                path: p.path,
                visitor_id: `v${v.visitor}`,
                client_id: `c${v.visitor}`,
                session_id: `s${i}`,
              });
            });
          });
          const prev = store;
          store = db;
          try {
            await db.buildDayRollups(of, tz);
            await db.append(events);
            await db.settle(settledThrough(dayNumber(T0) + mark));
            const specs: PathsSpecInput[] = [
              { kind: "paths", period: "custom", date: "2024-03-07,2024-03-10", type: "pageview", steps: 4 },
              { kind: "paths", period: "custom", date: "2024-03-05,2024-03-13", type: "pageview", steps: 10 },
            ];
            const r = await both(tz, of, specs, new Date(T0 + 20 * DAY));
            expect(r.withRows).toEqual(r.without);
            // The wider range starts a whole day before the bound once a day with visits is settled.
            const firstDay = Math.min(...events.map((e) => dayNumber(e.ts.getTime())));
            if (firstDay <= dayNumber(T0) + mark) expect(r.read[1]).toBe(true);
          } finally {
            store = prev;
            await db.close();
            opened.splice(opened.indexOf(db), 1);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
