// The relation printer: every table read it prints starts its WHERE with the property predicate,
// in both dialects, whatever the caller's conditions (which come after it).
import { describe, expect, it } from "vitest";
import { DIALECTS, type SqlDialect } from "./dialects.js";
import { Params } from "./params.js";
import { Scope } from "./parts.js";
import { inRelation, relation, type TableName, tableRead } from "./relation.js";
import { propertyPredicate, READ_TABLES, sqlProblems } from "./sql-checks.js";

const PERIOD = { from: Date.parse("2024-03-01T00:00:00Z"), to: Date.parse("2024-03-08T00:00:00Z") };

describe("tableRead", () => {
  for (const dialect of ["duckdb", "clickhouse"] as SqlDialect[]) {
    it(`${dialect}: adds the property predicate to every table`, () => {
      const p = new Params(DIALECTS[dialect]);
      const s = new Scope(DIALECTS[dialect], p, "prop", [PERIOD], "UTC");
      const predicate = propertyPredicate(dialect, "p1");
      for (const table of READ_TABLES as readonly TableName[]) {
        if (table === "day_rollup" && dialect === "clickhouse") continue; // DuckDB's alone
        const read = tableRead(s, table, ["x = 1"]);
        expect(read.endsWith(` WHERE ${predicate} AND x = 1`)).toBe(true);
        const sql = `SELECT * FROM ${relation(s, [{ expr: "skey" }], table, [])} WHERE ${inRelation(s, "skey", true, "skey", table, [])} LIMIT 1`;
        const tail = dialect === "clickhouse" ? sql.replace(/LIMIT 1$/, "LIMIT 0, 1") : sql;
        const params = p.usedIn(tail);
        expect(sqlProblems({ sql: tail, params, keyParams: ["p1"] }, dialect, "prop", 1)).toEqual([]);
      }
    });
  }
});
