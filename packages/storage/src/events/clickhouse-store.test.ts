// The EventStore conformance suite on ClickHouse (the test run's server, a database of this file's
// own), plus what only this adapter has: parameters bound as escaped literals on 18.16, and the
// query time limit enforced in the engine.
import type { QuerySpecInput } from "@lookout/schema";
import { afterAll, describe, expect, it } from "vitest";
import { clickHouseTestDatabase, requireClickHouse } from "../test-services.js";
import type { ClickHouseOptions } from "./clickhouse-options.js";
import { bindParams, literal } from "./clickhouse-sql.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { eventStoreConformance } from "./conformance.js";
import { QueryTimeoutError } from "./event-store.js";
import { at, event } from "./fixtures.js";
import { runStats } from "./stats.js";

const ch = await requireClickHouse();
const opened: ClickHouseEventStore[] = [];
const open = async (label: string, database = clickHouseTestDatabase(label), opts: ClickHouseOptions = {}) => {
  if (!("url" in ch)) throw new Error(ch.skip);
  const s = await openClickHouseEventStore(`${ch.url}/${database}`, { settleEveryMs: 0, ...opts });
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

  it("query(): a GROUP BY or ORDER BY past spillBytes goes on in temporary files (half the server's memory limit by default)", async () => {
    const setting = (name: string) => ({
      sql: `SELECT value FROM system.settings WHERE name = {p1:String}`,
      params: { p1: name },
    });
    const limit = Number((await (await open("spill-default")).query<{ value: string }>(setting("max_memory_usage")))[0]?.value);
    expect(limit).toBeGreaterThan(0); // the test server's profile sets one (test-services.ts)
    const byDefault = await open("spill-default-2");
    expect(await byDefault.query(setting("max_bytes_before_external_group_by"))).toEqual([
      { value: String(Math.floor(limit / 2)) },
    ]);
    // 8 MB: 2M groups of a key and a count spill; the answer is whole and exact.
    const small = await open("spill-small", undefined, { spillBytes: 8_000_000 });
    for (const name of ["max_bytes_before_external_group_by", "max_bytes_before_external_sort"]) {
      expect(await small.query(setting(name))).toEqual([{ value: "8000000" }]);
    }
    const grouped = await small.query<{ groups: number; total: number; largest: number }>({
      sql: "SELECT count() AS groups, sum(c) AS total, max(c) AS largest FROM (SELECT number % 2000000 AS k, count() AS c FROM numbers(6000000) GROUP BY k)",
      params: {},
    });
    expect(grouped).toEqual([{ groups: 2_000_000, total: 6_000_000, largest: 3 }]);
    const never = await open("spill-never", undefined, { spillBytes: 0 });
    expect(await never.query(setting("max_bytes_before_external_group_by"))).toEqual([{ value: "0" }]);
  });

  it("declares what it cannot do by name: nothing the suites ask (its day rows come with the settled visits)", async () => {
    const s = await open("cannot");
    expect(Object.keys(s.cannot)).toEqual([]);
    // It answers no bound of its own (SettledVisits.dayRows carries them): asking starts the pair's rows.
    expect(s.dayRollupThrough("cannot.example", "UTC")).toBeUndefined();
    expect(s.serverVersion).toMatch(/^\d+\.\d+/);
  });

  it("folds events stored before the visit tables existed into them when it opens", async () => {
    if (!("url" in ch)) return;
    const database = clickHouseTestDatabase("visit_backfill");
    const P = "backfill.example";
    const pv = (session: string, ts: string, path: string) =>
      event({ property: P, ts: at(ts), name: "pageview", path, session_id: session, visitor_id: session, client_id: session });
    const spec: QuerySpecInput = {
      kind: "aggregate",
      property: P,
      date_range: { preset: "custom", from: "2024-05-10", to: "2024-05-10" },
      metrics: ["visitors", "visits", "pageviews", "bounce_rate", "visit_duration"],
    };
    const ctx = { timezone: "UTC", now: at("2024-05-11 00:00:00") };
    const first = await open("visit_backfill", database);
    // One visit over two appends (its states fold on read), one single-page visit.
    await first.append([pv("a", "2024-05-10 10:00:00", "/"), pv("b", "2024-05-10 11:00:00", "/x")]);
    await first.append([pv("a", "2024-05-10 10:01:30", "/y")]);
    const expected = await runStats(first, spec, ctx);
    expect(expected).toMatchObject({
      visits: { value: 2 },
      pageviews: { value: 3 },
      bounce_rate: { value: 50 },
      visit_duration: { value: 45 },
    });
    // An older schema: the visit tables and their views missing, the events there.
    for (const t of ["visits", "visit_pages", "visit_events"]) {
      for (const name of [`${t}_mv`, t]) {
        const r = await fetch(ch.url, { method: "POST", body: `DROP TABLE ${database}.${name}` });
        expect(r.ok, await r.text()).toBe(true);
      }
    }
    const again = await open("visit_backfill", database);
    expect(await runStats(again, spec, ctx)).toEqual(expected);
    // Backfilled once: opening again adds nothing.
    expect(await runStats(await open("visit_backfill", database), spec, ctx)).toEqual(expected);
  });
});
