// The lifecycle planner (the lookback interval, interval starts across DST), the printed SQL for
// both dialects (file snapshots __snapshots__/sql/<dialect>/lifecycle-*.sql) with the safety rules
// of DESIGN.md §6, and the answer shaped from the statement's per-interval rows. The statuses
// themselves are the statement's: packages/storage lifecycle-model.test.ts (peers.md §1.5's vector, the model).
import { type LifecycleSpecInput, LifecycleSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import type { SqlDialect } from "../dialects.js";
import { CTX, MARK, PROPERTY, v } from "../sql-cases.js";
import { prettySql, sqlProblems } from "../sql-checks.js";
import {
  type CompiledLifecycle,
  compileLifecycle,
  LIFECYCLE_ROW_CAP,
  lifecycleRollupUpTo,
  planLifecycle,
  shapeLifecycle,
} from "./lifecycle.js";

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
const parse = (s: Omit<LifecycleSpecInput, "kind">) => LifecycleSpecSchema.parse({ kind: "lifecycle", ...s });

const CASES: Record<string, Omit<LifecycleSpecInput, "kind">> = {
  "lifecycle-day-filtered": {
    period: "last_30_days",
    interval: "day",
    event: { event: "pageview", filters: "page==/app" },
    filters: "country==DE",
  },
  "lifecycle-week": { period: "last_90_days", interval: "week", event: { event: "signup" } },
};

describe("lifecycle SQL", () => {
  for (const dialect of DIALECTS) {
    for (const [name, spec] of Object.entries(CASES)) {
      it(`${dialect}: ${name}`, async () => {
        const c: CompiledLifecycle = compileLifecycle(parse(spec), PROPERTY, dialect, CTX);
        expect(sqlProblems(c, dialect, PROPERTY, LIFECYCLE_ROW_CAP)).toEqual([]);
        const head = Object.entries(c.params)
          .map(
            ([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`,
          )
          .join("\n");
        await expect(`${head}\n${prettySql(c.sql)}\n`).toMatchFileSnapshot(`../__snapshots__/sql/${dialect}/${name}.sql`);
      });
    }
  }

  it("duckdb: lifecycle-rollup (intervals before the activity rollups' mark from them, the rest from events)", async () => {
    const spec = parse({ period: "last_30_days", interval: "week", event: { event: "signup" } });
    const plan = planLifecycle(spec, CTX);
    const c = compileLifecycle(spec, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: plan.starts[3] });
    expect(c.rollupUpTo).toBe(3);
    expect(c.rawNeeded).toBe(true);
    const rollup = c.rollup as CompiledLifecycle;
    expect(sqlProblems(rollup, "duckdb", PROPERTY, LIFECYCLE_ROW_CAP)).toEqual([]);
    expect(sqlProblems(c, "duckdb", PROPERTY, LIFECYCLE_ROW_CAP)).toEqual([]);
    const text = (q: { sql: string; params: Record<string, unknown> }) =>
      `${Object.entries(q.params)
        .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}`)
        .join("\n")}\n${prettySql(q.sql)}\n`;
    await expect(`-- the rollup's intervals\n${text(rollup)}\n-- the rest, from events\n${text(c)}`).toMatchFileSnapshot(
      "../__snapshots__/sql/duckdb/lifecycle-rollup.sql",
    );
    // ClickHouse keeps no rollups: the one statement, whatever the context says.
    const ch = compileLifecycle(spec, PROPERTY, "clickhouse", { ...CTX, dayRollupThrough: plan.starts[3] });
    expect([ch.rollup, ch.rollupUpTo, ch.rawNeeded]).toEqual([null, 1, true]);
  });

  it("never prints an event name or filter value into SQL text", () => {
    for (const dialect of DIALECTS) {
      const c = compileLifecycle(
        parse({
          period: "last_7_days",
          event: { event: v("e"), filters: `prop:${MARK}k==${v("x")}` },
          filters: `page!=${v("p")}`,
        }),
        PROPERTY,
        dialect,
        CTX,
      );
      expect(c.sql).not.toContain(MARK);
      expect(sqlProblems(c, dialect, PROPERTY, LIFECYCLE_ROW_CAP)).toEqual([]);
    }
  });

  it("refuses hour and minute intervals on `interval`", () => {
    const r = LifecycleSpecSchema.safeParse({ kind: "lifecycle", event: { event: "a" }, interval: "hour" });
    expect(r.error?.issues[0]?.path).toEqual(["interval"]);
  });
});

describe("lifecycle planner and statuses", () => {
  const spec = parse({ period: "custom", date: "2024-03-29,2024-04-02", interval: "day", event: { event: "a" } });

  it("reads one interval before the range, and intervals start at local midnight across DST (Berlin, 31 March)", () => {
    const plan = planLifecycle(spec, CTX);
    expect(plan.grid).toEqual(["2024-03-28", "2024-03-29", "2024-03-30", "2024-03-31", "2024-04-01", "2024-04-02"]);
    expect(plan.starts.map((t) => new Date(t).toISOString().slice(5, 16))).toEqual([
      "03-27T23:00",
      "03-28T23:00",
      "03-29T23:00",
      "03-30T23:00",
      "03-31T22:00",
      "04-01T22:00",
      "04-02T22:00",
    ]);
    expect(plan.shown).toBe(5);
  });

  it("answers each shown interval from its row (dormant negative, an interval without a row all zero); the lookback is not shown", () => {
    const plan = planLifecycle(spec, CTX);
    const rows = [
      { idx: 0, new: 7, returning: 7, resurrecting: 7, dormant: 7 },
      { idx: 1, new: 1, returning: 0, resurrecting: 0, dormant: 0 },
      { idx: 2, new: 0n, returning: 1n, resurrecting: 0n, dormant: 0n },
      { idx: 3, new: 0, returning: 0, resurrecting: 0, dormant: 1 },
      { idx: 5, new: 0, returning: 0, resurrecting: 0, dormant: 1 },
      // The interval after the grid (visitors active in its last one, dormant past it): not shown.
      { idx: 6, new: 0, returning: 0, resurrecting: 0, dormant: 3 },
    ];
    const a = shapeLifecycle(plan, rows);
    expect(a.results.map((p) => [p.date, p.new, p.returning, p.resurrecting, p.dormant])).toEqual([
      ["2024-03-29", 1, 0, 0, 0],
      ["2024-03-30", 0, 1, 0, 0],
      ["2024-03-31", 0, 0, 0, -1],
      ["2024-04-01", 0, 0, 0, 0],
      ["2024-04-02", 0, 0, 0, -1],
    ]);
  });

  it("takes from the activity rollups the intervals that end, with their lookback, by the mark and the range's end", () => {
    const plan = planLifecycle(spec, CTX);
    const upTo = (through: number | undefined, o: { rollups?: boolean; filtered?: boolean } = {}) =>
      lifecycleRollupUpTo(plan, { rollups: o.rollups ?? true, filtered: o.filtered ?? false, through });
    const at = (j: number) => plan.starts[j] as number;
    expect(upTo(at(3))).toBe(3); // intervals 1 and 2 (and the lookback 0) end by the mark
    expect(upTo(at(3) + 1)).toBe(3); // a mark inside interval 3: it is read from events
    expect(upTo(at(1))).toBe(1); // only the lookback: nothing to answer from the rollups
    expect(upTo(at(2))).toBe(2);
    expect(upTo(at(0))).toBe(1);
    expect(upTo(Date.parse("2030-01-01"))).toBe(1 + plan.shown); // every shown interval
    expect(upTo(undefined)).toBe(1);
    expect(upTo(at(3), { rollups: false })).toBe(1);
    expect(upTo(at(3), { filtered: true })).toBe(1);
  });

  it("answers the rollup's intervals from their active, returning and new visitors (dormant: active before, not returning now)", () => {
    const plan = planLifecycle(spec, CTX);
    const rollupRows = [
      { idx: 0, active: 4, returning: 9, new: 9 }, // the lookback: only its active visitors count
      { idx: 1, active: 5, returning: 3, new: 1 },
      // interval 2: nobody active, so the 5 of interval 1 are dormant
      { idx: 3, active: 2n, returning: null, new: 2n },
    ];
    // The statement's rows: its lookback (interval 3 here) is the rollup's, not an answer.
    const rows = [
      { idx: 3, new: 7, returning: 7, resurrecting: 7, dormant: 7 },
      { idx: 4, new: 0, returning: 1, resurrecting: 0, dormant: 1 },
    ];
    const a = shapeLifecycle(plan, rows, { upTo: 4, rows: rollupRows });
    expect(a.results.map((p) => [p.date, p.new, p.returning, p.resurrecting, p.dormant])).toEqual([
      ["2024-03-29", 1, 3, 1, -1],
      ["2024-03-30", 0, 0, 0, -5],
      ["2024-03-31", 2, 0, 0, 0],
      ["2024-04-01", 0, 1, 0, -1],
      ["2024-04-02", 0, 0, 0, 0],
    ]);
  });
});
