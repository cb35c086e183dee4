// runTrends on every event engine (DuckDB, ClickHouse) against a plain-TypeScript model of DESIGN.md §4 Trends: random small
// traffic (events before, inside and after a range that spans a DST change) and random trends
// specs (maths, per-series and global filters, a breakdown with top N + "$other", a formula, a
// comparison with the previous period or a year earlier, "now" after the range or inside its last
// day), answered once by the compiled SQL and once by reading the events in memory. Any difference
// is a bug in one of the two. The model reads local dates and wall clocks with Intl, not with the
// query package's own time-zone code.

import { midnightAtOrBefore } from "@lookout/query";
import {
  type EventRow,
  evalFormula,
  type Filter,
  OTHER_BREAKDOWN_VALUE,
  parseFilters,
  parseFormula,
  TRENDS_MATHS,
  type TrendsAnswer,
  type TrendsMath,
  type TrendsSpecInput,
  TrendsSpecSchema,
} from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventReader } from "./event-store.js";
import { event } from "./fixtures.js";
import { type TestStore, testEngines } from "./test-engines.js";
import { runTrends } from "./trends.js";

const TZ = "America/New_York";
const DAY = 86_400_000;
const T0 = Date.parse("2024-03-01T05:00:00Z");
const NOW = new Date(T0 + 20 * DAY);
/** Days 5-9 of the traffic, local; the DST change (10 March) makes the last day 23 hours long. */
const DAY_LABELS = ["2024-03-06", "2024-03-07", "2024-03-08", "2024-03-09", "2024-03-10"];
/** "Now" on the range's last day, 16:00 local (EDT, after the change): a running range. */
const NOW_INSIDE = new Date("2024-03-10T20:00:00Z");
/** The comparison periods' local days: the 5 days before, and the same dates of 2023 (EST throughout). */
const COMPARISON_DAYS = {
  previous_period: ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-03-05"],
  year_over_year: ["2023-03-06", "2023-03-07", "2023-03-08", "2023-03-09", "2023-03-10"],
} as const;
/** Traffic a year earlier starts 366 days before T0 (2024 is a leap year): 1 March 2023, local midnight. */
const YEAR = 366 * DAY;
const WALL = new Intl.DateTimeFormat("sv-SE", {
  timeZone: TZ,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});
/** An instant's local wall clock, "YYYY-MM-DD HH:MM:SS". */
const wall = (t: Date) => WALL.format(t);

const eventArb = fc.record({
  visitor: fc.integer({ min: 0, max: 5 }),
  // Anywhere in the 15 days, or on an edge: the comparison's 16:00 cut (5 March; 10 March a year
  // earlier), the range's first and last local midnights (the last one EDT) and the DST change.
  minute: fc.oneof(
    fc.integer({ min: 0, max: 15 * 24 * 60 - 1 }),
    fc.constantFrom(6719, 6720, 7199, 7200, 13080, 13919, 13920, 14339, 14340),
  ),
  name: fc.constantFrom("pageview", "pageview", "signup", "purchase"),
  path: fc.constantFrom("/", "/a", "/b"),
  country: fc.constantFrom("US", "DE", "FR", ""),
  plan: fc.constantFrom(undefined, "pro", "team", "free"),
  amount: fc.constantFrom(undefined, "3", "4.5", "-2", "10", "abc"),
  revenue: fc.constantFrom(0, 0, 5, 12.5),
  yearAgo: fc.constantFrom(false, false, true),
});

const FILTERS = ["", "country==US|DE", "page!=/a", "prop:plan==pro", "prop:plan!=team", "page~b"];
const seriesArb = fc.record({
  event: fc.constantFrom("pageview", "signup", "purchase"),
  math: fc.constantFrom(...TRENDS_MATHS),
  filters: fc.constantFrom(...FILTERS),
  /** The math of a plain spec: the counts the activity rollups answer. */
  count: fc.constantFrom("total", "unique_visitors", "avg_per_visitor"),
});
const specArb = fc.record({
  series: fc.array(seriesArb, { minLength: 1, maxLength: 2 }),
  filters: fc.constantFrom("", "country!=FR", "prop:plan!~e"),
  breakdown: fc.constantFrom(undefined, "country", "prop:plan", "page"),
  breakdown_limit: fc.constantFrom(1, 2, 10),
  formula: fc.constantFrom(undefined, "A*2", "A+B", "A/B*100", "(A-B)/2"),
  comparison: fc.constantFrom(undefined, "previous_period", "year_over_year"),
  nowInside: fc.boolean(),
  /** Counts of events and visitors without filters (or breakdown, but plainBreakdown's): what DuckDB answers from rollups, compared or not. */
  plain: fc.boolean(),
  interval: fc.constantFrom(undefined, "week", "month"),
  /** Where the activity rollups end, in days from T0 (DuckDB). */
  mark: fc.integer({ min: 4, max: 12 }),
  /** A plain spec's breakdown: by country, a visit attribute the breakdown rollups keep (DuckDB); with or without a comparison. */
  plainBreakdown: fc.constantFrom(undefined, "country", "country"),
});

function matches(f: Filter, value: string): boolean {
  const hit = f.values.some((x) =>
    f.op === "is" || f.op === "is_not" ? value === x : value.toLowerCase().includes(x.toLowerCase()),
  );
  return f.op === "is_not" || f.op === "not_contains" ? !hit : hit;
}

function rowValue(e: EventRow, dim: string): string | undefined {
  if (dim.startsWith("prop:")) return e.props[dim.slice(5)];
  if (dim === "page") return e.path;
  if (dim === "country") return e.country;
  throw new Error(dim);
}

/** A filter keeps an event whose own row matches; a prop filter needs the prop (negated whole). */
function keeps(e: EventRow, f: Filter): boolean {
  const v = rowValue(e, f.dimension);
  if (f.dimension.startsWith("prop:")) {
    const positive = { ...f, op: f.op === "is_not" ? "is" : f.op === "not_contains" ? "contains" : f.op } as Filter;
    const hit = v !== undefined && matches(positive, v);
    return f.op === "is_not" || f.op === "not_contains" ? !hit : hit;
  }
  return matches(f, v ?? "");
}

function mathOf(math: TrendsMath, evs: EventRow[]): number | null {
  const nums = evs.map((e) => Number.parseFloat(e.props.amount ?? "")).filter((n) => Number.isFinite(n));
  const visitors = new Set(evs.map((e) => e.visitor_id)).size;
  switch (math) {
    case "total":
      return evs.length;
    case "unique_visitors":
      return visitors;
    case "avg_per_visitor":
      return visitors === 0 ? null : evs.length / visitors;
    case "revenue":
      return evs.reduce((s, e) => s + (e.revenue ?? 0), 0);
    case "sum":
      return nums.length === 0 ? null : nums.reduce((a, b) => a + b, 0);
    case "avg":
      return nums.length === 0 ? null : nums.reduce((a, b) => a + b, 0) / nums.length;
    case "min":
      return nums.length === 0 ? null : Math.min(...nums);
    case "max":
      return nums.length === 0 ? null : Math.max(...nums);
    case "median": {
      if (nums.length === 0) return null;
      const s = [...nums].sort((a, b) => a - b);
      const m = s.length >> 1;
      return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
    }
  }
}

function model(events: EventRow[], input: TrendsSpecInput, nowInside: boolean): TrendsAnswer {
  const spec = TrendsSpecSchema.parse(input);
  const global = parseFilters(spec.filters ?? "");
  const dayOf = (e: EventRow) => wall(e.ts).slice(0, 10);
  const cmpDays: readonly string[] = spec.comparison ? COMPARISON_DAYS[spec.comparison] : [];
  // A running range's comparison total stops at the same wall clock of the earlier period's last day.
  const cmpCut = nowInside && spec.comparison ? `${cmpDays[4]} 16:00:00` : null;
  const perSeries = spec.series.map((s) => {
    const own = parseFilters(s.filters ?? "");
    const matching = events.filter((e) => e.name === s.event && [...global, ...own].every((f) => keeps(e, f)));
    const evs = matching.filter((e) => DAY_LABELS.includes(dayOf(e)));
    const earlier = matching.filter((e) => cmpDays.includes(dayOf(e)));
    const raw = (e: EventRow) => (spec.breakdown ? (rowValue(e, spec.breakdown) ?? "") : "");
    // The top N values come from the spec's own period only.
    const counts = new Map<string, number>();
    for (const e of evs) counts.set(raw(e), (counts.get(raw(e)) ?? 0) + 1);
    const top = new Set(
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, spec.breakdown_limit ?? 10)
        .map(([v]) => v),
    );
    const bv = (e: EventRow) => (spec.breakdown ? (top.has(raw(e)) ? raw(e) : OTHER_BREAKDOWN_VALUE) : "");
    return { s, evs, earlier, bv };
  });
  const values = new Set(perSeries.flatMap((x) => [...x.evs, ...x.earlier].map(x.bv)));
  const sorted = spec.breakdown
    ? [...values].sort((a, b) =>
        a === OTHER_BREAKDOWN_VALUE ? 1 : b === OTHER_BREAKDOWN_VALUE ? -1 : a < b ? -1 : a > b ? 1 : 0,
      )
    : [""];
  const formula = spec.formula ? parseFormula(spec.formula, spec.series.length) : null;
  const change = (cur: number | null, prev: number | null) =>
    cur === null || prev === null || prev === 0 ? null : ((cur - prev) / Math.abs(prev)) * 100;
  const results: TrendsAnswer["results"] = [];
  for (const v of sorted) {
    const rows = perSeries.map(({ s, evs, earlier, bv }, i) => {
      const mine = evs.filter((e) => bv(e) === v);
      const total = mathOf(s.math, mine);
      const row: TrendsAnswer["results"][number] = {
        series: `${String.fromCharCode(65 + i)}: ${s.event}`,
        series_index: i,
        ...(spec.breakdown ? { breakdown_value: v } : {}),
        total,
        data: DAY_LABELS.map((date) => ({
          date,
          value: mathOf(
            s.math,
            mine.filter((e) => dayOf(e) === date),
          ),
        })),
      };
      if (spec.comparison) {
        const prev = earlier.filter((e) => bv(e) === v);
        const prevTotal = mathOf(
          s.math,
          prev.filter((e) => cmpCut === null || wall(e.ts) < cmpCut),
        );
        row.comparison = {
          total: prevTotal,
          change: change(total, prevTotal),
          data: cmpDays.map((date) => ({
            date,
            value: mathOf(
              s.math,
              prev.filter((e) => dayOf(e) === date),
            ),
          })),
        };
      }
      return row;
    });
    const silent = (r: TrendsAnswer["results"][number]) =>
      (r.total === null || r.total === 0) &&
      (r.comparison === undefined || r.comparison.total === null || r.comparison.total === 0);
    if (spec.breakdown && rows.every(silent)) continue;
    if (!formula) {
      results.push(...rows);
      continue;
    }
    const total = evalFormula(
      formula,
      rows.map((r) => r.total),
    );
    const prevTotal = evalFormula(
      formula,
      rows.map((r) => r.comparison?.total ?? null),
    );
    results.push({
      series: "formula",
      series_index: null,
      ...(spec.breakdown ? { breakdown_value: v } : {}),
      total,
      data: DAY_LABELS.map((date, j) => ({
        date,
        value: evalFormula(
          formula,
          rows.map((r) => r.data[j]?.value ?? null),
        ),
      })),
      ...(spec.comparison
        ? {
            comparison: {
              total: prevTotal,
              change: change(total, prevTotal),
              data: cmpDays.map((date, j) => ({
                date,
                value: evalFormula(
                  formula,
                  rows.map((r) => r.comparison?.data[j]?.value ?? null),
                ),
              })),
            },
          }
        : {}),
    });
  }
  if (!spec.comparison) return { kind: "trends", results };
  return {
    kind: "trends",
    results,
    comparison: { type: spec.comparison, first_day: cmpDays[0] as string, last_day: cmpDays[4] as string },
  };
}

/** Sums and averages of doubles differ in the last bits by summation order. */
const round = (v: number | null) => (v === null ? null : Math.round(v * 1e6) / 1e6);
const roundPoints = (data: { date: string; value: number | null }[]) => data.map((p) => ({ ...p, value: round(p.value) }));
/** The change (rounded to 0.1 by the answer) is checked apart, within that rounding. */
const rounded = (a: TrendsAnswer) => ({
  comparison: a.comparison,
  results: a.results.map((r) => ({
    ...r,
    total: round(r.total),
    data: roundPoints(r.data),
    ...(r.comparison
      ? {
          comparison: {
            total: round(r.comparison.total),
            change: r.comparison.change === null,
            data: roundPoints(r.comparison.data),
          },
        }
      : {}),
  })),
});
const changes = (a: TrendsAnswer) => a.results.map((r) => r.comparison?.change ?? null);

const ENGINES = await testEngines();

describe.each(ENGINES)("runTrends on $name agrees with the plain-TypeScript model", (engine) => {
  let store: TestStore;
  let run = 0;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("trends-model");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });
  it.skipIf(engine.skip !== undefined)("on random traffic and random specs", { timeout: 120_000 }, async () => {
    await fc.assert(
      // Dense traffic for a plain breakdown (fast-check keeps arrays short): visitors with two
      // values outside the top N in one bucket, which is what the breakdown rollups must not count twice.
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 0, maxLength: 60 }),
        specArb,
        fc.array(eventArb, { minLength: 25, maxLength: 60 }),
        async (sparse, s, dense) => {
          const property = `trends-${++run}`;
          const raw = s.plain && s.plainBreakdown ? dense : sparse;
          const events = raw.map((r, i) =>
            event({
              property,
              ts: new Date(T0 + r.minute * 60_000),
              name: r.name,
              path: r.path,
              visitor_id: `v${r.visitor}`,
              session_id: `v${r.visitor}-${i}`,
              country: r.country,
              ...(r.yearAgo ? { ts: new Date(T0 - YEAR + r.minute * 60_000) } : {}),
              revenue: r.revenue,
              props: {
                ...(r.plan ? { plan: r.plan } : {}),
                ...(r.amount ? { amount: r.amount } : {}),
              },
            }),
          );
          if (events.length > 0) await store.append(events);
          await store.sync();
          const formula = s.formula?.includes("B") && s.series.length < 2 ? undefined : s.formula;
          const series = s.series.map((x) => ({
            event: x.event,
            math: x.math,
            ...(x.filters ? { filters: x.filters } : {}),
            ...(["sum", "avg", "min", "max", "median"].includes(x.math) ? { math_property: "amount" } : {}),
          }));
          const spec: TrendsSpecInput = {
            kind: "trends",
            period: "custom",
            date: "2024-03-06,2024-03-10",
            interval: "day",
            series: s.plain ? s.series.map((x) => ({ event: x.event, math: x.count as "total" })) : series,
            ...(s.filters && !s.plain ? { filters: s.filters } : {}),
            ...(s.breakdown && !s.plain ? { breakdown: s.breakdown as "country", breakdown_limit: s.breakdown_limit } : {}),
            ...(s.plainBreakdown && s.plain ? { breakdown: s.plainBreakdown, breakdown_limit: s.breakdown_limit } : {}),
            ...(formula ? { formula } : {}),
            ...(s.comparison ? { comparison: s.comparison as "previous_period" } : {}),
          };
          const ctx = { timezone: TZ, now: s.nowInside ? NOW_INSIDE : NOW };
          const answer = await runTrends(store, property, spec, { ...ctx, dayRollups: false });
          const expected = model(events, spec, s.nowInside);
          expect(rounded(answer)).toEqual(rounded(expected));
          const want = changes(expected);
          changes(answer).forEach((c, i) => {
            const w = want[i] ?? null;
            if (c === null || w === null) expect(c).toBe(w);
            else expect(Math.abs(c - w)).toBeLessThanOrEqual(0.05 + 1e-9);
          });
          // The insights' rollups are DuckDB's (ClickHouse's day rows serve stats only: stats-model.test.ts).
          if (store.dialect !== "duckdb" || !store.buildDayRollups || events.length === 0) return;
          // From the activity rollups (DuckDB), whole or up to a mark anywhere in the range (the rest
          // from events): what events alone answer, by day and by the random interval.
          await store.buildDayRollups(property, TZ);
          for (const interval of ["day", s.interval ?? "day"] as const) {
            const asked = { ...spec, interval };
            const plain = await runTrends(store, property, asked, { ...ctx, dayRollups: false });
            for (const through of [store.dayRollupThrough?.(property, TZ), midnightAtOrBefore(TZ, T0 + s.mark * DAY)]) {
              const capped: EventReader = { ...store, dayRollupThrough: () => through };
              expect(await runTrends(capped, property, asked, ctx)).toEqual(plain);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
