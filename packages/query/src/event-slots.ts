// ClickHouse's event slots (issue #22): per property, event name, breakdown column, value and
// quarter hour (UTC), the aggregate states of the events' count and of their distinct visitors
// (`countState`, `uniqExactState` of the visitor key). A materialized view fills them as events
// are inserted, so they hold every event, live or late, with no settling. This module owns the
// table's shape, the SELECT that makes its rows from events (the view's, and the refill's after a
// deletion), and which stretches of a range they cover.
//
// Why states and not counts: merging uniqExact states is exact, so a trend's bucket, its total and
// a breakdown's "$other" (the visitors of every value outside the top N, counted once) are each the
// merge of the slots they cover, however a visitor's events spread over slots and values. A trend
// over 90 days reads about 9 000 rows per value instead of every event of the range.
//
// Why a quarter hour: every timezone in use has offsets in multiples of 15 minutes, so each local
// hour, day, week and month bucket is a run of whole slots (slotAligned checks it; a range where it
// fails reads events). Stretches off slot boundaries (a running comparison's earlier total, cut at
// the same elapsed time as now) are read from events (slotCover), as states of the same type, so
// the two halves merge.
import type { Dimension } from "@lookout/schema";
import { clickhouse } from "./dialects.js";
import { SESSION_DIMENSION_COLUMNS } from "./tables.js";

export const EVENT_SLOTS_TABLE = "event_slots";
export const SLOT_MS = 15 * 60_000;

/**
 * The breakdowns the slots are kept for, with the event column each reads ('' is the row of no
 * breakdown): the ones a trend is most often broken down by. Each costs a row per event in the
 * view (at 1M events, 19 columns took ingest from 34 000-39 000 to 25 000-28 000 events/s) and rows
 * per value and quarter hour in the table (at 10M events the 19 took 1 GiB, the events 0.57), so
 * not the open-ended or rarely used ones (referrer URL, city, versions, utm term and content,
 * screen, hostname); nor entry/exit page (not on events), props (open-ended keys) or event_name (a
 * series is one event name). Those read events.
 */
export const EVENT_SLOT_DIMENSIONS = [
  "page",
  "source",
  "channel",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "country",
  "region",
  "browser",
  "os",
  "device",
] as const satisfies readonly Dimension[];
export type EventSlotDimension = (typeof EVENT_SLOT_DIMENSIONS)[number];

/** The event column a slot dimension reads (its rows' `dim`). */
export function slotColumn(dim: EventSlotDimension): string {
  return dim === "page" ? "path" : SESSION_DIMENSION_COLUMNS[dim];
}

export const isSlotDimension = (d: Dimension): d is EventSlotDimension =>
  (EVENT_SLOT_DIMENSIONS as readonly string[]).includes(d);

/** The columns of `event_slots`. */
export const EVENT_SLOTS_COLUMNS: readonly (readonly [string, string])[] = [
  ["property", "String"],
  ["name", "String"],
  /** '' for every event, else the event column of a breakdown (slotColumn). */
  ["dim", "String"],
  ["value", "String"],
  /** The quarter hour's start. */
  ["slot", "DateTime('UTC')"],
  ["events", "AggregateFunction(count)"],
  ["visitors", "AggregateFunction(uniqExact, UInt64)"],
];

/** The slot rows of the events of `from` (a FROM item of `events`), optionally only where `where` holds. */
export function eventSlotsSelect(from: string, where?: string): string {
  const dims = ["('', '')", ...EVENT_SLOT_DIMENSIONS.map((d) => `('${slotColumn(d)}', ${slotColumn(d)})`)].join(", ");
  return (
    `SELECT property, name, d.1 AS dim, d.2 AS value, toStartOfFifteenMinutes(ts) AS slot, countState() AS events, ` +
    `uniqExactState(${clickhouse.eventVkey}) AS visitors FROM ${from} ARRAY JOIN [${dims}] AS d` +
    `${where === undefined ? "" : ` WHERE ${where}`} GROUP BY property, name, dim, value, slot`
  );
}

/** A stretch of time [from, to), epoch ms. */
export interface SlotSpan {
  from: number;
  to: number;
}

/**
 * How slots answer `spans` (sorted, disjoint): the runs of whole slots inside them, and the pieces
 * left at their ends, each inside one slot (so that a piece's rows, keyed by its start, fall in the
 * local-time bucket of every event in it). A span within one slot is all piece.
 */
export function slotCover(spans: readonly SlotSpan[]): { slots: SlotSpan[]; pieces: SlotSpan[] } {
  const slots: SlotSpan[] = [];
  const pieces: SlotSpan[] = [];
  for (const { from, to } of spans) {
    if (to <= from) continue;
    const a = Math.ceil(from / SLOT_MS) * SLOT_MS;
    const b = Math.floor(to / SLOT_MS) * SLOT_MS;
    if (a > b) {
      pieces.push({ from, to });
      continue;
    }
    if (from < a) pieces.push({ from, to: a });
    if (a < b) {
      const last = slots.at(-1);
      if (last && last.to === a) last.to = b;
      else slots.push({ from: a, to: b });
    }
    if (b < to) pieces.push({ from: b, to });
  }
  return { slots, pieces };
}

/** Whether every offset of `segments` and every change between them falls on a slot boundary. */
export function slotAligned(segments: readonly { offsetMinutes: number; untilMs: number | null }[]): boolean {
  return segments.every((s) => (s.offsetMinutes * 60_000) % SLOT_MS === 0 && (s.untilMs === null || s.untilMs % SLOT_MS === 0));
}
