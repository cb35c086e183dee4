// The trends compiler's printed SQL for both dialects (file snapshots under
// __snapshots__/sql/<dialect>/trends-*.sql) and the safety rules of DESIGN.md §6 on it: the
// property predicate on every table read, every value bound, a LIMIT cap. The numbers are checked
// against a plain-TypeScript model on DuckDB (packages/storage trends-model.test.ts).
import { type TrendsSpecInput, TrendsSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import type { SqlDialect } from "../dialects.js";
import { QueryError } from "../errors.js";
import { CTX, MARK, PROPERTY, v } from "../sql-cases.js";
import { prettySql, sqlProblems } from "../sql-checks.js";
import { type CompiledTrends, compileTrends } from "./trends.js";
import { breakdownRollupDim, trendsBreakdownRollupTo } from "./trends-breakdown-rollup.js";
import { trendsRollupTo } from "./trends-rollup.js";

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
/** Series × (top N + "$other") × (buckets + total) of both periods when there is a comparison. */
const CAP = 10 * 26 * 1501 * 2;
/** A prop key with a quote but without the grammar's operator characters. */
const KEY = `${MARK}k' OR 1 --`;

const CASES: Record<string, Omit<TrendsSpecInput, "kind">> = {
  "trends-two-series-formula": {
    period: "last_30_days",
    interval: "day",
    series: [{ event: "pageview", math: "unique_visitors", filters: "page==/pricing" }, { event: "signup" }],
    filters: "country==DE|FR",
    formula: "B/A*100",
  },
  "trends-breakdown-prop-median": {
    period: "last_7_days",
    interval: "hour",
    series: [{ event: "purchase", math: "median", math_property: "amount" }],
    breakdown: "prop:plan",
    breakdown_limit: 5,
  },
  "trends-revenue-by-country-week": {
    period: "last_90_days",
    interval: "week",
    series: [{ event: "purchase", math: "revenue", filters: "prop:coupon!=FREE" }],
    breakdown: "country",
  },
  "trends-compare-previous-period-breakdown": {
    period: "last_7_days",
    interval: "day",
    series: [{ event: "pageview", math: "unique_visitors" }, { event: "signup" }],
    breakdown: "country",
    breakdown_limit: 3,
    formula: "B/A*100",
    comparison: "previous_period",
  },
  // March 2024 vs March 2023: each crosses its own spring-forward change (31 and 26 March).
  "trends-compare-year-over-year": {
    period: "last_month",
    interval: "week",
    series: [{ event: "purchase", math: "sum", math_property: "amount" }],
    comparison: "year_over_year",
  },
};

const compile = (s: Omit<TrendsSpecInput, "kind">, dialect: SqlDialect): CompiledTrends =>
  compileTrends(TrendsSpecSchema.parse({ kind: "trends", ...s }), PROPERTY, dialect, CTX);

function snapshotText(c: CompiledTrends): string {
  const head = Object.entries(c.params)
    .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`)
    .join("\n");
  return `${head}\n${prettySql(c.sql)}\n`;
}

describe("trends SQL", () => {
  for (const dialect of DIALECTS) {
    for (const [name, spec] of Object.entries(CASES)) {
      it(`${dialect}: ${name}`, async () => {
        const c = compile(spec, dialect);
        expect(sqlProblems(c, dialect, PROPERTY, CAP)).toEqual([]);
        await expect(snapshotText(c)).toMatchFileSnapshot(`../__snapshots__/sql/${dialect}/${name}.sql`);
      });
    }
  }

  it("clickhouse: a series reads its events once, both periods of a comparison in that read (states per bucket, the total merged), its top values once more", () => {
    // 18.16 computes every subquery reference again: each statement of a period was a scan of events.
    const reads = (c: CompiledTrends) => c.sql.match(/FROM events WHERE/g)?.length ?? 0;
    // Filtered by a prop: not from the event slots.
    const plain: Omit<TrendsSpecInput, "kind"> = {
      period: "last_30_days",
      interval: "day",
      series: [{ event: "pageview", math: "unique_visitors", filters: "prop:plan==pro" }],
    };
    expect(reads(compile(plain, "clickhouse"))).toBe(1);
    expect(reads(compile({ ...plain, comparison: "previous_period" }, "clickhouse"))).toBe(1);
    expect(reads(compile({ ...plain, breakdown: "prop:plan", comparison: "year_over_year" }, "clickhouse"))).toBe(2);
    // The median has no state that merges: buckets and total read apart.
    const median: Omit<TrendsSpecInput, "kind"> = {
      ...plain,
      series: [{ event: "purchase", math: "median", math_property: "amount" }],
    };
    expect(reads(compile(median, "clickhouse"))).toBe(2);
    expect(reads(compile({ ...plain, series: [{ event: "pageview", math: "total" }] }, "duckdb"))).toBe(2);
  });

  it("clickhouse: an unfiltered count reads event slots for whole quarter hours and events only for the pieces at the ends", () => {
    const events = (c: CompiledTrends) => c.sql.match(/FROM events WHERE/g)?.length ?? 0;
    const slots = (c: CompiledTrends) => c.sql.match(/FROM event_slots WHERE/g)?.length ?? 0;
    const plain: Omit<TrendsSpecInput, "kind"> = {
      period: "last_30_days",
      interval: "day",
      series: [{ event: "pageview", math: "unique_visitors" }],
    };
    // The range's ends are local midnights: all slots.
    const whole = compile(plain, "clickhouse");
    expect([events(whole), slots(whole)]).toEqual([0, 1]);
    // A running comparison's earlier total stops at now's quarter-hour piece: read from events.
    const spec = TrendsSpecSchema.parse({
      kind: "trends",
      ...plain,
      period: "today",
      interval: "hour",
      comparison: "previous_period",
    });
    const compared = compileTrends(spec, PROPERTY, "clickhouse", { ...CTX, now: new Date("2024-04-03T10:37:12Z") });
    expect([events(compared), slots(compared)]).toEqual([1, 1]);
    // A breakdown the slots keep reads its top values from them too; a prop's reads events.
    const country = compile({ ...plain, breakdown: "country" }, "clickhouse");
    expect([events(country), slots(country)]).toEqual([0, 2]);
    const prop = compile({ ...plain, breakdown: "prop:plan" }, "clickhouse");
    expect([events(prop), slots(prop)]).toEqual([2, 0]);
    // Filters on one kept column (the breakdown's, if any) read that column's rows whose value matches.
    const filtered = compile({ ...plain, filters: "country==DE|FR", breakdown: "country" }, "clickhouse");
    expect([events(filtered), slots(filtered)]).toEqual([0, 2]);
    expect(filtered.sql).toMatch(/dim = \{p\d+:String\} AND .*value IN \(/);
    const negated = compile({ ...plain, series: [{ event: "pageview", math: "total", filters: "page!~/blog" }] }, "clickhouse");
    expect([events(negated), slots(negated)]).toEqual([0, 1]);
    // Filters on two columns, or on another column than the breakdown's, read events.
    for (const c of [
      compile({ ...plain, filters: "country==DE;browser==Firefox" }, "clickhouse"),
      compile({ ...plain, filters: "country==DE", breakdown: "browser" }, "clickhouse"),
    ])
      expect([events(c) > 0, slots(c)]).toEqual([true, 0]);
    // Other maths, minute buckets and DuckDB do not.
    for (const c of [
      compile({ ...plain, series: [{ event: "purchase", math: "sum", math_property: "amount" }] }, "clickhouse"),
      compile({ ...plain, period: "today", interval: "minute" }, "clickhouse"),
      compile(plain, "duckdb"),
    ])
      expect(slots(c)).toBe(0);
  });

  it("duckdb: trends-rollup (a plain series' days before the mark from the activity rollups, today from events)", async () => {
    const spec = TrendsSpecSchema.parse({
      kind: "trends",
      period: "last_30_days",
      interval: "week",
      series: [
        { event: "pageview", math: "unique_visitors" },
        { event: "signup", math: "total", filters: "country==DE" },
      ],
    });
    const through = Date.parse("2024-04-02T22:00:00Z"); // Berlin's midnight starting 3 April
    const c = compileTrends(spec, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: through });
    expect(sqlProblems(c, "duckdb", PROPERTY, 10_000)).toEqual([]);
    await expect(snapshotText(c)).toMatchFileSnapshot("../__snapshots__/sql/duckdb/trends-rollup.sql");
  });

  it("duckdb: trends-breakdown-rollup (by a visit attribute: the days before the mark from the breakdown rollups, today from events)", async () => {
    const spec = TrendsSpecSchema.parse({
      kind: "trends",
      period: "last_30_days",
      interval: "day",
      series: [
        { event: "pageview", math: "unique_visitors" },
        { event: "signup", math: "total", filters: "page==/pricing" },
      ],
      breakdown: "city",
      breakdown_limit: 3,
    });
    const through = Date.parse("2024-04-02T22:00:00Z");
    const c = compileTrends(spec, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: through });
    expect(c.sql).toContain("breakdown_rollup");
    expect(sqlProblems(c, "duckdb", PROPERTY, 10_000)).toEqual([]);
    await expect(snapshotText(c)).toMatchFileSnapshot("../__snapshots__/sql/duckdb/trends-breakdown-rollup.sql");
  });

  it("reads the breakdown rollups for counts of one unfiltered event broken down by a visit attribute, by day or longer", () => {
    const o = {
      rollups: true,
      interval: "week" as const,
      range: { from: Date.parse("2024-03-04T23:00:00Z"), to: Date.parse("2024-04-03T22:00:00Z") },
      through: Date.parse("2024-04-02T22:00:00Z"),
      timezone: "Europe/Berlin",
    };
    const series = { math: "avg_per_visitor" as const, event: "pageview" };
    expect(breakdownRollupDim("device")).toBe("device");
    for (const dim of [
      "source",
      "utm_campaign",
      "page",
      "event_name",
      "entry_page",
      "exit_page",
      "prop:plan",
      undefined,
    ] as const) {
      expect(breakdownRollupDim(dim)).toBeNull();
      expect(trendsBreakdownRollupTo({ breakdown: dim }, series, o)).toBeNull();
    }
    expect(trendsBreakdownRollupTo({ breakdown: "country" }, series, o)).toBe(o.through);
    expect(trendsBreakdownRollupTo({ breakdown: "country" }, { ...series, math: "median" }, o)).toBeNull();
    expect(trendsBreakdownRollupTo({ breakdown: "country" }, { ...series, event: "engagement" }, o)).toBeNull();
    expect(trendsBreakdownRollupTo({ breakdown: "country" }, { ...series, event: "signup" }, o)).toBe(o.through);
    expect(trendsBreakdownRollupTo({ breakdown: "country" }, { ...series, filters: "page==/" }, o)).toBeNull();
    expect(trendsBreakdownRollupTo({ breakdown: "country", filters: "browser==Firefox" }, series, o)).toBeNull();
    expect(trendsBreakdownRollupTo({ breakdown: "country" }, series, { ...o, interval: "hour" })).toBeNull();
    expect(trendsBreakdownRollupTo({ breakdown: "country" }, series, { ...o, rollups: false })).toBeNull();
    // A comparison reads them for its own period too, with the current period's top values.
    const compared = TrendsSpecSchema.parse({
      kind: "trends",
      period: "last_30_days",
      series: [{ event: "pageview", math: "unique_visitors" }],
      breakdown: "country",
      comparison: "previous_period",
    });
    const sql = compileTrends(compared, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: o.through }).sql;
    expect(sql).toContain("brr0p");
    expect(sql).toContain("brr0q");
    expect(sql).not.toContain("brt0p");
    // ClickHouse keeps no rollups: the same spec prints its events statement there.
    const spec = TrendsSpecSchema.parse({
      kind: "trends",
      period: "last_30_days",
      series: [{ event: "pageview" }],
      breakdown: "country",
    });
    expect(compileTrends(spec, PROPERTY, "clickhouse", { ...CTX, dayRollupThrough: o.through }).sql).not.toContain(
      "breakdown_rollup",
    );
  });

  it("reads the activity rollups for series counting events or visitors, unfiltered, unbroken-down, by day or longer", () => {
    const o = {
      rollups: true,
      interval: "day" as const,
      range: { from: Date.parse("2024-03-04T23:00:00Z"), to: Date.parse("2024-04-03T22:00:00Z") },
      through: Date.parse("2024-04-02T22:00:00Z"),
      timezone: "Europe/Berlin",
    };
    const series = { math: "unique_visitors" as const };
    expect(trendsRollupTo({}, series, o)).toBe(o.through);
    expect(trendsRollupTo({}, { math: "total" }, { ...o, interval: "month" })).toBe(o.through);
    expect(trendsRollupTo({}, { math: "sum" }, o)).toBeNull();
    expect(trendsRollupTo({}, { ...series, filters: "country==DE" }, o)).toBeNull();
    expect(trendsRollupTo({ filters: "page==/" }, series, o)).toBeNull();
    expect(trendsRollupTo({ breakdown: "country" }, series, o)).toBeNull();
    expect(trendsRollupTo({}, series, { ...o, interval: "hour" })).toBeNull();
    expect(trendsRollupTo({}, series, { ...o, rollups: false })).toBeNull();
    expect(trendsRollupTo({}, series, { ...o, through: undefined })).toBeNull();
    // A comparison reads them for its own period too: its buckets, and its total cut at the elapsed stretch.
    const compared = TrendsSpecSchema.parse({
      kind: "trends",
      period: "last_30_days",
      series: [{ event: "pageview", math: "unique_visitors" }],
      comparison: "previous_period",
    });
    const sql = compileTrends(compared, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: o.through }).sql;
    expect(sql).toContain("sums0p");
    expect(sql).toContain("sums0q");
  });

  it("never prints an event name, filter value, prop key or breakdown key into SQL text", () => {
    for (const dialect of DIALECTS) {
      const c = compile(
        {
          period: "last_7_days",
          series: [{ event: v("ev"), math: "sum", math_property: v("amount"), filters: `page==${v("p")};prop:${KEY}~${v("x")}` }],
          breakdown: `prop:${v("bk")}`,
          filters: `country!=${v("c")}`,
        },
        dialect,
      );
      expect(c.sql).not.toContain(MARK);
      expect(sqlProblems(c, dialect, PROPERTY, CAP)).toEqual([]);
    }
  });

  it("refuses visit-level dimensions (entry/exit page) as a 400-shaped QueryError", () => {
    expect(() => compile({ series: [{ event: "pageview", filters: "entry_page==/" }] }, "duckdb")).toThrow(QueryError);
    expect(() => compile({ series: [{ event: "pageview" }], breakdown: "exit_page" }, "clickhouse")).toThrow(QueryError);
  });

  it("compares with the period just before: its own buckets, its total cut at the elapsed stretch of a running range", () => {
    // CTX.now is 2024-04-03 12:30 in Berlin: last_7_days is 28 March..3 April (today running).
    const c = compile(
      { period: "last_7_days", interval: "day", series: [{ event: "pageview" }], comparison: "previous_period" },
      "duckdb",
    );
    expect(c.comparison?.range).toMatchObject({ firstDay: "2024-03-21", lastDay: "2024-03-27" });
    expect(c.comparison?.buckets).toEqual([
      "2024-03-21",
      "2024-03-22",
      "2024-03-23",
      "2024-03-24",
      "2024-03-25",
      "2024-03-26",
      "2024-03-27",
    ]);
    // Today until 12:30 local meets 27 March until 12:30 local (CET, before the change): 11:30 UTC.
    expect(c.comparison?.range.elapsedTo.toISOString()).toBe("2024-03-27T11:30:00.000Z");
    expect(Object.values(c.params)).toContain("2024-03-27 11:30:00");
    // The same local dates a year earlier.
    const y = compile({ period: "last_7_days", series: [{ event: "pageview" }], comparison: "year_over_year" }, "clickhouse");
    expect(y.comparison?.range).toMatchObject({ firstDay: "2023-03-28", lastDay: "2023-04-03" });
  });

  it("prints the statement without a comparison exactly as before (no period column)", () => {
    const c = compile({ period: "last_7_days", series: [{ event: "pageview" }] }, "duckdb");
    expect(c.sql).not.toContain("period");
    expect(c.comparison).toBeNull();
  });

  it("refuses a comparison of all_time, naming the field", () => {
    const r = TrendsSpecSchema.safeParse({
      kind: "trends",
      period: "all_time",
      series: [{ event: "pageview" }],
      comparison: "previous_period",
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(["comparison"]);
  });

  it("draws no bucket after the one holding now, and labels the series by letter", () => {
    const c = compile({ period: "today", interval: "hour", series: [{ event: "pageview" }, { event: "signup" }] }, "duckdb");
    // CTX.now is 12:30 in Berlin: hours 00..12.
    expect(c.buckets).toHaveLength(13);
    expect(c.seriesLabels).toEqual(["A: pageview", "B: signup"]);
  });
});
