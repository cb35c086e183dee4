// ClickHouse's day rows and path rows (@lookout/query clickhouse-day-rows.ts and
// clickhouse-path-days.ts say what they are and how reads use them): their DDL, which (property,
// timezone) pairs have them, filling a pair's rows for the winning settle batches that lack them,
// and each pair's first UTC day without them, which SettledVisits carries into every statement.
// The two sets are kept for the same pairs and batches, each with its own marker rows, so a
// database from before path rows fills them at the next settle run while day rows read on.
//
// Filling runs on the store's settle chain (clickhouse-settle.ts's Settler), one step at a time
// with settling: after each settle run for every pair (the batches it just wrote), when a pair is
// first asked for (every settled day), and after a visitor's deletion dropped the rows of the
// batches that held their visits. Any server of a scale-out install can fill a pair's batch;
// two filling it at once write it twice, so a read counts a pair's batch only while it has one
// marker, and the later fill of a doubled batch deletes both and fills it again.
import type { ClickHouseClient } from "@clickhouse/client";
import {
  dayRowsKey,
  PATH_MARKER_KIND,
  VISIT_DAYS_COLUMNS,
  VISIT_DAYS_TABLE,
  VISIT_DAYS_ZONES_TABLE,
  VISIT_PATH_VISITS_COLUMNS,
  VISIT_PATH_VISITS_TABLE,
  VISIT_PATHS_COLUMNS,
  VISIT_PATHS_TABLE,
  visitDaysInsertSql,
  visitPathsInsertSql,
  visitPathVisitsInsertSql,
} from "@lookout/query";
import { rows } from "./clickhouse-migrate.js";
import { literal } from "./clickhouse-sql.js";

/** A property and a timezone whose day rows are kept. */
export interface DayRowsPair {
  property: string;
  tz: string;
}

/** A settled day and its winning batch (as text: up to 2^52). */
export interface Winner {
  day: number;
  batch: string;
}

/**
 * UTC days per INSERT when filling: bounds a fill's memory (day rows: a day's visits times 23
 * dimension rows; path rows: the days' visitors' visits, earlier ones too, read from events).
 */
export const FILL_DAYS = 7;

/** What one INSERT of a row set covers: some properties of one timezone, consecutive batches. */
interface FillChunk {
  properties: readonly string[];
  tz: string;
  chunk: readonly Winner[];
  sinceDay: number;
}

/** A set of rows kept per pair and settle batch, with a marker row per (pair, batch) once filled. */
interface RowSet {
  /** The table of its marker rows. */
  table: string;
  /** Every table it fills (deleted by batch with it). */
  tables: readonly string[];
  /** The condition on its marker rows. */
  marker: string;
  /** A marker row's columns besides property, tz, batch and lday (the batch's UTC day). */
  markerRow: Record<string, string | number>;
  /** The INSERTs of a chunk, in order (the marker follows the last). */
  insert(c: FillChunk): string[];
}

const first = (c: FillChunk) => (c.chunk[0] as Winner).day;
const last = (c: FillChunk) => (c.chunk[c.chunk.length - 1] as Winner).day;

/** The two row sets, by their key in SettledVisits. */
export const ROW_SETS: Record<"dayRows" | "pathRows", RowSet> = {
  dayRows: {
    table: VISIT_DAYS_TABLE,
    tables: [VISIT_DAYS_TABLE],
    marker: "dimension = ''",
    markerRow: {
      dimension: "",
      value: "",
      prev_lday: 0,
      visits: 0,
      pageviews: 0,
      engaged_ms: 0,
      events: 0,
      bounces: 0,
      duration: 0,
    },
    insert: (c) => [
      visitDaysInsertSql({
        properties: c.properties.map(literal),
        tz: literal(c.tz),
        tzName: c.tz,
        batches: c.chunk.map((w) => w.batch),
        sinceDay: c.sinceDay,
        firstDay: first(c),
        lastDay: last(c),
      }),
    ],
  },
  pathRows: {
    table: VISIT_PATHS_TABLE,
    tables: [VISIT_PATHS_TABLE, VISIT_PATH_VISITS_TABLE],
    marker: `kind = ${PATH_MARKER_KIND}`,
    markerRow: { kind: PATH_MARKER_KIND, step: 0, source: "", target: "", prev_lday: 0, visitors: 0 },
    insert: (c) => {
      const fill = {
        properties: c.properties.map(literal),
        tz: literal(c.tz),
        tzName: c.tz,
        batches: c.chunk,
        sinceDay: c.sinceDay,
        firstDay: first(c),
        lastDay: last(c),
      };
      return [visitPathVisitsInsertSql(fill), visitPathsInsertSql(fill)];
    },
  },
};
const SETS = Object.values(ROW_SETS);

/** The row sets' tables and the pairs' table (`stored` names them: `<table>_local` on a cluster's shards). */
export function chDayRowsDdl(stored: (table: string) => string): string[] {
  const columns = (c: readonly (readonly [string, string])[]) => c.map(([n, t]) => `${n} ${t}`).join(", ");
  return [
    `CREATE TABLE IF NOT EXISTS ${stored(VISIT_DAYS_TABLE)} (${columns(VISIT_DAYS_COLUMNS)}) ` +
      "ENGINE = MergeTree() ORDER BY (property, tz, dimension, lday, batch)",
    `CREATE TABLE IF NOT EXISTS ${stored(VISIT_PATHS_TABLE)} (${columns(VISIT_PATHS_COLUMNS)}) ` +
      "ENGINE = MergeTree() ORDER BY (property, tz, kind, lday, batch)",
    `CREATE TABLE IF NOT EXISTS ${stored(VISIT_PATH_VISITS_TABLE)} (${columns(VISIT_PATH_VISITS_COLUMNS)}) ` +
      "ENGINE = MergeTree() ORDER BY (property, tz, start_ms, batch)",
    `CREATE TABLE IF NOT EXISTS ${stored(VISIT_DAYS_ZONES_TABLE)} (property String, tz String) ENGINE = MergeTree() ORDER BY (property, tz)`,
  ];
}

/** The Distributed tables over a cluster's shards (every read sums, so rows may sit on any shard). */
export function chDayRowsDistributedDdl(database: string, cluster: string): string[] {
  return [VISIT_DAYS_TABLE, VISIT_PATHS_TABLE, VISIT_PATH_VISITS_TABLE, VISIT_DAYS_ZONES_TABLE].map(
    (t) =>
      `CREATE TABLE IF NOT EXISTS ${database}.${t} AS ${database}.${t}_local ENGINE = Distributed(${cluster}, ${database}, ${t}_local, rand())`,
  );
}

/** Every pair whose day rows are kept. */
export async function dayRowsPairs(client: ClickHouseClient): Promise<DayRowsPair[]> {
  return rows<DayRowsPair>(client, `SELECT DISTINCT property, tz FROM ${VISIT_DAYS_ZONES_TABLE}`);
}

/** Keeps day rows for a pair from now on (once: a pair already kept is not added again). */
export async function addDayRowsPair(client: ClickHouseClient, pair: DayRowsPair): Promise<void> {
  const found = await rows<{ n: number }>(
    client,
    `SELECT count() AS n FROM ${VISIT_DAYS_ZONES_TABLE} WHERE property = ${literal(pair.property)} AND tz = ${literal(pair.tz)}`,
  );
  if (Number(found[0]?.n ?? 0) > 0) return;
  await client.insert({ table: VISIT_DAYS_ZONES_TABLE, values: [pair], format: "JSONEachRow" });
}

/** The condition on a set's marker rows of `winners` (and of one pair). */
function markerWhere(set: RowSet, winners: readonly Winner[], only?: DayRowsPair): string {
  return [
    set.marker,
    // Plain numbers (below 2^52): 18.16 analyses a list of a thousand function calls for half a second.
    `batch IN (${winners.map((w) => BigInt(w.batch).toString()).join(", ")})`,
    ...(only ? [`property = ${literal(only.property)}`, `tz = ${literal(only.tz)}`] : []),
  ].join(" AND ");
}

/** SettledVisits.dayRows and .pathRows (rowsState of each set). */
export async function dayRowsState(
  client: ClickHouseClient,
  winners: readonly Winner[],
  firstLiveDay: number,
): Promise<{ dayRows: Record<string, number>; pathRows: Record<string, number> }> {
  const [dayRows, pathRows] = await Promise.all(
    [ROW_SETS.dayRows, ROW_SETS.pathRows].map((set) => rowsState(client, set, winners, firstLiveDay)),
  );
  return { dayRows: dayRows ?? {}, pathRows: pathRows ?? {} };
}

/**
 * For every pair with rows of `set`, the first settled day (of `winners`, up to `firstLiveDay`)
 * whose winning batch has not exactly one marker for it. One row per pair.
 */
async function rowsState(
  client: ClickHouseClient,
  set: RowSet,
  winners: readonly Winner[],
  firstLiveDay: number,
): Promise<Record<string, number>> {
  if (winners.length === 0) return {};
  const days = [...winners].map((w) => w.day).sort((a, b) => a - b);
  // A marker row's lday is its batch's UTC day (fillDayRows); day numbers are above 0, so 0 is "no gap".
  const found = await rows<{ property: string; tz: string; gap: number }>(
    client,
    // minIf over no row is 0: no gap. (18.16's lambdas cannot name a column, hence the ARRAY JOIN.)
    `SELECT property, tz, minIf(d, NOT has(filled, d)) AS gap FROM ` +
      `(SELECT property, tz, groupArrayIf(lday, n = 1) AS filled FROM (SELECT property, tz, batch, any(lday) AS lday, count() AS n ` +
      `FROM ${set.table} WHERE ${markerWhere(set, winners)} GROUP BY property, tz, batch) GROUP BY property, tz) ` +
      `ARRAY JOIN [${days.map((d) => Math.trunc(d)).join(", ")}] AS d GROUP BY property, tz`,
  );
  const out: Record<string, number> = {};
  for (const r of found) out[dayRowsKey(r.property, r.tz)] = Number(r.gap) > 0 ? Number(r.gap) : firstLiveDay;
  return out;
}

/** Each pair's marker counts of `set` among `winners`: pair key -> batch -> markers. */
async function markers(client: ClickHouseClient, set: RowSet, winners: readonly Winner[], only?: DayRowsPair) {
  const found = await rows<{ property: string; tz: string; b: string; n: number }>(
    client,
    `SELECT property, tz, toString(batch) AS b, count() AS n FROM ${set.table} WHERE ${markerWhere(set, winners, only)} GROUP BY property, tz, batch`,
  );
  const out = new Map<string, Map<string, number>>();
  for (const r of found) {
    const key = dayRowsKey(r.property, r.tz);
    const m = out.get(key) ?? new Map<string, number>();
    m.set(r.b, Number(r.n));
    out.set(key, m);
  }
  return out;
}

/** What filling needs of the store: its client, its mutations (each shard's rows), its INSERT settings. */
export interface DayRowsTarget {
  client: ClickHouseClient;
  deleteWhere(table: string, where: string): Promise<void>;
  settings(): Record<string, string>;
}

/**
 * Fills the rows of both sets of every pair (or `only`) for the winning batches that have none (or,
 * written twice by two servers at once, more than one marker): rows first, then the markers,
 * FILL_DAYS days per INSERT. The pairs of one timezone that lack the same batches (after a settle
 * run, all of them) share each INSERT, so a settle run costs an INSERT per set and timezone, not
 * per property. Resolves to the (set, pair, batch) fills.
 */
export async function fillDayRows(t: DayRowsTarget, winners: readonly Winner[], only?: DayRowsPair): Promise<number> {
  if (winners.length === 0) return 0;
  const pairs = only ? [only] : await dayRowsPairs(t.client);
  if (pairs.length === 0) return 0;
  let filled = 0;
  // Each set apart: a set that fails (its statement past a memory limit) leaves the other filled,
  // and the caller's next run tries it again; the first failure is thrown after both.
  let failure: unknown;
  for (const set of SETS) {
    try {
      filled += await fillSet(t, set, pairs, winners, only);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure !== undefined) throw failure;
  return filled;
}

async function fillSet(
  t: DayRowsTarget,
  set: RowSet,
  pairs: readonly DayRowsPair[],
  winners: readonly Winner[],
  only?: DayRowsPair,
): Promise<number> {
  const sorted = [...winners].sort((a, b) => a.day - b.day);
  const sinceDay = sorted[0]?.day ?? 0;
  const found = await markers(t.client, set, sorted, only);
  // Pairs grouped by timezone and the batches they lack.
  const groups = new Map<string, { tz: string; properties: string[]; missing: Winner[] }>();
  for (const pair of pairs) {
    const have = found.get(dayRowsKey(pair.property, pair.tz)) ?? new Map<string, number>();
    const doubled = sorted.filter((w) => (have.get(w.batch) ?? 0) > 1);
    if (doubled.length > 0) {
      const where = `property = ${literal(pair.property)} AND tz = ${literal(pair.tz)} AND batch IN (${doubled.map((w) => BigInt(w.batch)).join(", ")})`;
      for (const table of set.tables) await t.deleteWhere(table, where);
    }
    const missing = sorted.filter((w) => have.get(w.batch) !== 1);
    if (missing.length === 0) continue;
    const key = JSON.stringify([pair.tz, missing.map((w) => w.batch)]);
    const group = groups.get(key) ?? { tz: pair.tz, properties: [], missing };
    group.properties.push(pair.property);
    groups.set(key, group);
  }
  let filled = 0;
  for (const { tz, properties, missing } of groups.values()) {
    for (let i = 0; i < missing.length; ) {
      // The missing batches of FILL_DAYS days at most (not always consecutive ones).
      const head = missing[i] as Winner;
      let j = i + 1;
      while (j < missing.length && (missing[j] as Winner).day - head.day < FILL_DAYS) j++;
      const chunk = missing.slice(i, j);
      i = j;
      for (const query of set.insert({ properties, tz, chunk, sinceDay }))
        await t.client.command({ query, clickhouse_settings: t.settings() });
      await t.client.insert({
        table: set.table,
        values: properties.flatMap((property) =>
          chunk.map((w) => ({ property, tz, batch: Number(w.batch), lday: w.day, ...set.markerRow })),
        ),
        format: "JSONEachRow",
      });
      filled += chunk.length * properties.length;
    }
  }
  return filled;
}
