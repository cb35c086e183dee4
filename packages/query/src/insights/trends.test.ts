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

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
const CAP = 10 * 26 * 1501;
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

  it("draws no bucket after the one holding now, and labels the series by letter", () => {
    const c = compile({ period: "today", interval: "hour", series: [{ event: "pageview" }, { event: "signup" }] }, "duckdb");
    // CTX.now is 12:30 in Berlin: hours 00..12.
    expect(c.buckets).toHaveLength(13);
    expect(c.seriesLabels).toEqual(["A: pageview", "B: signup"]);
  });
});
