// The printed SQL of representative specs (sql-cases.ts), per dialect, as file snapshots under
// __snapshots__/sql/<dialect>/<case>.sql (laid out by prettySql; the params head each file), and
// the compiler's safety rules (DESIGN.md §6) checked on those: every table read has the property
// predicate, every value is a bound parameter, every result has a LIMIT cap. random-specs.test.ts
// checks the same rules on random specs.
import type { Dimension } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { dayRowsKey, dayRowsThrough } from "./clickhouse-day-rows.js";
import { historyParts, markShared, SHARED_OPEN, sharedParts } from "./clickhouse-live-shared.js";
import { doneColumns } from "./clickhouse-visits.js";
import type { CompileContext } from "./compiled.js";
import { QueryError } from "./errors.js";
import { CASES, CTX, compile, DIALECTS, MARK, MAX_ROWS, PROPERTY, type SpecIn, snapshotText, v } from "./sql-cases.js";
import { sqlProblems } from "./sql-checks.js";

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

  it.each(["duckdb", "clickhouse"] as const)("picks the fast visitor count only where it is exact (%s)", (dialect) => {
    const fast = (spec: SpecIn) => /prev_/.test(compile(spec, dialect).sql);
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
  });
});

describe("ClickHouse's settled visits known at compile time", () => {
  const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
  const spec: SpecIn = { kind: "breakdown", dimensions: ["country"], date_range: { preset: "last_7_days" } };
  const at = (firstLive: string) =>
    compile(spec, "clickhouse", { ...CTX, settledVisits: { firstLiveDay: day(firstLive), batches: ["65537", "65538"] } });
  const readsStates = (sql: string) => /\bFROM visits WHERE/.test(sql);
  // (A read of no settled rows, `... AND 0`, stands in for the live visits' history.)
  const readsSettled = (sql: string) => /\bFROM visits_done WHERE property = \{p\d+:String\} AND day/.test(sql);

  it("leaves out the live part when every visit of the range is settled, and binds the marks it planned with", () => {
    const c = at("2024-04-10");
    expect(readsStates(c.sql)).toBe(false);
    expect(readsSettled(c.sql)).toBe(true);
    expect(c.params.lookout_settled).toEqual(["65537", "65538"]);
    expect(sqlProblems(c, "clickhouse", PROPERTY, MAX_ROWS)).toEqual([]);
  });

  it("leaves out the settled rows when the range starts after them, and reads both otherwise", () => {
    const live = at("2024-03-01");
    expect(readsStates(live.sql)).toBe(true);
    expect(readsSettled(live.sql)).toBe(false);
    expect(live.params.lookout_first_live).toBe("2024-03-01");
    const both = at("2024-04-01");
    expect(readsStates(both.sql) && readsSettled(both.sql)).toBe(true);
    // Without them, the statement names the marks for the store to bind when it runs.
    const unknown = compile(spec, "clickhouse");
    expect(readsStates(unknown.sql) && readsSettled(unknown.sql)).toBe(true);
    expect(unknown.params.lookout_first_live).toBeUndefined();
  });

  it("marks the live part whole when the store shares it: the same text for every panel of a range", () => {
    const settledVisits = { firstLiveDay: day("2024-04-01"), batches: ["65537"], sharedLive: true };
    const panel = (dimension: "country" | "source") =>
      compile({ ...spec, dimensions: [dimension] }, "clickhouse", { ...CTX, settledVisits });
    const [country, source] = [panel("country"), panel("source")];
    // Bound as the store binds them: the placeholders' numbering differs from panel to panel.
    const bind = (text: string, params: Record<string, unknown>) =>
      text.replace(/\{(\w+):\w+\}/g, (_, n: string) => JSON.stringify(params[n]));
    const parts = (c: typeof country) => [...new Set(sharedParts(c.sql).map((p) => bind(p.text, c.params)))];
    const histories = (c: typeof country) => historyParts(c.sql).map((p) => bind(p.text, c.params));
    expect(parts(country)).toHaveLength(1);
    expect(parts(country)).toEqual(parts(source));
    expect(histories(country)).toHaveLength(1);
    expect(histories(country)).toEqual(histories(source));
    // The live visits with every column; their visitors' settled history, for the visitors of that
    // part, with every column a prev_* orders by; each read orders them for its own prev_*.
    const [live] = parts(country);
    for (const [column] of doneColumns("visits")) expect(live).toMatch(new RegExp(`\\b${column}\\b`));
    expect(live).not.toContain("visits_done");
    const [history] = histories(country);
    expect(history).toContain("FROM visits_done WHERE");
    expect(history).toMatch(
      /AND vkey IN \(SELECT vkey FROM \/\*lookout:shared-live\*\/\(SELECT [\s\S]*\/\*lookout:\/shared-live\*\/\)\)$/,
    );
    for (const column of ["country", "referrer_source", "entry_page", "city"]) expect(history).toContain(`, ${column}`);
    expect(`${live}${history}`).not.toContain("prev_");
    const outside = (c: typeof country) => {
      const [h] = historyParts(c.sql);
      const rest = c.sql.slice(0, h?.start) + c.sql.slice(h?.end);
      return sharedParts(rest).reduceRight((t, p) => t.slice(0, p.start) + t.slice(p.end), rest);
    };
    expect(outside(country)).toContain(" AS prev_country");
    expect(outside(source)).toContain(" AS prev_referrer_source");
    // The settled rows of the range stay outside the parts; without sharing there are none.
    const [part] = sharedParts(country.sql);
    expect(country.params[part?.propertyParam ?? ""]).toBe(PROPERTY);
    expect(readsSettled(outside(country))).toBe(true);
    expect(sharedParts(at("2024-04-01").sql)).toEqual([]);
    expect(historyParts(at("2024-04-01").sql)).toEqual([]);
    expect(sqlProblems(country, "clickhouse", PROPERTY, MAX_ROWS)).toEqual([]);
  });

  it("finds marked parts in order and refuses an unclosed one", () => {
    const sql = `SELECT 1 FROM ${markShared("(a)")} UNION ALL SELECT 2 FROM ${markShared("(b)")}`;
    expect(sharedParts(sql).map((p) => [p.text, sql.slice(p.start, p.end)])).toEqual([
      ["(a)", markShared("(a)")],
      ["(b)", markShared("(b)")],
    ]);
    expect(() => sharedParts(`${SHARED_OPEN}(a)`)).toThrow(/not closed/);
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
  // ClickHouse's day rows (clickhouse-day-rows.ts): the same printer, its read form. Every day
  // before 2 April settled, each with its batch (a step's base plus the UTC day); the pair's rows
  // up to 1 April's UTC midnight (02:00 in Berlin): 1 April's batch has none yet.
  const utcDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
  const batchOf = (day: number) => String(7 * 65_536 + day);
  const settledDays = Array.from({ length: 200 }, (_, i) => utcDay("2024-04-01") - 199 + i);
  const SETTLED: CompileContext = {
    ...DAYS,
    dayRollupThrough: Date.parse("2024-04-01T00:00:00Z"),
    settledVisits: { firstLiveDay: utcDay("2024-04-02"), batches: settledDays.map(batchOf) },
  };
  for (const [name, spec] of Object.entries(cases)) {
    it(`clickhouse: day_rows_${name}`, async () => {
      const c = compile(spec, "clickhouse", SETTLED);
      const reads = [
        ...c.sql.matchAll(
          /FROM visit_days WHERE property = \{p\d+:String\} AND tz = .*? AND lday < (\d+) AND batch IN \(([\d, ]+)\)/g,
        ),
      ];
      // The current period's (a comparison's ends earlier).
      const rows = reads.sort((a, b) => Number(a[1]) - Number(b[1])).at(-1);
      // The rows of Berlin's 1 April too (its visits before 02:00), from the batches of the range's days before 1 April only.
      expect(Number(rows?.[1])).toBe(utcDay("2024-04-02"));
      const listed = (rows?.[2] ?? "").split(", ").map((b) => Number(b) % 65_536);
      expect(listed.at(-1)).toBe(0);
      expect(Math.max(...listed)).toBe(utcDay("2024-03-31"));
      expect(listed.length).toBeLessThan(settledDays.length);
      // The rest, from visit rows, from 1 April's UTC midnight; its settled rows bound with every batch.
      expect(Object.values(c.params)).toContain("2024-04-01 00:00:00");
      expect(c.params.lookout_settled).toEqual(settledDays.map(batchOf));
      expect(sqlProblems(c, "clickhouse", PROPERTY, MAX_ROWS)).toEqual([]);
      await expect(snapshotText(c)).toMatchFileSnapshot(`./__snapshots__/sql/clickhouse/day_rows_${name}.sql`);
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

  it("on ClickHouse, end where the first settled day without a pair's rows begins (SettledVisits.dayRows)", () => {
    const settled = (day: string | undefined) => ({
      firstLiveDay: Date.parse("2024-04-02T00:00:00Z") / 86_400_000,
      batches: ["65537"],
      ...(day ? { dayRows: { [dayRowsKey(PROPERTY, CTX.timezone)]: Date.parse(`${day}T00:00:00Z`) / 86_400_000 } } : {}),
    });
    // That UTC day's start, inside Berlin's 1 April (rows are per UTC batch).
    expect(dayRowsThrough(settled("2024-04-01"), PROPERTY, CTX.timezone)).toBe(Date.parse("2024-04-01T00:00:00Z"));
    expect(dayRowsThrough(settled("2024-04-01"), PROPERTY, "UTC")).toBeUndefined();
    expect(dayRowsThrough(settled(undefined), PROPERTY, CTX.timezone)).toBeUndefined();
    expect(dayRowsThrough(undefined, PROPERTY, CTX.timezone)).toBeUndefined();
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
    // Drawn up to the bucket holding now (12:30 in Berlin): 00:00..12:30 is 751 minutes; the whole
    // day's 1440 still fit the cap, which is checked before future buckets are dropped.
    expect(compile({ kind: "timeseries", interval: "minute", date_range: { preset: "today" } }, "duckdb").buckets).toHaveLength(
      751,
    );
    expect(
      compile({ kind: "timeseries", interval: "hour", date_range: { preset: "last_30_days" } }, "duckdb").buckets.length,
    ).toBe(30 * 24 - 1 - 11); // the range contains the 23-hour spring-forward day; 13:00..23:00 today are to come
    const week = compile({ kind: "timeseries", interval: "week", date_range: { preset: "all_time" } }, "duckdb", {
      ...CTX,
      earliest: new Date("2014-01-01T00:00:00Z"),
    });
    expect(week.buckets[0]).toBe("2013-12-30");
  });
});
