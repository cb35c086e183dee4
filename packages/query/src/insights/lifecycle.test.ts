// The lifecycle planner (the lookback interval, interval starts across DST), the printed SQL for
// both dialects (file snapshots __snapshots__/sql/<dialect>/lifecycle-*.sql) with the safety rules
// of DESIGN.md §6, and the answer shaped from the statement's per-interval rows. The statuses
// themselves are the statement's: packages/storage lifecycle-model.test.ts (peers.md §1.5's vector, the model).
import { type LifecycleSpecInput, LifecycleSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import type { SqlDialect } from "../dialects.js";
import { CTX, MARK, PROPERTY, v } from "../sql-cases.js";
import { prettySql, sqlProblems } from "../sql-checks.js";
import { type CompiledLifecycle, compileLifecycle, LIFECYCLE_ROW_CAP, planLifecycle, shapeLifecycle } from "./lifecycle.js";

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
});
