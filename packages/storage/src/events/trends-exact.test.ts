// runTrends on every event engine (DuckDB, ClickHouse) against hand-built fixtures whose answers are
// written out (#23 Correctness): hour buckets of the days Europe/Berlin changes clocks (23 and 25
// hours; the skipped hour has no bucket, the repeated one is one bucket), day buckets either side
// of the change, the previous period of the short day set against it by position, an empty range
// (counts 0, measures null, no breakdown rows, a formula dividing by zero null) and a visitor with
// a single event (every math on one value). The ClickHouse engines include the two-shard cluster.
import { type EventRow, PROPERTY_MATHS, type TrendsSpecInput, TrendsSpecSchema } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopClickHouseCluster } from "../test-services.js";
import { event } from "./fixtures.js";
import { type TestStore, testEngines } from "./test-engines.js";
import { runTrends } from "./trends.js";

const TZ = "Europe/Berlin";
const NOW = new Date("2024-11-15T12:00:00Z");
// With the two-shard cluster: its trends read the Distributed event slots.
const ENGINES = await testEngines({ cluster: true });
afterAll(() => stopClickHouseCluster());

const hours = (day: string, list: number[]) => list.map((h) => `${day} ${String(h).padStart(2, "0")}:00:00`);
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe.each(ENGINES)("trends exact fixtures on $name", (engine) => {
  let store: TestStore;
  let n = 0;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("trends-exact");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });
  const run = async (events: Omit<EventRow, "property">[] | EventRow[], spec: Omit<TrendsSpecInput, "kind">) => {
    const property = `trends-exact-${++n}`;
    if (events.length > 0) await store.append(events.map((e) => ({ ...e, property })));
    await store.sync();
    return runTrends(store, property, TrendsSpecSchema.parse({ kind: "trends", ...spec }), { timezone: TZ, now: NOW });
  };
  const ev = (utc: string, o: Partial<EventRow> = {}) => event({ property: "-", ts: new Date(utc), name: "pageview", ...o });
  const it_ = it.skipIf(engine.skip !== undefined);

  it_("spring forward (31 March 2024): 23 hour buckets, none for 02:00, each event in its local hour", async () => {
    const a = await run(
      [
        ev("2024-03-30T22:59:00Z"), // 23:59 on the 30th: outside
        ev("2024-03-30T23:30:00Z"), // 00:30 CET
        ev("2024-03-31T00:59:59Z"), // 01:59:59 CET, the last second before the change
        ev("2024-03-31T01:00:00Z"), // 03:00 CEST, the first after it
        ev("2024-03-31T21:59:00Z"), // 23:59 CEST
        ev("2024-03-31T22:00:00Z"), // 00:00 on 1 April: outside
      ],
      { period: "custom", date: "2024-03-31,2024-03-31", interval: "hour", series: [{ event: "pageview" }] },
    );
    const labels = hours("2024-03-31", [0, 1, ...range(3, 23)]);
    const hit = new Set(["2024-03-31 00:00:00", "2024-03-31 01:00:00", "2024-03-31 03:00:00", "2024-03-31 23:00:00"]);
    expect(a.results).toEqual([
      {
        series: "A: pageview",
        series_index: 0,
        total: 4,
        data: labels.map((date) => ({ date, value: hit.has(date) ? 1 : 0 })),
      },
    ]);
  });

  it_("fall back (27 October 2024): both 02:00 hours are one bucket; days either side are whole local days", async () => {
    const a = await run(
      [
        ev("2024-10-27T00:30:00Z", { visitor_id: "a" }), // 02:30 CEST
        ev("2024-10-27T01:30:00Z", { visitor_id: "b" }), // 02:30 CET, the repeated hour
        ev("2024-10-27T22:59:00Z", { visitor_id: "a" }), // 23:59 CET
      ],
      {
        period: "custom",
        date: "2024-10-27,2024-10-27",
        interval: "hour",
        series: [{ event: "pageview", math: "unique_visitors" }],
      },
    );
    expect(a.results[0]?.total).toBe(2);
    expect(a.results[0]?.data).toEqual(
      hours("2024-10-27", range(0, 23)).map((date) => ({
        date,
        value: date.endsWith("02:00:00") ? 2 : date.endsWith("23:00:00") ? 1 : 0,
      })),
    );
    const days = await run(
      [
        ev("2024-03-30T22:30:00Z"), // 23:30 CET on the 30th
        ev("2024-03-30T23:30:00Z"), // 00:30 CET on the 31st
        ev("2024-03-31T21:30:00Z"), // 23:30 CEST on the 31st
        ev("2024-03-31T22:30:00Z"), // 00:30 CEST on 1 April
      ],
      { period: "custom", date: "2024-03-30,2024-04-01", interval: "day", series: [{ event: "pageview" }] },
    );
    expect(days.results[0]?.data).toEqual([
      { date: "2024-03-30", value: 1 },
      { date: "2024-03-31", value: 2 },
      { date: "2024-04-01", value: 1 },
    ]);
  });

  it_("the previous period of the 23-hour day: its own 24 hour labels, set against the current ones by position", async () => {
    const a = await run(
      [
        ev("2024-03-30T01:30:00Z"), // 02:30 CET on the 30th: index 2 of the earlier day
        ev("2024-03-31T01:30:00Z"), // 03:30 CEST on the 31st: index 2 of the short day
        ev("2024-03-31T02:30:00Z"), // 04:30 CEST
      ],
      {
        period: "custom",
        date: "2024-03-31,2024-03-31",
        interval: "hour",
        series: [{ event: "pageview" }],
        comparison: "previous_period",
      },
    );
    expect(a.comparison).toEqual({ type: "previous_period", first_day: "2024-03-30", last_day: "2024-03-30" });
    const r = a.results[0];
    expect(r?.total).toBe(2);
    expect(r?.data).toHaveLength(23);
    expect(r?.data[2]).toEqual({ date: "2024-03-31 03:00:00", value: 1 });
    // 23 points: the earlier day's 23:00 has no counterpart on the short day.
    expect(r?.comparison?.total).toBe(1);
    expect(r?.comparison?.change).toBe(100);
    expect(r?.comparison?.data).toEqual(hours("2024-03-30", range(0, 22)).map((date, i) => ({ date, value: i === 2 ? 1 : 0 })));
  });

  it_("events without a number: each measure null where they are (not 0), the counts theirs", async () => {
    // The random model found ClickHouse's aggregate states over a Nullable number finalizing to 0.
    const events = [ev("2024-06-03T10:00:00Z"), ev("2024-06-03T11:00:00Z", { props: { amount: "x" } })];
    const spec = { period: "custom", date: "2024-06-03,2024-06-04", interval: "day" } as const;
    const maths = PROPERTY_MATHS.map((math) => ({ event: "pageview", math, math_property: "amount" }));
    const a = await run(events, { ...spec, series: [{ event: "pageview" }, ...maths], comparison: "previous_period" });
    expect(a.results.map((r) => [r.total, r.data.map((p) => p.value)])).toEqual([
      [2, [2, 0]],
      ...maths.map(() => [null, [null, null]]),
    ]);
  });

  it_("an empty range: counts 0, measures null, no breakdown rows, a formula over zeros null", async () => {
    const events = [ev("2024-05-01T10:00:00Z", { props: { amount: "5" } })]; // outside the range
    const spec = { period: "custom", date: "2024-06-03,2024-06-04", interval: "day" } as const;
    const a = await run(events, {
      ...spec,
      series: [{ event: "pageview" }, { event: "pageview", math: "avg", math_property: "amount" }],
    });
    expect(a.results.map((r) => [r.total, r.data.map((p) => p.value)])).toEqual([
      [0, [0, 0]],
      [null, [null, null]],
    ]);
    const broken = await run(events, { ...spec, series: [{ event: "pageview" }], breakdown: "country" });
    expect(broken.results).toEqual([]);
    const formula = await run(events, { ...spec, series: [{ event: "pageview" }, { event: "signup" }], formula: "A/B*100" });
    expect(formula.results).toEqual([
      {
        series: "formula",
        series_index: null,
        total: null,
        data: [
          { date: "2024-06-03", value: null },
          { date: "2024-06-04", value: null },
        ],
      },
    ]);
  });

  it_("a visitor with one event: every math on that one value", async () => {
    const events = [ev("2024-06-03T10:00:00Z", { visitor_id: "solo", country: "DE", revenue: 12.5, props: { amount: "7.5" } })];
    const spec = { period: "custom", date: "2024-06-03,2024-06-04", interval: "day" } as const;
    const maths = [
      ["total", 1],
      ["unique_visitors", 1],
      ["avg_per_visitor", 1],
      ["revenue", 12.5],
      ["sum", 7.5],
      ["avg", 7.5],
      ["min", 7.5],
      ["max", 7.5],
      ["median", 7.5],
    ] as const;
    const a = await run(events, {
      ...spec,
      series: maths.map(([math]) => ({
        event: "pageview",
        math,
        ...(PROPERTY_MATHS.includes(math) ? { math_property: "amount" } : {}),
      })),
    });
    expect(a.results.map((r) => r.total)).toEqual(maths.map(([, v]) => v));
    // The second day: counts 0, measures null.
    const counting = new Set(["total", "unique_visitors", "revenue"]);
    expect(a.results.map((r) => r.data[1]?.value)).toEqual(maths.map(([m]) => (counting.has(m) ? 0 : null)));
    const broken = await run(events, { ...spec, series: [{ event: "pageview" }], breakdown: "country" });
    expect(broken.results.map((r) => [r.breakdown_value, r.total])).toEqual([["DE", 1]]);
  });
});
