// DuckDB reads a visitor's rows of the per-visitor tables by index (visitor-tables.ts DUCK_INDEXES),
// not by scanning every visitor: checked on the plans of the page's statements as printed, for one
// client id and for a person's several, on a store with thousands of visitors, and again after a
// rebuild of the tables, whose rewrite of the visits in visitor order drops and recreates that table. Timings are the
// bench's (bench/visitors.bench.ts); this pins the plan they depend on.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  activeDaysSql,
  type CompiledQuery,
  facetsSql,
  figuresSql,
  firstSourceSql,
  perClientFromSummarySql,
  topEventsSql,
  topPagesSql,
  VISITOR_PANELS,
  visitorPanels,
  visitRowsSql,
} from "@lookout/query";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import { event } from "./fixtures.js";

const P = "index.example";
const VISITORS = 3000;

describe("the per-visitor tables on DuckDB", () => {
  let dir: string;
  let store: DuckDbEventStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lookout-visitor-indexes-"));
    store = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0 });
    const t0 = Date.UTC(2024, 4, 1);
    const rows = Array.from({ length: VISITORS * 2 }, (_, i) => {
      const v = i % VISITORS;
      return event({
        property: P,
        ts: new Date(t0 + i * 60_000),
        client_id: `c-${v}`,
        visitor_id: `c-${v}`,
        session_id: `s-${v}-${i < VISITORS ? 0 : 1}`,
        path: `/p${i % 7}`,
      });
    });
    for (let i = 0; i < rows.length; i += 1000) await store.append(rows.slice(i, i + 1000));
    await store.sync();
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // EXPLAIN ANALYZE: DuckDB picks an index scan when the scan starts, so a bare EXPLAIN always
  // shows a sequential one.
  const plan = async (q: CompiledQuery) =>
    String(Object.values((await store.query({ ...q, sql: `EXPLAIN ANALYZE ${q.sql}` }))[0] ?? {})[1]);

  it("reads one visitor's summary and visits by index", async () => {
    expect(await plan(perClientFromSummarySql("duckdb", P, ["c-17"]))).toMatch(/Index Scan/);
    expect(await plan(visitRowsSql("duckdb", P, ["c-17"]))).toMatch(/Index Scan/);
  });

  it("reads a person's several client ids by index", async () => {
    expect(await plan(perClientFromSummarySql("duckdb", P, ["c-17", "c-2001"]))).toMatch(/Index Scan/);
    expect(await plan(visitRowsSql("duckdb", P, ["c-17", "c-2001"]))).toMatch(/Index Scan/);
  });

  it("folds the page's panels from one index read of the visits, answering what the statements over events do", async () => {
    const who = ["c-17", "c-2001"];
    const [from, to] = [Date.UTC(2024, 0, 1), Date.UTC(2025, 0, 1)];
    const read = visitRowsSql("duckdb", P, who);
    expect((await plan(read)).match(/Index Scan/g)).toHaveLength(1);
    const panels = visitorPanels(await store.query(read), "Europe/Berlin", from, to, 10);
    const overEvents = [
      figuresSql("duckdb", P, who),
      facetsSql("duckdb", P, who),
      firstSourceSql("duckdb", P, who),
      activeDaysSql("duckdb", P, who, "Europe/Berlin", from, to),
      topPagesSql("duckdb", P, who, 10),
      topEventsSql("duckdb", P, who, 10),
    ];
    for (const [i, q] of overEvents.entries()) {
      const panel = VISITOR_PANELS[i] as (typeof VISITOR_PANELS)[number];
      expect({ panel, rows: panels[panel] }).toEqual({ panel, rows: await store.query(q) });
    }
  });

  it("has them again after a rebuild from the events, which rewrites the visits in visitor order", async () => {
    const rows = async () =>
      (await store.query(visitRowsSql("duckdb", P, ["c-17", "c-2001"]))).sort((a, b) =>
        String(a.session_id) < String(b.session_id) ? -1 : 1,
      );
    const before = await rows();
    // A file from before the tables' version: the next open drops, refills and sorts them.
    await store.query({ sql: "DELETE FROM lookout_meta WHERE key = 'visitor_tables_version'", params: {} });
    await store.query({ sql: "DELETE FROM lookout_meta WHERE key = 'visitor_visits_sorted'", params: {} });
    await store.close();
    store = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0 });
    const sorted = await store.query<{ value: string }>({
      sql: "SELECT value FROM lookout_meta WHERE key = 'visitor_visits_sorted'",
      params: {},
    });
    expect(Number(sorted[0]?.value)).toBeGreaterThanOrEqual(VISITORS * 2);
    expect(await plan(perClientFromSummarySql("duckdb", P, ["c-17"]))).toMatch(/Index Scan/);
    expect(await plan(visitRowsSql("duckdb", P, ["c-17"]))).toMatch(/Index Scan/);
    expect(await rows()).toEqual(before);
  });
});
