// The stickiness SQL for both dialects (file snapshots __snapshots__/sql/<dialect>/stickiness-*.sql)
// with the safety rules of DESIGN.md §6, and the shaping (every n in place; cumulative = n or more,
// peers.md §1.4). Numbers on real engines: packages/storage stickiness-model.test.ts.
import { type StickinessSpecInput, StickinessSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { activityRollupTo } from "../activity-rollup.js";
import type { SqlDialect } from "../dialects.js";
import { CTX, MARK, PROPERTY, v } from "../sql-cases.js";
import { prettySql, sqlProblems } from "../sql-checks.js";
import { compileStickiness, shapeStickiness } from "./stickiness.js";

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
const parse = (s: Omit<StickinessSpecInput, "kind">) => StickinessSpecSchema.parse({ kind: "stickiness", ...s });

describe("stickiness SQL", () => {
  for (const dialect of DIALECTS) {
    it(`${dialect}: stickiness-day-filtered`, async () => {
      const c = compileStickiness(
        parse({ period: "last_30_days", interval: "day", event: { event: "signup", filters: "country==DE" } }),
        PROPERTY,
        dialect,
        CTX,
      );
      expect(sqlProblems(c, dialect, PROPERTY, 31)).toEqual([]);
      const head = Object.entries(c.params)
        .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`)
        .join("\n");
      await expect(`${head}\n${prettySql(c.sql)}\n`).toMatchFileSnapshot(
        `../__snapshots__/sql/${dialect}/stickiness-day-filtered.sql`,
      );
    });
  }

  it("duckdb: stickiness-rollup (each visitor's days from visitor_activity up to the mark, today from events)", async () => {
    const spec = parse({ period: "last_30_days", interval: "week", event: { event: "signup" } });
    const range = { from: Date.parse("2024-03-04T23:00:00Z"), to: Date.parse("2024-04-03T22:00:00Z") };
    const through = Date.parse("2024-04-02T22:00:00Z"); // Berlin's midnight starting 3 April
    const c = compileStickiness(spec, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: through });
    expect(c.rollupTo).toBe(through);
    expect(sqlProblems(c, "duckdb", PROPERTY, 31)).toEqual([]);
    const head = Object.entries(c.params)
      .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}`)
      .join("\n");
    await expect(`${head}\n${prettySql(c.sql)}\n`).toMatchFileSnapshot("../__snapshots__/sql/duckdb/stickiness-rollup.sql");
    // The whole range in the rows: no events read.
    const whole = compileStickiness(spec, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: range.to + 86_400_000 });
    expect([whole.rollupTo, whole.sql.includes("FROM events")]).toEqual([range.to, false]);
    // A filter, or ClickHouse (no rollups): events only.
    const filtered = parse({ period: "last_30_days", event: { event: "signup", filters: "country==DE" } });
    expect(compileStickiness(filtered, PROPERTY, "duckdb", { ...CTX, dayRollupThrough: through }).rollupTo).toBeNull();
    expect(compileStickiness(spec, PROPERTY, "clickhouse", { ...CTX, dayRollupThrough: through }).rollupTo).toBeNull();
  });

  it("reads visitor_activity only for ranges that start at a local midnight before the mark", () => {
    const o = { rollups: true, filtered: false, timezone: "Europe/Berlin" };
    const from = Date.parse("2024-03-04T23:00:00Z");
    const to = Date.parse("2024-03-11T23:00:00Z");
    expect(activityRollupTo({ from, to }, { ...o, through: to })).toBe(to);
    expect(activityRollupTo({ from, to }, { ...o, through: from })).toBeNull();
    expect(activityRollupTo({ from: from + 3_600_000, to }, { ...o, through: to })).toBeNull();
    expect(activityRollupTo({ from, to: to + 3_600_000 }, { ...o, through: to + 86_400_000 })).toBe(to);
    expect(activityRollupTo({ from, to }, { ...o, through: undefined })).toBeNull();
  });

  it("never prints an event name or filter value into SQL text", () => {
    for (const dialect of DIALECTS) {
      const c = compileStickiness(
        parse({ period: "last_7_days", event: { event: v("e") }, filters: `page==${v("p")}` }),
        PROPERTY,
        dialect,
        CTX,
      );
      expect(c.sql).not.toContain(MARK);
    }
  });

  it("peers.md §1.4: active on days 1, 3 and 4 of 7 is n = 3 exactly, or n = 1, 2, 3 cumulative", () => {
    const rows = [{ intervals: 3, visitors: 1 }];
    expect(shapeStickiness({ unit: "day", intervals: 7, cumulative: false }, rows).results.map((r) => r.visitors)).toEqual([
      0, 0, 1, 0, 0, 0, 0,
    ]);
    expect(shapeStickiness({ unit: "day", intervals: 7, cumulative: true }, rows).results.map((r) => r.visitors)).toEqual([
      1, 1, 1, 0, 0, 0, 0,
    ]);
  });
});
