// ClickHouse's visit tables (@lookout/query clickhouse-visits.ts says what they hold and how they
// are read): their DDL, the materialized views that fill them from each INSERT into the events
// table, and the backfill of events stored before the views existed. On a cluster every shard
// keeps `<table>_local` fed from its own `events_local`, behind a Distributed `<table>`: a visit's
// events may sit on two shards (rows are sharded by ingest record), and the reads' GROUP BY merges
// the states of both.
import {
  DONE_MARKS_TABLE,
  DONE_TABLES,
  doneColumns,
  PREV_COLUMNS,
  stateType,
  VISIT_TABLE_NAMES,
  VISIT_TABLES,
  type VisitStateTable,
  visitStatesSql,
  visitTableKey,
} from "@lookout/query";

/** Where the DDL puts things: a table's stored name and the events table its view reads. */
export interface VisitTableNames {
  stored(table: VisitStateTable): string;
  view(table: VisitStateTable): string;
  events: string;
}

/** The tables, then the views that feed them. */
export function chVisitTablesDdl(n: VisitTableNames): string[] {
  const tables = VISIT_TABLE_NAMES.map((t) => {
    const key = visitTableKey(t);
    const cols = [...key.map(([c, type]) => `${c} ${type}`), ...VISIT_TABLES[t].states.map((s) => `${s.name} ${stateType(s)}`)];
    return (
      `CREATE TABLE IF NOT EXISTS ${n.stored(t)} (\n  ${cols.join(",\n  ")}\n) ` +
      `ENGINE = AggregatingMergeTree() PARTITION BY toYYYYMM(day) ORDER BY (${key.map(([c]) => c).join(", ")})`
    );
  });
  const views = VISIT_TABLE_NAMES.map(
    (t) => `CREATE MATERIALIZED VIEW IF NOT EXISTS ${n.view(t)} TO ${n.stored(t)} AS ${visitStatesSql(t, n.events)}`,
  );
  return [...tables, ...views];
}

/** Fills the tables from the events stored before their views existed. */
export function chVisitBackfillSql(n: VisitTableNames): string[] {
  return VISIT_TABLE_NAMES.map((t) => `INSERT INTO ${n.stored(t)} ${visitStatesSql(t, n.events)}`);
}

/** The Distributed table over each shard's `<table>_local` (reads only: the views insert locally). */
export function chVisitDistributedDdl(database: string, cluster: string, t: VisitStateTable): string {
  return `CREATE TABLE IF NOT EXISTS ${database}.${t} AS ${database}.${t}_local ENGINE = Distributed(${cluster}, ${database}, ${t}_local)`;
}

/**
 * The settled rows' tables (plain columns, one row per visit, per visit and path, per visit and
 * event name, keyed by the visit's UTC start day and the settle step's batch) and the marks of
 * which batch each day's rows are (clickhouse-visits.ts says how they are read).
 */
export function chDoneTablesDdl(stored: (table: string) => string): string[] {
  const tables = VISIT_TABLE_NAMES.map((t) => {
    const cols = [
      "property String",
      "day Date",
      "batch UInt64",
      ...doneColumns(t).map(([n, type]) => `${n} ${type}`),
      ...PREV_COLUMNS[t].map(([p]) => `${p} DateTime('UTC')`),
    ];
    return (
      `CREATE TABLE IF NOT EXISTS ${stored(DONE_TABLES[t])} (\n  ${cols.join(",\n  ")}\n) ` +
      "ENGINE = MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (property, day, batch, skey)"
    );
  });
  const marks =
    `CREATE TABLE IF NOT EXISTS ${stored(DONE_MARKS_TABLE)} (day Date, batch UInt64, at UInt64) ` +
    "ENGINE = MergeTree() ORDER BY (day, at)";
  return [...tables, marks];
}

/** The Distributed tables over each shard's settled rows and marks (the settle step inserts through them). */
export function chDoneDistributedDdl(database: string, cluster: string): string[] {
  const dist = (t: string, key: string) =>
    `CREATE TABLE IF NOT EXISTS ${database}.${t} AS ${database}.${t}_local ENGINE = Distributed(${cluster}, ${database}, ${t}_local, ${key})`;
  return [...VISIT_TABLE_NAMES.map((t) => dist(DONE_TABLES[t], "skey")), dist(DONE_MARKS_TABLE, "rand()")];
}
