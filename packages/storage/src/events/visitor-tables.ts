// The per-visitor tables in each engine (@lookout/query visitors-tables.ts says what they hold and
// prints the SQL that fills them): their DDL, DuckDB's upkeep per appended batch and its rebuild
// from `events` (a file from before the tables, or a change of VISITOR_TABLES_VERSION), and
// ClickHouse's materialized views with the backfill of events stored before them.
//
// Cost at ingest (DuckDB): per batch, one GROUP BY of the batch's rows into visit partials, and one
// into per-visitor rows upserted by primary key (an index lookup per visitor touched).
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  SUMMARY_COLUMNS,
  summaryStatesSql,
  summaryStateType,
  summaryTableColumns,
  summaryUpsertSql,
  VISIT_TABLE_COLUMNS,
  VISITOR_TABLES_VERSION,
  type VisitorTableColumnType,
  visitFillSql,
  visitTableColumns,
} from "@lookout/query";
import { rows } from "./duckdb-read.js";
import { transaction } from "./duckdb-rollup.js";

export const VISITOR_TABLES = ["visitor_visits", "visitor_summary"] as const;

const DUCK_TYPES: Record<VisitorTableColumnType, string> = {
  string: "VARCHAR",
  timestamp: "TIMESTAMP",
  count: "BIGINT",
  float64: "DOUBLE",
  strings: "VARCHAR[]",
  timestamps: "TIMESTAMP[]",
  floats: "DOUBLE[]",
};

const CH_TYPES: Record<VisitorTableColumnType, string> = {
  string: "String",
  timestamp: "DateTime('UTC')",
  count: "UInt64",
  float64: "Float64",
  strings: "Array(String)",
  timestamps: "Array(DateTime('UTC'))",
  floats: "Array(Float64)",
};

const create = (name: string, cols: string[], after = "") =>
  `CREATE TABLE IF NOT EXISTS ${name} (\n  ${cols.join(",\n  ")}\n)${after ? ` ${after}` : ""}`;

/**
 * DuckDB: an ART index on client_id for each table, so a visitor's page reads its rows by index
 * (DuckDB scans by an index for an equality or IN on one indexed column while they match up to
 * `index_scan_max_count` rows, 64 as the store sets it (duckdb-store.ts INDEX_SCAN_MAX_COUNT); a heavier visitor's read falls back to the scan,
 * which the visits' visitor order narrows). The summary's primary key (pkey, client_id) is not
 * used for reads: DuckDB scans by single-column indexes only. Measured at 10M events (1.5M
 * visitors) on a loaded machine: a summary lookup 130-230 ms by scan, under 1 ms by index.
 */
const DUCK_INDEXES = {
  visitor_visits: "CREATE INDEX IF NOT EXISTS visitor_visits_client ON visitor_visits (client_id)",
  visitor_summary: "CREATE INDEX IF NOT EXISTS visitor_summary_client ON visitor_summary (client_id)",
} as const;

/**
 * DuckDB: both tables, then their indexes. visitor_visits is appended per batch (reads filter on
 * pkey and client_id, its zone maps on start_ts narrow a visitor's span); visitor_summary's primary
 * key is what each batch's upsert finds a visitor's row by, and `skeys` its visits' keys.
 */
export function duckVisitorTablesDdl(): string[] {
  const key = (k: string[]) => k.map((c) => `${c} ${c === "pkey" ? "BIGINT" : "VARCHAR"} NOT NULL`);
  return [
    create("visitor_visits", [
      ...key(["property", "pkey", "client_id", "session_id"]),
      ...VISIT_TABLE_COLUMNS.map(([n, t]) => `${n} ${DUCK_TYPES[t]} NOT NULL`),
    ]),
    create("visitor_summary", [
      ...key(["property", "pkey", "client_id"]),
      ...SUMMARY_COLUMNS.map(([n, t]) => `${n} ${DUCK_TYPES[t]} NOT NULL`),
      "skeys BIGINT[] NOT NULL",
      "PRIMARY KEY (pkey, client_id)",
    ]),
    ...Object.values(DUCK_INDEXES),
  ];
}

/** ClickHouse: the tables, then the views that feed them from each INSERT into `events`. */
export function chVisitorTablesDdl(): string[] {
  const key = (k: string[]) => k.map((c) => `${c} String`);
  return [
    create(
      "visitor_visits",
      [...key(["property", "client_id", "session_id"]), ...VISIT_TABLE_COLUMNS.map(([n, t]) => `${n} ${CH_TYPES[t]}`)],
      "ENGINE = MergeTree() ORDER BY (property, client_id, session_id)",
    ),
    create(
      "visitor_summary",
      [...key(["property", "client_id"]), ...SUMMARY_COLUMNS.map(([n]) => `${n} ${summaryStateType(n)}`)],
      "ENGINE = AggregatingMergeTree() ORDER BY (property, client_id)",
    ),
    `CREATE MATERIALIZED VIEW IF NOT EXISTS visitor_visits_mv TO visitor_visits AS ${visitFillSql("clickhouse", "events")}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS visitor_summary_mv TO visitor_summary AS ${summaryStatesSql("events")}`,
  ];
}

/** ClickHouse: fills the new tables from the events stored before their views existed. */
export function chVisitorBackfillSql(): string[] {
  return [
    `INSERT INTO visitor_visits (${visitTableColumns("clickhouse").join(", ")}) ${visitFillSql("clickhouse", "events")}`,
    `INSERT INTO visitor_summary (${summaryTableColumns("clickhouse").join(", ")}) ${summaryStatesSql("events")}`,
  ];
}

const VISIT_INSERT = `INSERT INTO visitor_visits (${visitTableColumns("duckdb").join(", ")}) `;

/** DuckDB: the visit partials and summaries of the events `where` selects, on `c` inside the caller's transaction. */
async function fill(c: DuckDBConnection, where: string): Promise<void> {
  await c.run(`${VISIT_INSERT}${visitFillSql("duckdb", `events WHERE ${where}`)};\n${summaryUpsertSql(`events WHERE ${where}`)}`);
}

/** DuckDB: brings the tables up to date with batch `b` (already in `events` in the open transaction). */
export async function appendVisitorBatch(c: DuckDBConnection, b: bigint): Promise<void> {
  await fill(c, `batch = ${BigInt.asIntN(64, b).toString()}`);
}

/** visitor_visits' newest rows are sorted into a run once they are this many (compactIfDue). */
export const COMPACT_MIN_TAIL = 200_000;

/** The rewrite sorts at most about this many rows at a time, so that each sort stays well inside the memory limit. */
export const COMPACT_PIECE_ROWS = 100_000;

interface Piece {
  where: string;
  params: Record<string, string>;
}

/**
 * The rewrite's pieces, in (pkey, client_id) order: runs of whole properties up to `pieceRows`
 * rows, and a bigger property in client-id ranges cut at quantiles of a sample of its ids (bound,
 * as client ids are visitors' input). Together they hold every row once.
 */
async function compactPieces(c: DuckDBConnection, pieceRows: number): Promise<Piece[]> {
  const sizes = await rows(c, "SELECT pkey, count(*) AS n FROM visitor_visits GROUP BY pkey ORDER BY pkey");
  const pieces: Piece[] = [];
  let run: bigint[] = [];
  let runRows = 0;
  const flush = () => {
    if (run.length > 0) pieces.push({ where: `pkey BETWEEN ${run[0]} AND ${run[run.length - 1]}`, params: {} });
    run = [];
    runRows = 0;
  };
  for (const s of sizes) {
    const pkey = BigInt(s.pkey as bigint | number);
    const n = Number(s.n);
    if (n <= pieceRows) {
      if (runRows + n > pieceRows) flush();
      run.push(pkey);
      runRows += n;
      continue;
    }
    flush();
    const k = Math.ceil(n / pieceRows);
    const fractions = Array.from({ length: k - 1 }, (_, i) => ((i + 1) / k).toFixed(6));
    const [q] = await rows(
      c,
      `SELECT quantile_disc(client_id, [${fractions.join(", ")}]) AS b FROM (SELECT client_id FROM visitor_visits WHERE pkey = ${pkey}) USING SAMPLE 100000 ROWS`,
    );
    const bounds = [...new Set((Array.isArray(q?.b) ? q.b : []).map(String))];
    for (let i = 0; i <= bounds.length; i++) {
      const where = [`pkey = ${pkey}`];
      const params: Record<string, string> = {};
      if (i > 0) {
        where.push("client_id >= $lo");
        params.lo = bounds[i - 1] as string;
      }
      if (i < bounds.length) {
        where.push("client_id < $hi");
        params.hi = bounds[i] as string;
      }
      pieces.push({ where: where.join(" AND "), params });
    }
  }
  flush();
  return pieces;
}

/**
 * DuckDB: keeps visitor_visits close to (pkey, client_id) order. Appended in time order, a visitor
 * with visits all year has rows in every block, and a read of them fetches as many blocks; in
 * visitor order their rows lie together. Two steps, run on the writer between batches (in the
 * write queue, so no rows arrive meanwhile), never inside an append's transaction:
 *
 * - A run: once the rows appended since the last run or rewrite (rowid at or past the recorded run
 *   end) are COMPACT_MIN_TAIL or more, they are deleted and appended again sorted, in one
 *   transaction (about 100 MB of rows held until its commit). A visitor's rows then lie in the
 *   sorted part and in at most one place per run, instead of one per visit: at 10M events the heavy
 *   visitor's page went from 151 / 167 ms (p50 / p95, 780 000 unsorted rows) to 114 / 139 ms.
 * - A rewrite: once the rows outside the sorted part (runs and tail) are as many as the sorted part
 *   (so each row is rewritten about twice over its life), the whole table is written again in
 *   order, a piece at a time (compactPieces): each piece's sorted rows are written to the file by
 *   their own statement, and only the swap (drop, rename, index) is one transaction; readers keep
 *   the old table until it commits. Done in the batch's transaction with one sort, both copies were
 *   held in memory until the commit, and a 10M-event load failed against the 1 GB memory limit at
 *   6.7M events (1.6M visit rows); a single sort outside it failed there too, next to the data not
 *   yet checkpointed. A copy left by a crash is dropped by the next rewrite.
 *
 * The run end is a rowid: should a checkpoint ever renumber rows, a run may take a few rows again or
 * leave a few for the next rewrite; the rows themselves are never lost (the delete and the insert
 * read the same rows in one transaction).
 */
export async function compactIfDue(
  c: DuckDBConnection,
  o: { force?: boolean; pieceRows?: number; minTail?: number } = {},
): Promise<"rewrite" | "run" | null> {
  const { force = false, pieceRows = COMPACT_PIECE_ROWS, minTail = COMPACT_MIN_TAIL } = o;
  const [r] = await rows(
    c,
    "SELECT (SELECT count(*) FROM visitor_visits) AS n, (SELECT value FROM lookout_meta WHERE key = 'visitor_visits_sorted') AS sorted, " +
      "(SELECT value FROM lookout_meta WHERE key = 'visitor_visits_run_end') AS run_end",
  );
  const n = Number(r?.n ?? 0);
  const sorted = Number(r?.sorted ?? 0);
  // A file from before the runs: its sorted part ends where its rewrite did.
  const runEnd = r?.run_end === null || r?.run_end === undefined ? sorted : Number(r.run_end);
  const outside = n - sorted;
  const [t] = await rows(c, `SELECT count(*) AS tail FROM visitor_visits WHERE rowid >= ${runEnd}`);
  const tail = Number(t?.tail ?? 0);
  // A tail far past a run's size (a file from before the runs) is rewritten a piece at a time instead.
  if (force || (outside >= minTail && outside >= sorted) || tail > 2 * minTail) {
    await rewriteVisits(c, n, pieceRows);
    return "rewrite";
  }
  if (tail < minTail) return null;
  await transaction(c, async () => {
    await c.run(
      `CREATE OR REPLACE TEMP TABLE _vt AS SELECT * FROM visitor_visits WHERE rowid >= ${runEnd} ORDER BY pkey, client_id, start_ts`,
    );
    await c.run(`DELETE FROM visitor_visits WHERE rowid >= ${runEnd}`);
    await c.run("INSERT INTO visitor_visits SELECT * FROM _vt");
    await c.run("DROP TABLE _vt");
  });
  // Committed rows take rowids past every earlier one (deleted slots are not reused); inside the
  // transaction they had provisional ones, hence after it. (A crash in between: the next run sorts
  // this one again.)
  await c.run(
    "INSERT OR REPLACE INTO lookout_meta SELECT 'visitor_visits_run_end', CAST(coalesce(max(rowid) + 1, 0) AS VARCHAR) FROM visitor_visits",
  );
  return "run";
}

/** The whole of visitor_visits written again in visitor order, a piece at a time, then swapped in. */
async function rewriteVisits(c: DuckDBConnection, n: number, pieceRows: number): Promise<void> {
  const [visits] = duckVisitorTablesDdl();
  await c.run("DROP TABLE IF EXISTS _vc");
  await c.run((visits as string).replace("visitor_visits", "_vc"));
  for (const piece of await compactPieces(c, pieceRows)) {
    await c.run(
      `INSERT INTO _vc SELECT * FROM visitor_visits WHERE ${piece.where} ORDER BY pkey, client_id, start_ts`,
      piece.params,
    );
  }
  await transaction(c, async () => {
    await c.run("DROP INDEX IF EXISTS visitor_visits_client");
    await c.run("DROP TABLE visitor_visits");
    await c.run("ALTER TABLE _vc RENAME TO visitor_visits");
    // Built after the rows are in: one bulk build, not an insert per row.
    await c.run(DUCK_INDEXES.visitor_visits);
    await c.run("INSERT OR REPLACE INTO lookout_meta VALUES ('visitor_visits_sorted', $v)", { v: String(n) });
    await c.run("INSERT OR REPLACE INTO lookout_meta VALUES ('visitor_visits_run_end', $v)", { v: String(n) });
  });
}

/**
 * DuckDB: rebuilds both tables from `events` when the file's version differs (run at open, in the
 * write queue): emptied first, then filled a share of the visitors at a time (one pass over 10M
 * events would hold every visit's lists at once), the version recorded last, so an interrupted
 * rebuild starts again.
 */
export async function migrateDuckVisitorTables(c: DuckDBConnection, chunkEvents: number): Promise<void> {
  for (const ddl of duckVisitorTablesDdl()) await c.run(ddl);
  const meta = await rows(c, "SELECT value FROM lookout_meta WHERE key = 'visitor_tables_version'");
  if (String(meta[0]?.value ?? "") === VISITOR_TABLES_VERSION) return;
  await transaction(c, async () => {
    for (const t of VISITOR_TABLES) await c.run(`DROP TABLE IF EXISTS ${t}`);
    for (const ddl of duckVisitorTablesDdl()) await c.run(ddl);
  });
  const n = Number((await rows(c, "SELECT count(*) AS n FROM events"))[0]?.n ?? 0);
  const chunks = Math.max(1, Math.ceil(n / Math.max(1, chunkEvents)));
  for (let i = 0; i < chunks; i++) {
    const share = chunks === 1 ? "true" : `hash(client_id) % ${chunks} = ${i}`;
    await transaction(c, () => fill(c, share));
  }
  await compactIfDue(c, { force: true });
  await c.run("INSERT OR REPLACE INTO lookout_meta VALUES ('visitor_tables_version', $v)", { v: VISITOR_TABLES_VERSION });
}
