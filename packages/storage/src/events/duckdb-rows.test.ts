// duckdb-rows.ts against the client library's own conversion followed by plain(): the same rows
// for every column type a statement may answer (scalars, lists with NULLs and empties, maps,
// structs, timestamps, decimals, nested lists), across several chunks.
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plain, plainRows } from "./duckdb-rows.js";

let instance: DuckDBInstance;
beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
});
afterAll(() => instance.closeSync());

const both = async (sql: string) => {
  const c = await instance.connect();
  try {
    const fast = plainRows(await c.run(sql));
    const generic = (await (await c.runAndReadAll(sql)).getRowObjectsJS()).map((r) => plain(r));
    return { fast, generic };
  } finally {
    c.closeSync();
  }
};

describe("plainRows", () => {
  it("reads every type as the library's conversion then plain() does", async () => {
    const { fast, generic } = await both(`
      SELECT i, i::BIGINT * 3 AS big, i::HUGEINT AS huge, (i % 3 = 0) AS flag, i / 7 AS dbl, (i % 100)::TINYINT AS tiny,
        CASE WHEN i % 5 = 0 THEN NULL ELSE 'v' || i END AS s, i::UBIGINT AS ubig, (i / 3)::DECIMAL(10, 2) AS dec,
        TIMESTAMP '2024-01-01' + INTERVAL (i) SECOND AS ts, DATE '2024-01-01' + (i % 40)::INTEGER AS day,
        CASE WHEN i % 4 = 0 THEN [] WHEN i % 4 = 1 THEN NULL ELSE ['a' || i, NULL, 'b'] END AS strs,
        CASE WHEN i % 3 = 0 THEN [] ELSE [i::BIGINT, NULL, 7::BIGINT] END AS bigs,
        [i / 2, 0.5] AS dbls, [TIMESTAMP '2024-02-02' + INTERVAL (i) MINUTE] AS tss,
        MAP {'k': 'v' || i, 'z': ''} AS m, CASE WHEN i % 2 = 0 THEN MAP {} ELSE MAP {'x': 'y'} END AS m2,
        {'a': i::BIGINT, 'b': ['x', 'y'], 'c': MAP {'q': 'r'}} AS st, [[i::BIGINT], []] AS nested,
        [{'key': 'p', 'value': 'q'}] AS kv
      FROM range(5000) t(i)`);
    expect(fast).toHaveLength(5000);
    expect(fast).toEqual(generic);
    expect(fast[1]).toMatchObject({ big: 3, huge: 1, strs: null, bigs: [1, null, 7], m: { k: "v1", z: "" }, st: { a: 1 } });
    expect(fast[0]).toMatchObject({ s: null, strs: {}, bigs: {} });
    expect(fast[2]?.ts).toEqual(new Date("2024-01-01T00:00:02Z"));
  });

  it("deduplicates column names as the library does, and answers no rows as []", async () => {
    const { fast, generic } = await both("SELECT 1 AS a, 2 AS a, 'x' AS b");
    expect(fast).toEqual(generic);
    expect((await both("SELECT 1 AS a WHERE false")).fast).toEqual([]);
  });
});
