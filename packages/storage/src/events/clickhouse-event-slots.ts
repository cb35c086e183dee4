// ClickHouse's event slots (@lookout/query event-slots.ts says what a row is and how trends read
// them): the table, the materialized view that fills it from each INSERT into events, the backfill
// of the events stored before the view existed, and the refill of the days a deletion touched.
// On a cluster each shard keeps `event_slots_local` from its own `events_local`, behind a
// Distributed `event_slots`; a read merges the states of every shard.
import type { ClickHouseClient } from "@clickhouse/client";
import { EVENT_SLOT_DIMENSIONS, EVENT_SLOTS_COLUMNS, EVENT_SLOTS_TABLE, eventSlotsSelect, slotColumn } from "@lookout/query";
import { rows } from "./clickhouse-migrate.js";

/** Where the DDL puts things: the slots' stored name, their view's, and the events table the view reads. */
export interface EventSlotsNames {
  stored: string;
  view: string;
  events: string;
}

/** The table, then the view that feeds it. */
export function chEventSlotsDdl(n: EventSlotsNames): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${n.stored} (${EVENT_SLOTS_COLUMNS.map(([c, t]) => `${c} ${t}`).join(", ")}) ` +
      "ENGINE = AggregatingMergeTree() PARTITION BY toYYYYMM(slot) ORDER BY (property, name, dim, slot, value)",
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${n.view} TO ${n.stored} AS ${eventSlotsSelect(n.events)}`,
  ];
}

/** The Distributed table over a cluster's shards (each shard's view inserts locally; a refill inserts through it). */
export function chEventSlotsDistributedDdl(database: string, cluster: string): string {
  return `CREATE TABLE IF NOT EXISTS ${database}.${EVENT_SLOTS_TABLE} AS ${database}.${EVENT_SLOTS_TABLE}_local ENGINE = Distributed(${cluster}, ${database}, ${EVENT_SLOTS_TABLE}_local, rand())`;
}

/** The columns a view's definition keeps (its ARRAY JOIN's `('column', column)` pairs), sorted. */
export function keptColumns(createQuery: string): string[] {
  return [...createQuery.matchAll(/\('([a-z_]*)', *([a-z_]*|'')\)/g)].map((m) => m[1] ?? "").sort();
}

/**
 * Creates the table and its view; on their first creation the events already stored are folded
 * in (at open, before this process appends: as for the visit tables, another server appending
 * during that first migration would be counted twice). A view that keeps other columns than this
 * release's (EVENT_SLOT_DIMENSIONS changed) is dropped with its table and made again, so no read
 * takes a column the view never wrote.
 */
export async function migrateEventSlots(client: ClickHouseClient, n: EventSlotsNames): Promise<void> {
  const [database, view] = n.view.includes(".") ? n.view.split(".") : [undefined, n.view];
  const found = await rows<{ q: string }>(
    client,
    `SELECT create_table_query AS q FROM system.tables WHERE database = ${database ? `'${database}'` : "currentDatabase()"} AND name = '${view}'`,
  );
  const had = found[0]?.q;
  const wanted = ["", ...EVENT_SLOT_DIMENSIONS.map(slotColumn)].sort();
  const stale = had !== undefined && keptColumns(had).join() !== wanted.join();
  if (stale) {
    await client.command({ query: `DROP TABLE IF EXISTS ${n.view}` });
    await client.command({ query: `DROP TABLE IF EXISTS ${n.stored}` });
  }
  for (const ddl of chEventSlotsDdl(n)) await client.command({ query: ddl });
  if (had === undefined || stale) await client.command({ query: `INSERT INTO ${n.stored} ${eventSlotsSelect(n.events)}` });
}

/** The UTC day (days since 1970-01-01) of a DateTime column. */
const dayOf = (column: string) => `intDiv(toUInt32(${column}), 86400)`;

/**
 * The UTC days that hold events matching `where`, and today's (an event of theirs arriving while
 * the deletion runs most likely lands today). Days, not quarter hours: the list of a visitor seen
 * for years stays a few thousand numbers, where their quarter hours would pass the size a statement
 * may have.
 */
export async function slotDaysOf(client: ClickHouseClient, where: string, nowMs: number): Promise<number[]> {
  const found = await rows<{ d: number }>(client, `SELECT DISTINCT ${dayOf("ts")} AS d FROM events WHERE ${where}`);
  return [...new Set([...found.map((r) => Number(r.d)), Math.floor(nowMs / 86_400_000)])].sort((a, b) => a - b);
}

/** The condition on `column` (a DateTime) of lying in one of the UTC days `days`. */
export const inDays = (column: string, days: readonly number[]) =>
  `${dayOf(column)} IN (${days.map((d) => String(Math.trunc(d))).join(", ")})`;

/**
 * Makes the slots of `days` of a property again from the events left, once the deletion of their
 * rows (after the events a deletion took) is done. An event appended between that deletion and
 * this read counts twice in its slot's event count (its view's row survived the deletion), never
 * in its visitors: the caller runs the two back to back, after every other mutation of the deletion.
 */
export async function refillSlotDays(
  client: ClickHouseClient,
  target: string,
  propertyLiteral: string,
  days: readonly number[],
): Promise<void> {
  if (days.length === 0) return;
  const from = Math.min(...days) * 86_400;
  const to = (Math.max(...days) + 1) * 86_400;
  const where = `property = ${propertyLiteral} AND ts >= toDateTime(${from}, 'UTC') AND ts < toDateTime(${to}, 'UTC') AND ${inDays("ts", days)}`;
  await client.command({ query: `INSERT INTO ${target} ${eventSlotsSelect("events", where)}` });
}
