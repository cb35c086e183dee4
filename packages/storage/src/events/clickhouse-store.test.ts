// The EventStore conformance suite on ClickHouse (the test run's server, a database of this file's
// own), plus what only this adapter has: parameters bound as escaped literals on 18.16, and the
// query time limit enforced in the engine.
import { afterAll, describe, expect, it } from "vitest";
import { clickHouseTestDatabase, requireClickHouse } from "../test-services.js";
import { bindParams, literal } from "./clickhouse-sql.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { eventStoreConformance } from "./conformance.js";
import { QueryTimeoutError } from "./event-store.js";

const ch = await requireClickHouse();
const opened: ClickHouseEventStore[] = [];
const open = async (label: string) => {
  if (!("url" in ch)) throw new Error(ch.skip);
  const s = await openClickHouseEventStore(`${ch.url}/${clickHouseTestDatabase(label)}`);
  opened.push(s);
  return s;
};
afterAll(async () => {
  for (const s of opened) await s.close();
});

describe.skipIf(!("url" in ch))("ClickHouse", () => {
  eventStoreConformance("ClickHouse", () => open("conformance"));

  it("binds parameters as literals that survive quotes, backslashes and placeholders in values", async () => {
    const s = await open("params");
    const tricky = ["it's", "back\\slash", "{p2:String}", "\\'; DROP TABLE events; --", "ünï\ncode"];
    for (const v of tricky) {
      const r = await s.query<{ v: string }>({ sql: "SELECT {p1:String} AS v, {p2:String} AS w", params: { p1: v, p2: "x" } });
      expect(r).toEqual([{ v, w: "x" }]);
    }
    expect(literal("a'b")).toBe("'a\\'b'");
    expect(() => bindParams({ sql: "SELECT {p9:String}", params: {} })).toThrow(/not bound/);
  });

  it("query(): past its time limit the query is cancelled and the call rejects with QueryTimeoutError", async () => {
    const s = await open("timeout");
    const slow = { sql: "SELECT count() FROM numbers(10000000000) WHERE sipHash64(number) = 0", params: {} };
    const t0 = Date.now();
    await expect(s.query(slow, { timeoutMs: 300 })).rejects.toBeInstanceOf(QueryTimeoutError);
    expect(Date.now() - t0).toBeLessThan(2000);
    // The store stays usable.
    expect(await s.query<{ x: number }>({ sql: "SELECT 1 AS x", params: {} })).toEqual([{ x: 1 }]);
  });

  it("declares what it cannot do by name", async () => {
    const s = await open("cannot");
    expect(Object.keys(s.cannot)).toEqual(["dayRollups"]);
    expect(s.dayRollupThrough).toBeUndefined();
    expect(s.serverVersion).toMatch(/^\d+\.\d+/);
  });
});
