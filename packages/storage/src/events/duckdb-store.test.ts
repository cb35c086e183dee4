// The EventStore conformance suite on DuckDB (a file in a temporary directory), with rollups inside
// each append, with batched rollups, through the ingest log, and on the store's own thread as the
// server runs it, plus what only a file store has: persistence across close/reopen, and catching
// up on batches that were appended but not rolled up before a crash.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { eventStoreConformance } from "./conformance.js";
import { INDEX_SCAN_MAX_COUNT, openDuckDbEventStore } from "./duckdb-store.js";
import { openDuckDbEventStoreOnThread } from "./duckdb-thread-store.js";
import { at, event, profile } from "./fixtures.js";
import { type AggregateResult, runStats } from "./stats.js";

const dirs: string[] = [];
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-events-"));
  dirs.push(dir);
  return join(dir, "events.duckdb");
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

eventStoreConformance("DuckDB, rollups in each append", () => openDuckDbEventStore(tempDb(), { rollupDelayMs: 0 }));
eventStoreConformance("DuckDB, batched rollups", () => openDuckDbEventStore(tempDb(), { rollupDelayMs: 50 }));
eventStoreConformance("DuckDB, appends through the ingest log", () =>
  openDuckDbEventStore(tempDb(), { rollupDelayMs: 50, staging: { flushMs: 20 } }),
);
eventStoreConformance("DuckDB on a thread of its own, appends through the ingest log (as the server runs it)", () =>
  openDuckDbEventStoreOnThread(tempDb(), { rollupDelayMs: 50, staging: {} }),
);

const CTX = { timezone: "UTC", now: at("2024-05-10 12:00:00") };
const P = "persist.example";
const totals = async (store: Awaited<ReturnType<typeof openDuckDbEventStore>>) => {
  const r = (await runStats(
    store,
    { kind: "aggregate", property: P, metrics: ["visitors", "visits", "pageviews"] },
    CTX,
  )) as AggregateResult;
  return { visitors: r.visitors?.value, visits: r.visits?.value, pageviews: r.pageviews?.value };
};

describe("DuckDB persistence", () => {
  it("keeps events, profiles and rollups across close and reopen, and carries on appending", async () => {
    const path = tempDb();
    const a = await openDuckDbEventStore(path);
    await a.append([
      event({ property: P, ts: at("2024-05-09 10:00:00"), visitor_id: "v1", session_id: "s1" }),
      event({ property: P, ts: at("2024-05-09 10:05:00"), visitor_id: "v1", session_id: "s1", path: "/b" }),
    ]);
    await a.upsertVisitors([profile({ property: P, client_id: "c1", email: "x@example.com" })]);
    await a.close(); // no sync(): close() must roll up what is pending
    await expect(a.append([event({ property: P, ts: at("2024-05-09 10:00:00") })])).rejects.toThrow(/closed/);

    const b = await openDuckDbEventStore(path);
    expect(await b.events(P)).toHaveLength(2);
    expect((await b.visitor(P, "c1"))?.email).toBe("x@example.com");
    expect(await totals(b)).toEqual({ visitors: 1, visits: 1, pageviews: 2 });
    // The same visitor returns in a new visit after the reopen: batch numbering and prev_* carry on.
    await b.append([event({ property: P, ts: at("2024-05-09 12:00:00"), visitor_id: "v1", session_id: "s2" })]);
    await b.sync();
    expect(await totals(b)).toEqual({ visitors: 1, visits: 2, pageviews: 3 });
    await b.close();

    const c = await openDuckDbEventStore(path);
    expect(await totals(c)).toEqual({ visitors: 1, visits: 2, pageviews: 3 });
    await c.close();
  });

  it("migrates a file from before property keys: keys every property, rebuilds the rollups", async () => {
    const path = tempDb();
    const a = await openDuckDbEventStore(path);
    await a.append([
      event({ property: P, ts: at("2024-05-09 10:00:00"), visitor_id: "v1", session_id: "s1" }),
      event({ property: "zz.example", ts: at("2024-05-09 10:00:00"), visitor_id: "v1", session_id: "s1" }),
    ]);
    await a.close();
    // Turn it into an earlier format: no pkey anywhere, no property_keys, rollups that do not say
    // which step wrote a row, rollup version 1.
    const db = await DuckDBInstance.create(path);
    const c = await db.connect();
    for (const t of ["events", "sessions", "session_pages", "session_events"]) await c.run(`ALTER TABLE ${t} DROP COLUMN pkey`);
    for (const t of ["sessions", "session_pages", "session_events"]) await c.run(`ALTER TABLE ${t} DROP COLUMN rolled`);
    await c.run("DROP TABLE property_keys");
    await c.run("UPDATE lookout_meta SET value = '1' WHERE key = 'rollup_version'");
    c.closeSync();
    db.closeSync();

    const b = await openDuckDbEventStore(path);
    expect(await totals(b)).toEqual({ visitors: 1, visits: 1, pageviews: 1 });
    await b.append([
      event({ property: P, ts: at("2024-05-09 11:00:00"), visitor_id: "v2", session_id: "s2" }),
      event({ property: "new.example", ts: at("2024-05-09 11:00:00"), visitor_id: "v2", session_id: "s2" }),
    ]);
    await b.sync();
    expect(await totals(b)).toEqual({ visitors: 2, visits: 2, pageviews: 2 });
    const keys = await b.query<{ property: string; pkey: bigint }>({
      sql: "SELECT property, pkey FROM property_keys ORDER BY pkey",
      params: {},
    });
    expect(keys.map((k) => [k.property, Number(k.pkey)])).toEqual([
      [P, 1],
      ["zz.example", 2],
      ["new.example", 3],
    ]);
    const unkeyed = await b.query({ sql: "SELECT count(*)::INTEGER AS n FROM events WHERE pkey IS NULL", params: {} });
    expect(unkeyed).toEqual([{ n: 0 }]);
    await b.close();
  });

  it("rolls up, on the next open, batches a crashed process appended but never rolled up", async () => {
    const path = tempDb();
    // A child appends with rollups far in the future, then dies with kill -9 (no close, no checkpoint).
    const script = join(dirname(path), "crash.mts");
    const self = dirname(fileURLToPath(import.meta.url));
    writeFileSync(
      script,
      [
        `import { openDuckDbEventStore } from ${JSON.stringify(join(self, "duckdb-store.ts"))};`,
        `import { event, at } from ${JSON.stringify(join(self, "fixtures.ts"))};`,
        `const s = await openDuckDbEventStore(${JSON.stringify(path)}, { rollupDelayMs: 600000 });`,
        `await s.append([event({ property: ${JSON.stringify(P)}, ts: at("2024-05-09 10:00:00"), visitor_id: "k", session_id: "k1" })]);`,
        `await s.append([event({ property: ${JSON.stringify(P)}, ts: at("2024-05-09 11:00:00"), visitor_id: "k", session_id: "k2" })]);`,
        `process.kill(process.pid, "SIGKILL");`,
      ].join("\n"),
    );
    const r = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 60_000 });
    expect(r.signal, r.stderr).toBe("SIGKILL");
    const s = await openDuckDbEventStore(path);
    expect(await s.events(P)).toHaveLength(2);
    expect(await totals(s)).toEqual({ visitors: 1, visits: 2, pageviews: 2 });
    await s.close();
  });
});

describe("DuckDB appends", () => {
  it("a batch failing after its first data chunk leaves none of its rows for the next batch", async () => {
    // The writer keeps one appender across batches; the rows a failed batch already handed it
    // (2048 per chunk) must not be committed with whatever is appended next.
    const store = await openDuckDbEventStore(tempDb());
    const good = (i: number) => event({ property: P, ts: at("2024-05-09 10:00:00"), visitor_id: `v${i}`, session_id: `s${i}` });
    const rows = Array.from({ length: 2100 }, (_, i) => good(i));
    rows.push(event({ property: P, ts: new Date(Number.NaN) }));
    await expect(store.append(rows)).rejects.toThrow();
    await store.append([good(0)]);
    await store.sync();
    expect(await store.events(P)).toHaveLength(1);
    await store.close();
  });
});

describe("DuckDB settings", () => {
  it("reads a visitor's rows by index only up to indexScanMaxCount matches (INDEX_SCAN_MAX_COUNT by default), then by a scan", async () => {
    const setting = { sql: "SELECT value FROM duckdb_settings() WHERE name = 'index_scan_max_count'", params: {} };
    const byDefault = await openDuckDbEventStore(tempDb());
    expect(await byDefault.query(setting)).toEqual([{ value: String(INDEX_SCAN_MAX_COUNT) }]);
    // The count decides at every size: no share of a large table's rows raises it.
    const share = { sql: "SELECT value FROM duckdb_settings() WHERE name = 'index_scan_percentage'", params: {} };
    expect(await byDefault.query(share)).toEqual([{ value: "0.0" }]);
    await byDefault.close();
    const asked = await openDuckDbEventStore(tempDb(), { indexScanMaxCount: 2048 });
    expect(await asked.query(setting)).toEqual([{ value: "2048" }]);
    await asked.close();
  });
});
