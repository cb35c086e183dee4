// The ClickHouse event store's schema (clickhouse-store.ts): on one node, the database, `events`,
// `visitors`, the per-visitor tables (visitor-tables.ts) and the visit tables
// (clickhouse-visit-tables.ts), both backfilled on their first creation, and the visits' settled
// rows with their marks (filled by clickhouse-settle.ts) and their day rows (clickhouse-day-rows.ts),
// and the event slots (clickhouse-event-slots.ts);
// on a cluster, each shard's `<table>_local` and the Distributed `<table>` over them, the DDL run
// on each shard in turn (18.16's ON CLUSTER needs ZooKeeper). Also the one JSONEachRow reader.
import type { ClickHouseClient } from "@clickhouse/client";
import { DONE_MARKS_TABLE, DONE_TABLES, EVENT_SLOTS_TABLE, VISIT_TABLE_NAMES } from "@lookout/query";
import type { ClickHouseCluster } from "./clickhouse-options.js";
import { CH_VISITORS_DDL, chEventsDdl, identifier } from "./clickhouse-sql.js";
import {
  chDoneDistributedDdl,
  chDoneTablesDdl,
  chVisitBackfillSql,
  chVisitDistributedDdl,
  chVisitTablesDdl,
  type VisitTableNames,
} from "./clickhouse-visit-tables.js";
import { chDayRowsDdl, chDayRowsDistributedDdl } from "./clickhouse-day-rows.js";
import { chEventSlotsDistributedDdl, migrateEventSlots } from "./clickhouse-event-slots.js";
import { chVisitorBackfillSql, chVisitorTablesDdl } from "./visitor-tables.js";

/** What the migration runs on: the store's client, the default-database client, each shard's. */
export interface MigrateTarget {
  client: ClickHouseClient;
  admin: ClickHouseClient;
  database: string;
  cluster: ClickHouseCluster | undefined;
  shards: readonly ClickHouseClient[];
}

export async function rows<T>(c: ClickHouseClient, sql: string, extra: Record<string, unknown> = {}): Promise<T[]> {
  const rs = await c.query({ query: sql, format: "JSONEachRow", ...extra });
  return (await rs.json()) as T[];
}

export async function migrateClickHouse(c: MigrateTarget): Promise<void> {
  const cluster = c.cluster;
  if (!cluster) {
    await c.admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${c.database}` });
    for (const ddl of [chEventsDdl(), CH_VISITORS_DDL]) await c.client.command({ query: ddl });
    await migrateVisitorTables(c.client);
    await migrateVisitTables(c.client, { stored: (t) => t, view: (t) => `${t}_mv`, events: "events" });
    await migrateEventSlots(c.client, { stored: EVENT_SLOTS_TABLE, view: `${EVENT_SLOTS_TABLE}_mv`, events: "events" });
    await dropDoneTablesBeforePrev(c.client, [""]);
    for (const ddl of [...chDoneTablesDdl((t) => t), ...chDayRowsDdl((t) => t)]) await c.client.command({ query: ddl });
    return;
  }
  const db = c.database;
  // A record's rows stay on one shard; rows without one (direct appends) spread by visit.
  const keys = { events: "sipHash64(if(ingest_batch = '', session_id, ingest_batch))", visitors: "sipHash64(client_id)" };
  for (const shard of c.shards) {
    await shard.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
    for (const [table, ddl] of [
      ["events", chEventsDdl()],
      ["visitors", CH_VISITORS_DDL],
    ] as const) {
      const local = ddl.replace(`CREATE TABLE IF NOT EXISTS ${table} `, `CREATE TABLE IF NOT EXISTS ${db}.${table}_local `);
      if (local === ddl) throw new Error(`unexpected DDL for ${table}`);
      await shard.command({ query: local });
      await shard.command({
        query:
          `CREATE TABLE IF NOT EXISTS ${db}.${table} AS ${db}.${table}_local ` +
          `ENGINE = Distributed(${identifier(cluster.name)}, ${db}, ${table}_local, ${keys[table]})`,
      });
    }
    // Each shard's visit states come from its own events (the views fire on events_local).
    await migrateVisitTables(shard, {
      stored: (t) => `${db}.${t}_local`,
      view: (t) => `${db}.${t}_mv`,
      events: `${db}.events_local`,
    });
    for (const t of VISIT_TABLE_NAMES) await shard.command({ query: chVisitDistributedDdl(db, identifier(cluster.name), t) });
    await migrateEventSlots(shard, {
      stored: `${db}.${EVENT_SLOTS_TABLE}_local`,
      view: `${db}.${EVENT_SLOTS_TABLE}_mv`,
      events: `${db}.events_local`,
    });
    await shard.command({ query: chEventSlotsDistributedDdl(db, identifier(cluster.name)) });
    await dropDoneTablesBeforePrev(shard, ["", "_local"], db);
    for (const ddl of chDoneTablesDdl((t) => `${db}.${t}_local`)) await shard.command({ query: ddl });
    for (const ddl of chDoneDistributedDdl(db, identifier(cluster.name))) await shard.command({ query: ddl });
    for (const ddl of chDayRowsDdl((t) => `${db}.${t}_local`)) await shard.command({ query: ddl });
    for (const ddl of chDayRowsDistributedDdl(db, identifier(cluster.name))) await shard.command({ query: ddl });
  }
}

/**
 * The visit tables and their views (clickhouse-visit-tables.ts); on their first creation, the
 * events already stored are folded in (at open, before this process appends; like the per-visitor
 * tables, another server appending during that first migration would be counted twice).
 */
async function migrateVisitTables(client: ClickHouseClient, n: VisitTableNames): Promise<void> {
  const had = await rows<Record<string, number>>(client, `EXISTS TABLE ${n.view("visits")}`);
  const exists = Number(Object.values(had[0] ?? {})[0] ?? 0) === 1;
  for (const ddl of chVisitTablesDdl(n)) await client.command({ query: ddl });
  if (!exists) for (const sql of chVisitBackfillSql(n)) await client.command({ query: sql });
}

/**
 * Settled rows from before prev_* (clickhouse-visits.ts) would count a returning visitor once per
 * visit: the settled tables and their marks are dropped (each name + suffix), so they are created
 * again empty, the stored days marked not settled at open, and settled again with prev_*.
 */
async function dropDoneTablesBeforePrev(client: ClickHouseClient, suffixes: readonly string[], db?: string): Promise<void> {
  const where = db ? `database = '${db}'` : "database = currentDatabase()";
  const table = `${DONE_TABLES.visits}${suffixes.at(-1)}`;
  const found = await rows<{ n: number; p: number }>(
    client,
    `SELECT count() AS n, countIf(name = 'prev_any') AS p FROM system.columns WHERE ${where} AND table = '${table}'`,
  );
  if (Number(found[0]?.n ?? 0) === 0 || Number(found[0]?.p ?? 0) > 0) return;
  const prefix = db ? `${db}.` : "";
  for (const t of [...Object.values(DONE_TABLES), DONE_MARKS_TABLE])
    for (const suffix of suffixes) await client.command({ query: `DROP TABLE IF EXISTS ${prefix}${t}${suffix}` });
}

/**
 * The per-visitor tables and the views that feed them (visitor-tables.ts); on their first
 * creation, the events already stored are copied in (at open, before this process appends).
 */
async function migrateVisitorTables(client: ClickHouseClient): Promise<void> {
  const had = await rows<{ n: number }>(client, "EXISTS TABLE visitor_summary_mv");
  const exists = Number(Object.values(had[0] ?? {})[0] ?? 0) === 1;
  for (const ddl of chVisitorTablesDdl()) await client.command({ query: ddl });
  if (!exists) for (const sql of chVisitorBackfillSql()) await client.command({ query: sql });
}
