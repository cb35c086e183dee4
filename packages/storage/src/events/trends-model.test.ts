// runTrends on every event engine (DuckDB, ClickHouse) against a plain-TypeScript model of DESIGN.md §4 Trends: random small
// traffic (events before, inside and after a range that spans a DST change) and random trends
// specs (maths, per-series and global filters, a breakdown with top N + "$other", a formula),
// answered once by the compiled SQL and once by reading the events in memory. Any difference is a
// bug in one of the two.
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
import { event } from "./fixtures.js";
import { type TestStore, testEngines } from "./test-engines.js";
import { runTrends } from "./trends.js";

const TZ = "America/New_York";
const DAY = 86_400_000;
const T0 = Date.parse("2024-03-01T05:00:00Z");
const NOW = new Date(T0 + 20 * DAY);
/** Days 5-9 of the traffic, local; the DST change (10 March) makes the last day 23 hours long. */
const FROM = Date.parse("2024-03-06T05:00:00Z");
const TO = Date.parse("2024-03-11T04:00:00Z");
const DAY_LABELS = ["2024-03-06", "2024-03-07", "2024-03-08", "2024-03-09", "2024-03-10"];

const eventArb = fc.record({
  visitor: fc.integer({ min: 0, max: 5 }),
  minute: fc.integer({ min: 0, max: 15 * 24 * 60 - 1 }),
  name: fc.constantFrom("pageview", "pageview", "signup", "purchase"),
  path: fc.constantFrom("/", "/a", "/b"),
  country: fc.constantFrom("US", "DE", "FR", ""),
  plan: fc.constantFrom(undefined, "pro", "team", "free"),
  amount: fc.constantFrom(undefined, "3", "4.5", "-2", "10", "abc"),
  revenue: fc.constantFrom(0, 0, 5, 12.5),
});

const FILTERS = ["", "country==US|DE", "page!=/a", "prop:plan==pro", "prop:plan!=team", "page~b"];
const seriesArb = fc.record({
  event: fc.constantFrom("pageview", "signup", "purchase"),
  math: fc.constantFrom(...TRENDS_MATHS),
  filters: fc.constantFrom(...FILTERS),
});
const specArb = fc.record({
  series: fc.array(seriesArb, { minLength: 1, maxLength: 2 }),
  filters: fc.constantFrom("", "country!=FR", "prop:plan!~e"),
  breakdown: fc.constantFrom(undefined, "country", "prop:plan", "page"),
  breakdown_limit: fc.constantFrom(1, 2, 10),
  formula: fc.constantFrom(undefined, "A*2", "A+B", "A/B*100", "(A-B)/2"),
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

function model(events: EventRow[], input: TrendsSpecInput): TrendsAnswer {
  const spec = TrendsSpecSchema.parse(input);
  const global = parseFilters(spec.filters ?? "");
  const dayOf = (t: number) => {
    for (let i = 4; i >= 0; i--) if (t >= FROM + i * DAY) return i;
    return 0;
  };
  const perSeries = spec.series.map((s) => {
    const own = parseFilters(s.filters ?? "");
    const evs = events.filter(
      (e) => e.ts.getTime() >= FROM && e.ts.getTime() < TO && e.name === s.event && [...global, ...own].every((f) => keeps(e, f)),
    );
    const raw = (e: EventRow) => (spec.breakdown ? (rowValue(e, spec.breakdown) ?? "") : "");
    const counts = new Map<string, number>();
    for (const e of evs) counts.set(raw(e), (counts.get(raw(e)) ?? 0) + 1);
    const top = new Set(
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, spec.breakdown_limit ?? 10)
        .map(([v]) => v),
    );
    const bv = (e: EventRow) => (spec.breakdown ? (top.has(raw(e)) ? raw(e) : OTHER_BREAKDOWN_VALUE) : "");
    return { s, evs, bv };
  });
  const values = new Set(perSeries.flatMap((x) => x.evs.map(x.bv)));
  const sorted = spec.breakdown
    ? [...values].sort((a, b) =>
        a === OTHER_BREAKDOWN_VALUE ? 1 : b === OTHER_BREAKDOWN_VALUE ? -1 : a < b ? -1 : a > b ? 1 : 0,
      )
    : [""];
  const formula = spec.formula ? parseFormula(spec.formula, spec.series.length) : null;
  const results: TrendsAnswer["results"] = [];
  for (const v of sorted) {
    const rows = perSeries.map(({ s, evs, bv }, i) => {
      const mine = evs.filter((e) => bv(e) === v);
      return {
        series: `${String.fromCharCode(65 + i)}: ${s.event}`,
        series_index: i,
        ...(spec.breakdown ? { breakdown_value: v } : {}),
        total: mathOf(s.math, mine),
        data: DAY_LABELS.map((date, d) => ({
          date,
          value: mathOf(
            s.math,
            mine.filter((e) => dayOf(e.ts.getTime()) === d),
          ),
        })),
      };
    });
    if (spec.breakdown && rows.every((r) => r.total === null || r.total === 0)) continue;
    if (!formula) {
      results.push(...rows);
      continue;
    }
    results.push({
      series: "formula",
      series_index: null,
      ...(spec.breakdown ? { breakdown_value: v } : {}),
      total: evalFormula(
        formula,
        rows.map((r) => r.total),
      ),
      data: DAY_LABELS.map((date, j) => ({
        date,
        value: evalFormula(
          formula,
          rows.map((r) => r.data[j]?.value ?? null),
        ),
      })),
    });
  }
  return { kind: "trends", results };
}

/** Sums and averages of doubles differ in the last bits by summation order. */
const rounded = (a: TrendsAnswer) =>
  a.results.map((r) => ({
    ...r,
    total: r.total === null ? null : Math.round(r.total * 1e6) / 1e6,
    data: r.data.map((p) => ({ ...p, value: p.value === null ? null : Math.round(p.value * 1e6) / 1e6 })),
  }));

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
      fc.asyncProperty(fc.array(eventArb, { minLength: 0, maxLength: 60 }), specArb, async (raw, s) => {
        const property = `trends-${++run}`;
        const events = raw.map((r, i) =>
          event({
            property,
            ts: new Date(T0 + r.minute * 60_000),
            name: r.name,
            path: r.path,
            visitor_id: `v${r.visitor}`,
            session_id: `v${r.visitor}-${i}`,
            country: r.country,
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
          series,
          ...(s.filters ? { filters: s.filters } : {}),
          ...(s.breakdown ? { breakdown: s.breakdown as "country", breakdown_limit: s.breakdown_limit } : {}),
          ...(formula ? { formula } : {}),
        };
        const answer = await runTrends(store, property, spec, { timezone: TZ, now: NOW });
        expect(rounded(answer)).toEqual(rounded(model(events, spec)));
      }),
      { numRuns: 60 },
    );
  });
});
