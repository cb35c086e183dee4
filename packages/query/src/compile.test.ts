// The printed SQL of representative specs, per dialect, as file snapshots under
// __snapshots__/sql/<dialect>/<case>.sql (laid out by prettySql; the params head each file), and
// the compiler's safety rules (DESIGN.md §6) checked on those and on random specs: every table read
// has the property predicate, every value is a bound parameter, every result has a LIMIT cap.
import {
  BASE_DIMENSIONS,
  COMPARISONS,
  DATE_PRESETS,
  type Dimension,
  FILTER_OPS,
  INTERVALS,
  METRICS,
  QUERY_KINDS,
  QUERY_LIMITS,
  type QuerySpecInput,
  QuerySpecSchema,
} from "@lookout/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CompileContext, compileQuery } from "./compile.js";
import type { SqlDialect } from "./dialects.js";
import { midnightAtOrBefore } from "./day-rollup.js";
import { QueryError } from "./errors.js";
import { prettySql, sqlProblems } from "./sql-checks.js";

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
/** A marker that must never reach SQL text: each value the tests pass contains it. */
const MARK = "Qx7Mark";
const PROPERTY = `${MARK}Prop`;
/** Berlin, a few days after the spring-forward change, so the 90-day charts span it. */
const CTX: CompileContext = { timezone: "Europe/Berlin", now: new Date("2024-04-03T10:30:00Z") };
const MAX_ROWS = 2 * 1500;

const v = (s: string) => `${MARK}${s}' OR '1'='1`;

/** A spec without its property: the tests' own is filled in. */
type SpecIn = Omit<QuerySpecInput, "property"> & { property?: string };

function compile(spec: SpecIn, dialect: SqlDialect, ctx: CompileContext = CTX) {
  return compileQuery(QuerySpecSchema.parse({ property: PROPERTY, ...spec }), dialect, ctx);
}

/** A snapshot file's text: the bound parameters, then the SQL laid out by prettySql. */
function snapshotText(c: ReturnType<typeof compileQuery>): string {
  const head = Object.entries(c.params)
    .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`)
    .join("\n");
  return `${head}\n${prettySql(c.sql)}\n`;
}

const CASES: Record<string, QuerySpecInput> = {
  aggregate_all_metrics_previous_period: {
    kind: "aggregate",
    property: PROPERTY,
    date_range: { preset: "last_7_days" },
    comparison: "previous_period",
    metrics: [...METRICS],
    goal: v("goal"),
  },
  aggregate_year_over_year: {
    kind: "aggregate",
    property: PROPERTY,
    date_range: { preset: "month_to_date" },
    comparison: "year_over_year",
    metrics: ["visitors", "visits", "pageviews"],
  },
  aggregate_custom_no_comparison: {
    kind: "aggregate",
    property: PROPERTY,
    date_range: { preset: "custom", from: "2024-01-01", to: "2024-01-31" },
    metrics: ["visitors", "bounce_rate", "visit_duration"],
  },
  timeseries_minute_today: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "today" },
    interval: "minute",
    metrics: ["visitors", "pageviews"],
  },
  timeseries_hour_yesterday: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "yesterday" },
    interval: "hour",
    metrics: ["visitors", "visits"],
  },
  timeseries_day_previous_period: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "last_30_days" },
    interval: "day",
    comparison: "previous_period",
    metrics: ["visitors", "pageviews", "bounce_rate"],
  },
  timeseries_week_dst: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "last_90_days" },
    interval: "week",
    metrics: ["visitors"],
  },
  timeseries_month_year_over_year: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "last_12_months" },
    interval: "month",
    comparison: "year_over_year",
    metrics: ["visitors", "conversions"],
    goal: v("goal"),
  },
  breakdown_session_source: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["source"],
    metrics: ["visitors", "visits", "bounce_rate", "visit_duration"],
    limit: 10,
    offset: 20,
  },
  breakdown_session_country_filtered_same: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["country"],
    metrics: ["visitors"],
    filters: [{ dimension: "country", op: "is", values: [v("country")] }],
  },
  breakdown_entry_page: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["entry_page"],
    metrics: ["visitors", "bounce_rate"],
    order: { by: "bounce_rate", direction: "asc" },
  },
  breakdown_page: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["page"],
    metrics: ["visitors", "pageviews", "time_on_page", "bounce_rate", "events"],
  },
  breakdown_page_filtered_by_page: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["page"],
    metrics: ["visitors", "pageviews"],
    filters: [
      { dimension: "page", op: "contains", values: [v("blog")] },
      { dimension: "page", op: "is_not", values: [v("/admin")] },
    ],
  },
  breakdown_event_name: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["event_name"],
    metrics: ["visitors", "events", "conversion_rate"],
    goal: v("goal"),
    order: { by: "dimension", direction: "asc" },
  },
  breakdown_event_name_with_prop_filter: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["event_name"],
    metrics: ["visitors", "events"],
    filters: [{ dimension: `prop:${MARK}plan`, op: "is", values: [v("pro")] }],
  },
  breakdown_prop: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: [`prop:${MARK}plan` as Dimension],
    metrics: ["visitors", "events", "pageviews", "bounce_rate"],
  },
  filters_is_and_is_not_session: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "visits"],
    filters: [
      { dimension: "country", op: "is", values: [v("DE"), v("FR")] },
      { dimension: "device", op: "is_not", values: [v("mobile")] },
    ],
  },
  filters_contains_not_contains_session: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors"],
    filters: [
      { dimension: "referrer", op: "contains", values: [v("google"), v("bing")] },
      { dimension: "utm_campaign", op: "not_contains", values: [v("spam")] },
    ],
  },
  filters_matches_session_and_page: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "pageviews", "time_on_page"],
    filters: [
      { dimension: "browser", op: "matches", values: [`^${MARK}(Chrome|Edge)$`] },
      { dimension: "page", op: "matches", values: [`^/${MARK}docs/.*`] },
    ],
  },
  filters_negative_page: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "pageviews", "bounce_rate"],
    filters: [
      { dimension: "page", op: "is_not", values: [v("/pricing")] },
      { dimension: "page", op: "not_contains", values: [v("admin")] },
    ],
  },
  filters_event_name_positive_and_negative: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "events"],
    filters: [
      { dimension: "event_name", op: "is", values: [v("signup")] },
      { dimension: "event_name", op: "is_not", values: [v("refund")] },
    ],
  },
  filters_prop_each_op: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "events"],
    filters: [
      { dimension: `prop:${MARK}plan`, op: "is", values: [v("pro")] },
      { dimension: `prop:${MARK}plan`, op: "is_not", values: [v("free")] },
      { dimension: `prop:${MARK}src`, op: "contains", values: [v("form")] },
      { dimension: `prop:${MARK}src`, op: "not_contains", values: [v("api")] },
      { dimension: `prop:${MARK}ab`, op: "matches", values: [`^${MARK}v[0-9]+$`] },
    ],
  },
  goal_conversions_filtered: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "conversions", "conversion_rate"],
    goal: v("purchase"),
    filters: [{ dimension: "channel", op: "is", values: [v("search")] }],
  },
  goal_conversions_by_source: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["source"],
    metrics: ["visitors", "conversions", "conversion_rate"],
    goal: v("purchase"),
    order: { by: "conversions", direction: "desc" },
  },
};

describe("printed SQL", () => {
  for (const dialect of DIALECTS) {
    for (const [name, spec] of Object.entries(CASES)) {
      it(`${dialect}: ${name}`, async () => {
        const c = compile(spec, dialect);
        expect(sqlProblems(c, dialect, PROPERTY, MAX_ROWS)).toEqual([]);
        expect(c.sql).not.toContain(MARK);
        await expect(snapshotText(c)).toMatchFileSnapshot(`./__snapshots__/sql/${dialect}/${name}.sql`);
      });
    }
  }

  it("never prints a filter value, goal, prop key or property into SQL text", () => {
    const nasty = [`'; DROP TABLE events; --`, `\\' OR 1=1 --`, `$p1`, `{p1:String}`, `") OR ("1"="1`];
    for (const dialect of DIALECTS) {
      for (const value of nasty) {
        const c = compile(
          {
            kind: "breakdown",
            dimensions: [`prop:${value}` as Dimension],
            metrics: ["visitors", "conversions"],
            goal: value,
            filters: [
              { dimension: "page", op: "is", values: [value] },
              { dimension: "country", op: "contains", values: [value] },
              { dimension: "event_name", op: "not_contains", values: [value] },
            ],
          },
          dialect,
        );
        expect(Object.values(c.params)).toContain(value);
        expect(sqlProblems(c, dialect, PROPERTY, MAX_ROWS)).toEqual([]);
        if (!value.startsWith("$") && !value.startsWith("{")) expect(c.sql).not.toContain(value);
      }
    }
  });

  it("binds a value once however often it is used", () => {
    const c = compile(
      {
        kind: "aggregate",
        metrics: ["visitors"],
        filters: [
          { dimension: "country", op: "is", values: [v("x")] },
          { dimension: "region", op: "is", values: [v("x")] },
        ],
      },
      "duckdb",
    );
    expect(Object.values(c.params).filter((x) => x === v("x"))).toHaveLength(1);
    expect(Object.values(c.params).filter((x) => x === PROPERTY)).toHaveLength(1);
  });

  it("caps every result: breakdown limit and offset, one row per period, one per bucket", () => {
    for (const dialect of DIALECTS) {
      const b = compile({ kind: "breakdown", dimensions: ["country"], limit: 25, offset: 50 }, dialect);
      expect(b.sql).toMatch(dialect === "duckdb" ? /LIMIT 25 OFFSET 50$/ : /LIMIT 50, 25$/);
      const a = compile({ kind: "aggregate", comparison: "previous_period" }, dialect);
      expect(a.sql).toMatch(dialect === "duckdb" ? /LIMIT 2$/ : /LIMIT 0, 2$/);
      const t = compile({ kind: "timeseries", interval: "day", comparison: "previous_period" }, dialect);
      expect(t.buckets).toHaveLength(7);
      expect(t.comparisonBuckets).toHaveLength(7);
      expect(t.sql).toMatch(dialect === "duckdb" ? /LIMIT 14$/ : /LIMIT 0, 14$/);
    }
  });

  it("picks the fast visitor count only where it is exact", () => {
    const fast = (spec: SpecIn) => /prev_/.test(compile(spec, "duckdb").sql);
    expect(fast({ kind: "aggregate" })).toBe(true);
    expect(fast({ kind: "breakdown", dimensions: ["country"] })).toBe(true);
    expect(fast({ kind: "breakdown", dimensions: ["page"] })).toBe(true);
    expect(fast({ kind: "breakdown", dimensions: ["event_name"] })).toBe(true);
    expect(fast({ kind: "aggregate", filters: [{ dimension: "country", op: "is", values: ["DE"] }] })).toBe(true);
    // Several values, a negative op, a second filter or an event-level filter: COUNT(DISTINCT).
    expect(fast({ kind: "aggregate", filters: [{ dimension: "country", op: "is", values: ["DE", "FR"] }] })).toBe(false);
    expect(fast({ kind: "aggregate", filters: [{ dimension: "country", op: "is_not", values: ["DE"] }] })).toBe(false);
    expect(fast({ kind: "aggregate", filters: [{ dimension: "page", op: "is", values: ["/"] }] })).toBe(false);
    expect(
      fast({ kind: "breakdown", dimensions: ["country"], filters: [{ dimension: "device", op: "is", values: ["mobile"] }] }),
    ).toBe(false);
    expect(fast({ kind: "breakdown", dimensions: ["prop:plan"] })).toBe(false);
    // ClickHouse never has prev_* columns.
    expect(/prev_/.test(compile({ kind: "aggregate" }, "clickhouse").sql)).toBe(false);
  });
});

describe("day rollups", () => {
  /** Day rows up to three days before "now" (Berlin, spring-forward inside the 90 days). */
  const DAYS: CompileContext = { ...CTX, dayRollupThrough: Date.parse("2024-03-30T23:00:00Z") };
  const uses = (spec: SpecIn, ctx: CompileContext = DAYS) => compile(spec, "duckdb", ctx).sql.includes("day_rollup");
  const cases: Record<string, SpecIn> = {
    aggregate_previous_period: {
      kind: "aggregate",
      date_range: { preset: "last_90_days" },
      comparison: "previous_period",
      metrics: ["visitors", "visits", "pageviews", "views_per_visit", "bounce_rate", "visit_duration"],
    },
    timeseries_day: {
      kind: "timeseries",
      date_range: { preset: "last_90_days" },
      interval: "day",
      metrics: ["visitors", "pageviews"],
    },
    breakdown_page: {
      kind: "breakdown",
      date_range: { preset: "last_90_days" },
      dimensions: ["page"],
      metrics: ["visitors", "pageviews", "time_on_page"],
    },
    breakdown_event_name: {
      kind: "breakdown",
      date_range: { preset: "last_30_days" },
      dimensions: ["event_name"],
      metrics: ["visitors", "events"],
    },
  };
  for (const [name, spec] of Object.entries(cases)) {
    it(`duckdb: day_rollups_${name}`, async () => {
      const c = compile(spec, "duckdb", DAYS);
      expect(c.sql).toContain("day_rollup");
      expect(sqlProblems(c, "duckdb", PROPERTY, MAX_ROWS)).toEqual([]);
      await expect(snapshotText(c)).toMatchFileSnapshot(`./__snapshots__/sql/duckdb/day_rollups_${name}.sql`);
    });
  }

  it("are read only where their rows answer the query exactly", () => {
    expect(uses({ kind: "aggregate" })).toBe(true);
    expect(uses({ kind: "breakdown", dimensions: ["country"] })).toBe(true);
    expect(uses({ kind: "timeseries", interval: "week", date_range: { preset: "last_90_days" } })).toBe(true);
    expect(uses({ kind: "timeseries", interval: "month", date_range: { preset: "last_12_months" } })).toBe(true);
    // Filters, goal conversions, props, hourly charts, no rows for the range: the visit rollups.
    expect(uses({ kind: "aggregate", filters: [{ dimension: "country", op: "is", values: ["DE"] }] })).toBe(false);
    expect(uses({ kind: "aggregate", metrics: ["visitors", "conversions"], goal: "signup" })).toBe(false);
    expect(uses({ kind: "breakdown", dimensions: ["prop:plan"] })).toBe(false);
    expect(uses({ kind: "timeseries", interval: "hour", date_range: { preset: "last_7_days" } })).toBe(false);
    expect(uses({ kind: "aggregate", date_range: { preset: "today" } })).toBe(false);
    expect(uses({ kind: "aggregate" }, CTX)).toBe(false);
    expect(compile({ kind: "aggregate" }, "clickhouse", DAYS).sql).not.toContain("day_rollup");
  });
});

describe("too many buckets", () => {
  const tooFine: [string, SpecIn, CompileContext?][] = [
    ["minutes over a week", { kind: "timeseries", interval: "minute", date_range: { preset: "last_7_days" } }],
    ["hours over 90 days", { kind: "timeseries", interval: "hour", date_range: { preset: "last_90_days" } }],
    [
      "days over ten years",
      { kind: "timeseries", interval: "day", date_range: { preset: "all_time" } },
      { ...CTX, earliest: new Date("2014-01-01T00:00:00Z") },
    ],
    [
      "days over a custom five years",
      { kind: "timeseries", interval: "day", date_range: { preset: "custom", from: "2019-01-01", to: "2023-12-31" } },
    ],
  ];
  for (const [name, spec, ctx] of tooFine) {
    it(`refuses ${name} with QueryError interval_too_fine`, () => {
      for (const dialect of DIALECTS) {
        let err: unknown;
        try {
          compile(spec, dialect, ctx);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(QueryError);
        expect((err as QueryError).code).toBe("interval_too_fine");
        expect((err as QueryError).message).not.toMatch(/SELECT|FROM/);
      }
    });
  }

  it("accepts the finest interval that fits", () => {
    expect(compile({ kind: "timeseries", interval: "minute", date_range: { preset: "today" } }, "duckdb").buckets).toHaveLength(
      1440,
    );
    expect(
      compile({ kind: "timeseries", interval: "hour", date_range: { preset: "last_30_days" } }, "duckdb").buckets.length,
    ).toBe(30 * 24 - 1); // the range contains the 23-hour spring-forward day
    const week = compile({ kind: "timeseries", interval: "week", date_range: { preset: "all_time" } }, "duckdb", {
      ...CTX,
      earliest: new Date("2014-01-01T00:00:00Z"),
    });
    expect(week.buckets[0]).toBe("2013-12-30");
  });
});

// --- random specs -------------------------------------------------------------------------------

const marked = (i: number) => `${MARK}${i}' OR ''='`;

const filterArb = fc.record({
  dimension: fc.oneof(
    fc.constantFrom<Dimension>(...BASE_DIMENSIONS),
    fc.nat(9).map((i): Dimension => `prop:${MARK}k${i}`),
  ),
  op: fc.constantFrom(...FILTER_OPS),
  values: fc.array(fc.nat(99).map(marked), { minLength: 1, maxLength: 3 }),
});

const specArb = fc
  .record({
    kind: fc.constantFrom(...QUERY_KINDS),
    preset: fc.constantFrom(...DATE_PRESETS),
    metrics: fc.uniqueArray(fc.constantFrom(...METRICS), { minLength: 1, maxLength: METRICS.length }),
    dimension: fc.oneof(
      fc.constantFrom<Dimension>(...BASE_DIMENSIONS),
      fc.nat(9).map((i): Dimension => `prop:${MARK}k${i}`),
    ),
    filters: fc.array(filterArb, { maxLength: 4 }),
    interval: fc.option(fc.constantFrom(...INTERVALS), { nil: undefined }),
    comparison: fc.option(fc.constantFrom(...COMPARISONS), { nil: undefined }),
    order: fc.option(fc.boolean(), { nil: undefined }),
    limit: fc.integer({ min: 1, max: QUERY_LIMITS.maxLimit }),
    offset: fc.nat(1000),
    tz: fc.constantFrom("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"),
    now: fc.date({ min: new Date("2021-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }),
    through: fc.option(fc.integer({ min: -400, max: 10 }), { nil: undefined }),
  })
  .map((r) => {
    const spec: QuerySpecInput = {
      kind: r.kind,
      property: PROPERTY,
      date_range: r.preset === "custom" ? { preset: "custom", from: "2023-02-27", to: "2023-03-28" } : { preset: r.preset },
      metrics: r.metrics,
      filters: r.filters,
      limit: r.limit,
      offset: r.offset,
    };
    if (r.kind === "breakdown") spec.dimensions = [r.dimension];
    if (r.kind === "timeseries" && r.interval) spec.interval = r.interval;
    if (r.kind !== "breakdown" && r.preset !== "all_time" && r.comparison) spec.comparison = r.comparison;
    if (r.metrics.includes("conversions") || r.metrics.includes("conversion_rate")) spec.goal = `${MARK}goal'`;
    if (r.order !== undefined) spec.order = { by: r.order ? "dimension" : (r.metrics[0] as string), direction: "asc" } as never;
    // Day rollups ending some days before or after "now", on a local midnight.
    const through = r.through === undefined ? undefined : midnightAtOrBefore(r.tz, r.now.getTime() + r.through * 86_400_000);
    return { spec, ctx: { timezone: r.tz, now: r.now, dayRollupThrough: through } satisfies CompileContext };
  });

describe("safety rules on random specs", () => {
  it("holds for every spec that parses, in both dialects", () => {
    fc.assert(
      fc.property(specArb, ({ spec, ctx }) => {
        const parsed = QuerySpecSchema.safeParse(spec);
        fc.pre(parsed.success);
        if (!parsed.success) return;
        for (const dialect of DIALECTS) {
          let c: ReturnType<typeof compileQuery>;
          try {
            c = compileQuery(parsed.data, dialect, ctx);
          } catch (err) {
            // The one refusal a parsed spec may meet.
            expect(err).toBeInstanceOf(QueryError);
            return;
          }
          expect(sqlProblems(c, dialect, PROPERTY, MAX_ROWS)).toEqual([]);
          expect(c.sql).not.toContain(MARK);
          const bound = Object.values(c.params).join("\n");
          for (const f of parsed.data.filters) for (const val of f.values) expect(bound).toContain(val);
          if (parsed.data.kind === "breakdown") {
            const { limit, offset } = parsed.data;
            const tail =
              dialect === "clickhouse" ? `LIMIT ${offset}, ${limit}` : `LIMIT ${limit}${offset ? ` OFFSET ${offset}` : ""}`;
            expect(c.sql.endsWith(tail)).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
