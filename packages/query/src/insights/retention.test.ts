// The retention planner (decisions without SQL), the printed SQL for both dialects (file snapshots
// under __snapshots__/sql/<dialect>/retention-*.sql) with the safety rules of DESIGN.md §6, and the
// pure cohort arithmetic on hand-built rows. Numbers on real engines: packages/storage retention-model.test.ts.
import { type RetentionSpecInput, RetentionSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import type { SqlDialect } from "../dialects.js";
import { CTX, MARK, PROPERTY, v } from "../sql-cases.js";
import { prettySql, sqlProblems } from "../sql-checks.js";
import {
  type CompiledRetention,
  compileRetention,
  planRetention,
  RETENTION_ROW_CAP,
  type RetentionRow,
  retentionAnswer,
  retentionCells,
  retentionCellVisitors,
  retentionRollupTo,
  visitorPeriods,
} from "./retention.js";

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
const parse = (s: Omit<RetentionSpecInput, "kind">) => RetentionSpecSchema.parse({ kind: "retention", ...s });
const compile = (s: Omit<RetentionSpecInput, "kind">, dialect: SqlDialect): CompiledRetention =>
  compileRetention(parse(s), PROPERTY, dialect, CTX);

const CASES: Record<string, Omit<RetentionSpecInput, "kind">> = {
  "retention-day-first-time": {
    period: "last_30_days",
    start_event: { event: "signup" },
    return_event: { event: "pageview", filters: "page==/app" },
    period_unit: "day",
    periods: 7,
  },
  "retention-week-recurring-cumulative": {
    period: "last_90_days",
    filters: "country==DE|FR",
    start_event: { event: "pageview", filters: "prop:plan==pro" },
    return_event: { event: "pageview" },
    period_unit: "week",
    periods: 8,
    retention_type: "recurring",
    cumulative: true,
  },
};

function snapshotText(c: CompiledRetention): string {
  const head = Object.entries(c.params)
    .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`)
    .join("\n");
  return `${head}\n${prettySql(c.sql)}\n`;
}

/** A first-time weekly grid of one unfiltered event (what visitor_activity answers), and where the rollups end: Berlin's midnight starting 2 April. */
const PLAIN_WEEKS: RetentionSpecInput = {
  kind: "retention",
  period: "last_30_days",
  start_event: { event: "pageview" },
  return_event: { event: "pageview" },
  period_unit: "week",
  periods: 2,
};
const ROLLUPS_END = Date.parse("2024-04-01T22:00:00Z");

describe("retention SQL", () => {
  for (const dialect of DIALECTS) {
    for (const [name, spec] of Object.entries(CASES)) {
      it(`${dialect}: ${name}`, async () => {
        const c = compile(spec, dialect);
        expect(sqlProblems(c, dialect, PROPERTY, RETENTION_ROW_CAP)).toEqual([]);
        expect(sqlProblems(c.actors, dialect, PROPERTY, RETENTION_ROW_CAP)).toEqual([]);
        await expect(snapshotText(c)).toMatchFileSnapshot(`../__snapshots__/sql/${dialect}/${name}.sql`);
      });
    }
  }

  it("duckdb: retention-rollup (a first-time grid of one event from each visitor's days up to the mark, the rest from events)", async () => {
    const spec = RetentionSpecSchema.parse({ ...PLAIN_WEEKS, cumulative: true });
    const c = compileRetention(spec, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: ROLLUPS_END });
    expect(sqlProblems(c, "duckdb", PROPERTY, RETENTION_ROW_CAP)).toEqual([]);
    await expect(snapshotText(c)).toMatchFileSnapshot("../__snapshots__/sql/duckdb/retention-rollup.sql");
  });

  it("reads visitor_activity for first-time grids whose start and return are one unfiltered event", () => {
    const base = RetentionSpecSchema.parse(PLAIN_WEEKS);
    const plan = planRetention(base, CTX);
    const o = { rollups: true, through: ROLLUPS_END, timezone: CTX.timezone };
    expect(retentionRollupTo(base, plan, o)).toBe(o.through);
    expect(retentionRollupTo({ ...base, return_event: { event: "signup" } }, plan, o)).toBeNull();
    expect(retentionRollupTo({ ...base, retention_type: "recurring" }, plan, o)).toBeNull();
    expect(retentionRollupTo({ ...base, filters: "country==DE" }, plan, o)).toBeNull();
    expect(retentionRollupTo({ ...base, start_event: { event: "pageview", filters: "page==/" } }, plan, o)).toBeNull();
    expect(retentionRollupTo(base, plan, { ...o, rollups: false })).toBeNull();
    expect(retentionRollupTo(base, plan, { ...o, through: undefined })).toBeNull();
  });

  it("never prints an event name, filter value or prop key into SQL text", () => {
    for (const dialect of DIALECTS) {
      const c = compile(
        {
          period: "last_7_days",
          start_event: { event: v("start"), filters: `page==${v("p")}` },
          return_event: { event: v("ret"), filters: `prop:${MARK}k~${v("x")}` },
          filters: `country!=${v("c")}`,
        },
        dialect,
      );
      expect(c.sql).not.toContain(MARK);
      expect(c.actors.sql).not.toContain(MARK);
      expect(sqlProblems(c, dialect, PROPERTY, RETENTION_ROW_CAP)).toEqual([]);
      expect(sqlProblems(c.actors, dialect, PROPERTY, RETENTION_ROW_CAP)).toEqual([]);
    }
  });
});

describe("retention spec", () => {
  it("refuses 0 and 13 periods with a message on `periods`", () => {
    for (const periods of [0, 13]) {
      const r = RetentionSpecSchema.safeParse({
        kind: "retention",
        start_event: { event: "a" },
        return_event: { event: "b" },
        periods,
      });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(["periods"]);
    }
  });
});

describe("retention planner", () => {
  it("makes one cohort per local day of the range and `periods` more grid periods after the last", () => {
    // CTX.now: 2024-04-03 12:30 in Berlin; last_7_days = 03-28 .. 04-03.
    const plan = planRetention(
      parse({ period: "last_7_days", start_event: { event: "a" }, return_event: { event: "a" }, periods: 3 }),
      CTX,
    );
    expect(plan.cohorts).toEqual([
      "2024-03-28",
      "2024-03-29",
      "2024-03-30",
      "2024-03-31",
      "2024-04-01",
      "2024-04-02",
      "2024-04-03",
    ]);
    expect(plan.grid.slice(-3)).toEqual(["2024-04-04", "2024-04-05", "2024-04-06"]);
    expect(plan.current).toBe("2024-04-03");
    // The grid ends at local midnight after 04-06 (Berlin is UTC+2 after 31 March).
    expect(new Date(plan.readTo).toISOString()).toBe("2024-04-06T22:00:00.000Z");
  });

  it("labels week cohorts by their Monday and month cohorts by the 1st, month steps clamp nothing", () => {
    const week = planRetention(
      parse({
        period: "custom",
        date: "2024-02-07,2024-02-20",
        start_event: { event: "a" },
        return_event: { event: "a" },
        period_unit: "week",
        periods: 2,
      }),
      CTX,
    );
    expect(week.cohorts).toEqual(["2024-02-05", "2024-02-12", "2024-02-19"]);
    expect(week.grid).toEqual(["2024-02-05", "2024-02-12", "2024-02-19", "2024-02-26", "2024-03-04"]);
    const month = planRetention(
      parse({
        period: "custom",
        date: "2023-11-15,2024-01-10",
        start_event: { event: "a" },
        return_event: { event: "a" },
        period_unit: "month",
        periods: 1,
      }),
      CTX,
    );
    expect(month.grid).toEqual(["2023-11-01", "2023-12-01", "2024-01-01", "2024-02-01"]);
  });
});

/** Rows for a daily plan over 2024-03-28..04-03 (the vector's d0 = 03-28). */
const row = (visitor: string, bucket: string, starts: number, returns: number): RetentionRow => ({
  visitor,
  bucket,
  starts,
  returns,
});

describe("retention cohorts (pure)", () => {
  const spec = (type: "first_time" | "recurring") =>
    parse({
      period: "custom",
      date: "2024-03-28,2024-03-30",
      start_event: { event: "a" },
      return_event: { event: "a" },
      periods: 2,
      retention_type: type,
    });
  // peers.md §1.3 vector: same event; U1 active d0, d2; U2 active d1, d2; range d0..d2.
  const rows = [
    row("U1", "2024-03-28", 1, 1),
    row("U1", "2024-03-30", 1, 1),
    row("U2", "2024-03-29", 1, 1),
    row("U2", "2024-03-30", 1, 1),
  ];

  it("first_time: a visitor joins only the cohort of their first start (peers.md §1.3)", () => {
    const plan = planRetention(spec("first_time"), CTX);
    const a = retentionAnswer(plan, retentionCells(plan, visitorPeriods(plan, rows)));
    expect(a.results.cohorts.map((c) => [c.date, c.size, c.values])).toEqual([
      ["2024-03-28", 1, [1, 0, 1]],
      ["2024-03-29", 1, [1, 1, 0]],
      ["2024-03-30", 0, [0, 0, 0]],
    ]);
  });

  it("recurring: a visitor joins the cohort of every period with a start (peers.md §1.3)", () => {
    const plan = planRetention(spec("recurring"), CTX);
    const a = retentionAnswer(plan, retentionCells(plan, visitorPeriods(plan, rows)));
    expect(a.results.cohorts.map((c) => [c.date, c.size, c.values])).toEqual([
      ["2024-03-28", 1, [1, 0, 1]],
      ["2024-03-29", 1, [1, 1, 0]],
      ["2024-03-30", 2, [2, 0, 0]],
    ]);
    expect(retentionCellVisitors(plan, visitorPeriods(plan, rows), { cohort: "2024-03-30", period: 0 })).toEqual(["U1", "U2"]);
  });

  it("on or after: a return in any later period of the grid counts in every earlier cell", () => {
    const plan = planRetention({ ...spec("first_time"), cumulative: true }, CTX);
    const a = retentionAnswer(plan, retentionCells(plan, visitorPeriods(plan, rows)));
    expect(a.results.cohorts[0]?.values).toEqual([1, 1, 1]);
  });

  it("leaves out periods that have not begun and marks the one holding now", () => {
    // now = 2024-04-03: the cohort of 04-02 shows periods 0 and 1, the latter still running.
    const plan = planRetention(
      parse({ period: "last_7_days", start_event: { event: "a" }, return_event: { event: "a" }, periods: 3 }),
      CTX,
    );
    const a = retentionAnswer(
      plan,
      retentionCells(plan, visitorPeriods(plan, [row("U", "2024-04-02", 1, 1), row("U", "2024-04-03", 0, 1)])),
    );
    const c = a.results.cohorts.find((x) => x.date === "2024-04-02");
    expect(c).toEqual({ date: "2024-04-02", size: 1, values: [1, 1], incomplete: true });
    expect(a.results.cohorts[0]).toMatchObject({ values: [0, 0, 0, 0], incomplete: false });
  });
});
