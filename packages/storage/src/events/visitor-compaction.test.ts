// DuckDB's upkeep of visitor_visits' visitor order (visitor-tables.ts compactIfDue), outside any
// transaction of its caller: the newest rows sorted into a run, and the whole rewritten: the rows come back whole in (pkey, client_id, start_ts) order with
// their index, a piece at a time (whole small properties, a big one by client-id ranges), the due rule holds, and a copy left by a crash is dropped. 60 000 visit rows under
// a 200 MB memory limit. (Its memory at scale is the visitors bench's: a 10M-event load under the
// server's 1 GB limit, which the old in-transaction rewrite failed at 6M events.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { VISIT_TABLE_COLUMNS } from "@lookout/query";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPACT_MIN_TAIL, compactIfDue, duckVisitorTablesDdl } from "./visitor-tables.js";

const ROWS = 60_000;

/** A value of each column type for row `i` (its lists a few entries long, like a short visit). */
const VALUE: Record<string, string> = {
  string: "'v' || (i % 97)",
  timestamp: "TIMESTAMP '2024-01-01' + to_seconds(i)",
  count: "i % 13",
  float64: "(i % 7) * 1.5",
  strings: "['/page/' || (i % 50), '/pricing', '/docs/' || (i % 11)]",
  timestamps: "[TIMESTAMP '2024-01-01' + to_seconds(i), TIMESTAMP '2024-01-01' + to_seconds(i + 30)]",
  floats: "[(i % 5) * 1.0, 2.5]",
};

describe("visitor_visits' rewrite in visitor order (DuckDB)", () => {
  let dir: string;
  let db: DuckDBInstance;
  let c: DuckDBConnection;
  const scalar = async (sql: string) => (await c.runAndReadAll(sql)).getRows()[0]?.[0];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lookout-compaction-"));
    db = await DuckDBInstance.create(join(dir, "events.duckdb"), { memory_limit: "200MB", threads: "2" });
    c = await db.connect();
    await c.run("CREATE TABLE lookout_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)");
    for (const ddl of duckVisitorTablesDdl()) await c.run(ddl);
    // Client ids in scrambled order, as visits arrive in time order from many visitors.
    const cols = VISIT_TABLE_COLUMNS.map(([, t]) => VALUE[t] as string);
    // Three properties, the first bigger than a piece (cut by client-id ranges), the others one piece together.
    await c.run(
      `INSERT INTO visitor_visits SELECT 'p' || (CASE WHEN i % 10 < 8 THEN 1 ELSE i % 10 END) || '.example', ` +
        `CASE WHEN i % 10 < 8 THEN 1 ELSE i % 10 END, md5(CAST(i % 20000 AS VARCHAR)), 's' || i, ${cols.join(", ")} FROM range(${ROWS}) t(i)`,
    );
  }, 120_000);
  afterAll(() => {
    c?.closeSync();
    db?.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is not due while the unsorted tail is under COMPACT_MIN_TAIL rows", async () => {
    expect(ROWS).toBeLessThan(COMPACT_MIN_TAIL);
    expect(await compactIfDue(c)).toBeNull();
  });

  it("rewrites the rows in visitor order within the memory limit, with the index, after dropping a crashed copy", async () => {
    // A copy a crash left between the rewrite's two steps.
    await c.run("CREATE TABLE _vc AS SELECT * FROM visitor_visits LIMIT 10");
    const before = await scalar("SELECT sum(hash(session_id, client_id, n_pageviews)) FROM visitor_visits");
    // Pieces of 10 000 rows: the big property (48 000) in client-id ranges, each small one (6 000) whole.
    expect(await compactIfDue(c, { force: true, pieceRows: 10_000 })).toBe("rewrite");
    expect(await scalar("SELECT count(*) FROM visitor_visits")).toBe(BigInt(ROWS));
    expect(await scalar("SELECT sum(hash(session_id, client_id, n_pageviews)) FROM visitor_visits")).toBe(before);
    // In table order (a scan keeps it), each row's (pkey, client id) is at least the one before it.
    const unordered = await scalar(
      "SELECT count(*) FROM (SELECT (pkey, client_id) < lag((pkey, client_id)) OVER (ORDER BY rowid) AS back FROM visitor_visits) WHERE back",
    );
    expect(unordered).toBe(0n);
    expect(await scalar("SELECT count(*) FROM duckdb_indexes() WHERE index_name = 'visitor_visits_client'")).toBe(1n);
    expect(await scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name = '_vc'")).toBe(0n);
    expect(await scalar("SELECT value FROM lookout_meta WHERE key = 'visitor_visits_sorted'")).toBe(String(ROWS));
    // Sorted now: not due again.
    expect(await compactIfDue(c)).toBeNull();
  }, 120_000);

  it("sorts the newest rows into a run once they are enough, and rewrites the whole once runs and tail match the sorted part", async () => {
    const cols = VISIT_TABLE_COLUMNS.map(([, t]) => VALUE[t] as string);
    const append = (n: number, tag: string) =>
      c.run(
        `INSERT INTO visitor_visits SELECT 'p1.example', 1, md5(CAST(i % 3000 AS VARCHAR)), '${tag}' || i, ${cols.join(", ")} FROM range(${n}) t(i)`,
      );
    const sum = () => scalar("SELECT sum(hash(session_id, client_id, n_pageviews)) FROM visitor_visits");
    await append(12_000, "r");
    const before = await sum();
    expect(await compactIfDue(c, { minTail: 10_000 })).toBe("run");
    expect(await scalar("SELECT count(*) FROM visitor_visits")).toBe(BigInt(ROWS + 12_000));
    expect(await sum()).toBe(before);
    const runEnd = Number(await scalar("SELECT value FROM lookout_meta WHERE key = 'visitor_visits_run_end'"));
    expect(runEnd).toBe(Number(await scalar("SELECT max(rowid) + 1 FROM visitor_visits")));
    // The sorted part as it was, then the run in order: each in (pkey, client id) order by rowid.
    const back = (where: string) =>
      scalar(
        `SELECT count(*) FROM (SELECT (pkey, client_id) < lag((pkey, client_id)) OVER (ORDER BY rowid) AS back FROM visitor_visits WHERE ${where}) WHERE back`,
      );
    expect(await back("NOT starts_with(session_id, 'r')")).toBe(0n);
    expect(await back("starts_with(session_id, 'r')")).toBe(0n);
    // A visitor's rows read by the index are all there.
    const id = await scalar("SELECT md5('17')");
    expect(await scalar(`SELECT count(*) FROM visitor_visits WHERE client_id = '${id}' AND starts_with(session_id, 'r')`)).toBe(
      4n,
    );
    expect(await compactIfDue(c, { minTail: 10_000 })).toBeNull();
    await append(60_000, "w");
    expect(await compactIfDue(c, { minTail: 10_000 })).toBe("rewrite");
    expect(await back("true")).toBe(0n);
    expect(await scalar("SELECT value FROM lookout_meta WHERE key = 'visitor_visits_sorted'")).toBe(String(ROWS + 72_000));
  }, 120_000);
});
