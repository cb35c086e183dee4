// The stickiness SQL for both dialects (file snapshots __snapshots__/sql/<dialect>/stickiness-*.sql)
// with the safety rules of DESIGN.md §6, and the shaping (every n in place; cumulative = n or more,
// peers.md §1.4). Numbers on real engines: packages/storage stickiness-model.test.ts.
import { type StickinessSpecInput, StickinessSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
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
