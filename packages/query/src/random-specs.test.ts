// The compiler's safety rules (DESIGN.md §6) on random specs of every kind, in both dialects:
// every table read has the property predicate, no value reaches SQL text, every result has a
// LIMIT cap (a breakdown's own limit and offset).
import {
  BASE_DIMENSIONS,
  COMPARISONS,
  DATE_PRESETS,
  type Dimension,
  FILTER_OPS,
  GOAL_METRICS,
  INTERVALS,
  METRICS,
  QUERY_KINDS,
  QUERY_LIMITS,
  type QuerySpecInput,
  QuerySpecSchema,
} from "@lookout/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CompileContext, CompiledStats } from "./compiled.js";
import { midnightAtOrBefore } from "./day-rollup.js";
import { QueryError } from "./errors.js";
import { compileQuery } from "./kinds/index.js";
import { DIALECTS, MARK, MAX_ROWS, PROPERTY } from "./sql-cases.js";
import { sqlProblems } from "./sql-checks.js";

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
    goals: fc.uniqueArray(
      fc.record({
        kind: fc.constantFrom("event" as const, "page" as const),
        i: fc.nat(99),
        pattern: fc.constantFrom("", "/*", "/**", "/*/x.y", "(a)+"),
      }),
      { minLength: 1, maxLength: 5, selector: (g) => g.i },
    ),
  })
  .map((r) => {
    const spec: Record<string, unknown> = {
      kind: r.kind,
      property: PROPERTY,
      date_range: r.preset === "custom" ? { preset: "custom", from: "2023-02-27", to: "2023-03-28" } : { preset: r.preset },
      metrics: r.metrics,
      filters: r.filters,
      limit: r.limit,
      offset: r.offset,
    };
    if (r.kind === "breakdown") spec.dimensions = [r.dimension];
    if (r.kind === "goals") {
      const goalMetrics = r.metrics.filter((m) => (GOAL_METRICS as readonly string[]).includes(m));
      spec.metrics = goalMetrics.length > 0 ? goalMetrics : ["visitors"];
      spec.goals = r.goals.map((g) => ({
        kind: g.kind,
        name: marked(g.i),
        match: g.kind === "event" ? marked(g.i) : `/${MARK}${g.i}${g.pattern}`,
      }));
    }
    if (r.kind === "timeseries" && r.interval) spec.interval = r.interval;
    if (r.kind !== "breakdown" && r.preset !== "all_time" && r.comparison) spec.comparison = r.comparison;
    if (r.metrics.includes("conversions") || r.metrics.includes("conversion_rate")) spec.goal = `${MARK}goal'`;
    if (r.order !== undefined) {
      spec.order = { by: r.order ? "dimension" : ((spec.metrics as string[])[0] as string), direction: "asc" } as never;
    }
    // Day rollups ending some days before or after "now", on a local midnight.
    const through = r.through === undefined ? undefined : midnightAtOrBefore(r.tz, r.now.getTime() + r.through * 86_400_000);
    return {
      spec: spec as QuerySpecInput,
      ctx: { timezone: r.tz, now: r.now, dayRollupThrough: through } satisfies CompileContext,
    };
  });

describe("safety rules on random specs", () => {
  it("holds for every spec that parses, in both dialects", () => {
    fc.assert(
      fc.property(specArb, ({ spec, ctx }) => {
        const parsed = QuerySpecSchema.safeParse(spec);
        fc.pre(parsed.success);
        if (!parsed.success) return;
        for (const dialect of DIALECTS) {
          let c: CompiledStats;
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
          if (parsed.data.kind === "goals") {
            for (const g of parsed.data.goals) expect(bound).toContain(g.name);
          }
          if (parsed.data.kind === "breakdown" || parsed.data.kind === "goals") {
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
