// ClickHouse's event slots (@lookout/query event-slots.ts says what a row is and how trends read
// them): the table, the materialized view that fills it from each INSERT into events, the backfill
// of the events stored before the view existed, and the refill of the slots a deletion touched.
// On a cluster each shard keeps `event_slots_local` from its own `events_local`, behind a
// Distributed `event_slots`; a read merges the states of every shard.
import type { ClickHouseClient } from "@clickhouse/client";
import { EVENT_SLOTS_COLUMNS, EVENT_SLOTS_TABLE, eventSlotsSelect } from "@lookout/query";
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

/**
 * Creates the table and its view; on their first creation the events already stored are folded
 * in (at open, before this process appends: as for the visit tables, another server appending
 * during that first migration would be counted twice).
 */
export async function migrateEventSlots(client: ClickHouseClient, n: EventSlotsNames): Promise<void> {
  const had = await rows<Record<string, number>>(client, `EXISTS TABLE ${n.view}`);
  const exists = Number(Object.values(had[0] ?? {})[0] ?? 0) === 1;
  for (const ddl of chEventSlotsDdl(n)) await client.command({ query: ddl });
  if (!exists) await client.command({ query: `INSERT INTO ${n.stored} ${eventSlotsSelect(n.events)}` });
}

/** The quarter hours (epoch seconds of their start) that hold events matching `where`. */
export async function slotsOf(client: ClickHouseClient, where: string): Promise<number[]> {
  const found = await rows<{ s: number }>(
    client,
    `SELECT DISTINCT toUInt32(toStartOfFifteenMinutes(ts)) AS s FROM events WHERE ${where}`,
  );
  return found.map((r) => Number(r.s));
}

/** The condition on `column` (a DateTime) of being in one of the quarter hours `slots` (epoch seconds). */
export const inSlots = (column: string, slots: readonly number[]) =>
  `toUInt32(toStartOfFifteenMinutes(${column})) IN (${slots.map((s) => String(Math.trunc(s))).join(", ")})`;

/**
 * Fills the slots `slots` of `property` again from the events left (after their rows were deleted
 * with the events a deletion took). An event inserted between that deletion and this read is
 * counted twice in its slot's event count (its view's row survived the deletion): a visitor's
 * deletion runs rarely and briefly, and the visitors' counts stay exact.
 */
export async function refillSlots(
  client: ClickHouseClient,
  target: string,
  propertyLiteral: string,
  slots: readonly number[],
): Promise<void> {
  if (slots.length === 0) return;
  const min = Math.min(...slots);
  const max = Math.max(...slots) + 900;
  const where = `property = ${propertyLiteral} AND ts >= toDateTime(${min}, 'UTC') AND ts < toDateTime(${max}, 'UTC') AND ${inSlots("ts", slots)}`;
  await client.command({ query: `INSERT INTO ${target} ${eventSlotsSelect("events", where)}` });
}
