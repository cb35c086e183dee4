// Trends from event slots (ClickHouse, event-slots.ts): which series they answer and the
// statement of one. The series' states statement (trends-states.ts stateRows) is the same as
// over events; only its rows differ: the slots' states for the range's whole quarter hours, and
// states made from events for the pieces at its ends, so that every bucket, total and "$other"
// merges one kind of state.
//
// A series takes them when it counts events or visitors (total, unique visitors, their ratio) of
// one event name, broken down by nothing or by a column the slots keep, filtered by nothing or only
// by that column (or, without a breakdown, only by one kept column), in buckets of an hour or more,
// in a timezone whose offsets fall on quarter hours, and when at least one whole slot lies in its
// range. Everything else reads events as before.
import {
  type Dimension,
  type Filter,
  type Interval,
  OTHER_BREAKDOWN_VALUE,
  type TrendsMath,
  type TrendsSeries,
} from "@lookout/schema";
import type { Dialect } from "../dialects.js";
import {
  EVENT_SLOTS_TABLE,
  type EventSlotDimension,
  isSlotDimension,
  type SlotSpan,
  slotAligned,
  slotColumn,
  slotCover,
} from "../event-slots.js";
import { rowCondition } from "../filters.js";
import { int, type Params } from "../params.js";
import type { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { offsetSegments } from "../tz.js";
import { type Agg, type MathAggs, stateRows, type TrendsStates } from "./trends-states.js";

const SLOT_MATHS: readonly TrendsMath[] = ["total", "unique_visitors", "avg_per_visitor"];

/** What decides whether a series reads slots. */
export interface SlotsQuestion {
  d: Pick<Dialect, "eventSlots">;
  math: TrendsMath;
  /** The spec's and the series' filters. */
  filters: readonly Filter[];
  breakdown: Dimension | null;
  interval: Interval;
  timezone: string;
  /** The spans the series reads (both periods of a comparison, the earlier one cut where its total stops). */
  spans: readonly SlotSpan[];
}

/**
 * The slot plan of a series, or null when it reads events: the column whose rows it reads (its
 * breakdown's or its filters'; none: the rows of every event), whether those rows are its
 * breakdown, and the cover.
 */
export interface SlotsPlan {
  dim: EventSlotDimension | null;
  breakdown: boolean;
  cover: ReturnType<typeof slotCover>;
}

/**
 * Filters are answered when every one is on the same kept column, and the breakdown (if any) is that
 * column too: each event has one value of it, so its rows of that column whose value matches are
 * exactly the matching events.
 */
export function trendsSlotsPlan(q: SlotsQuestion): SlotsPlan | null {
  if (!q.d.eventSlots || !SLOT_MATHS.includes(q.math) || q.interval === "minute") return null;
  const dims = new Set<Dimension>(q.filters.map((f) => f.dimension));
  if (q.breakdown !== null) dims.add(q.breakdown);
  if (dims.size > 1) return null;
  const [only] = dims;
  if (only !== undefined && !isSlotDimension(only)) return null;
  const spans = [...q.spans].sort((a, b) => a.from - b.from);
  const hullFrom = spans[0]?.from;
  const hullTo = spans.at(-1)?.to;
  if (hullFrom === undefined || hullTo === undefined) return null;
  if (!slotAligned(offsetSegments(q.timezone, hullFrom, hullTo))) return null;
  const cover = slotCover(spans);
  if (cover.slots.length === 0) return null;
  return { dim: only ?? null, breakdown: q.breakdown !== null, cover };
}

/** A count's and a distinct count's states read from slot rows (their `events` and `visitors` states). */
const slotColumnOf = (a: Agg) => (a.fn === "count" ? "events" : "visitors");
const fnOf = (a: Agg) => (a.fn === "count" ? "count" : "uniqExact");

export const SLOT_STATES: TrendsStates = {
  state: (a, when) =>
    when === undefined ? `${fnOf(a)}MergeState(${slotColumnOf(a)})` : `${fnOf(a)}MergeIfState(${slotColumnOf(a)}, ${when})`,
  final: (st) => `finalizeAggregation(${st})`,
  // A -MergeIfState state is of the function uniqExactMergeIf: merged by its own name.
  merge: (a, st, when) => `${fnOf(a)}${when ? "MergeIf" : ""}Merge(${st})`,
};

/**
 * The rows (value, slot, events, visitors) of one event name over `cover` that pass `filters` (on
 * column `dim`): the slots' rows, and the pieces' states from events keyed by each piece's start.
 */
export function slotRows(
  s: Scope,
  p: Params,
  d: Dialect,
  o: { event: string; dim: EventSlotDimension | null; filters: readonly Filter[]; cover: SlotsPlan["cover"] },
): string {
  const { dim, cover } = o;
  const name = p.add(o.event);
  const inSpans = (col: string, spans: readonly SlotSpan[]) =>
    `(${spans.map((x) => `(${col} >= ${p.ts(x.from)} AND ${col} < ${p.ts(x.to)})`).join(" OR ")})`;
  const parts: string[] = [];
  if (cover.slots.length > 0)
    parts.push(
      `SELECT value, slot, events, visitors FROM ${tableRead(s, EVENT_SLOTS_TABLE, [
        `name = ${name}`,
        `dim = ${p.add(dim === null ? "" : slotColumn(dim))}`,
        inSpans("slot", cover.slots),
        ...o.filters.map((f) => rowCondition(f, "value", p, d)),
      ])}`,
    );
  const pieces = [...cover.pieces].sort((a, b) => a.from - b.from);
  const last = pieces.at(-1);
  if (last !== undefined) {
    const startOf =
      pieces.length === 1
        ? p.ts(last.from)
        : `multiIf(${pieces
            .slice(0, -1)
            .map((x) => `ts < ${p.ts(x.to)}, ${p.ts(x.from)}`)
            .join(", ")}, ${p.ts(last.from)})`;
    const value = dim === null ? "''" : slotColumn(dim);
    parts.push(
      `SELECT ${value} AS value, ${startOf} AS slot, countState() AS events, uniqExactState(${d.eventVkey}) AS visitors ` +
        `FROM ${tableRead(s, "events", [`name = ${name}`, inSpans("ts", pieces), ...o.filters.map((f) => rowCondition(f, slotColumn(dim as EventSlotDimension), p, d))])} GROUP BY value, slot`,
    );
  }
  return `(${parts.join(" UNION ALL ")})`;
}

/**
 * A breakdown's value of a slot row: its value when among the top `topN` values by event count
 * over `top` (the current period's rows, ties by value), else "$other".
 */
export function slotBreakdownValue(p: Params, top: string, topN: number): string {
  const best = `SELECT value AS v FROM ${top} AS tv GROUP BY v ORDER BY countMerge(events) DESC, v LIMIT 0, ${int(topN)}`;
  return `if(value IN (${best}), value, ${p.add(OTHER_BREAKDOWN_VALUE)})`;
}

/** What a series' statement from slots needs of compileTrends. */
export interface SlotSeriesInput {
  s: Scope;
  p: Params;
  d: Dialect;
  i: number;
  series: TrendsSeries;
  /** The spec's and the series' filters. */
  filters: readonly Filter[];
  breakdown: Dimension | null;
  interval: Interval;
  timezone: string;
  topN: number;
  /** This period. */
  current: SlotSpan;
  /** A comparison's period, and where its total stops (its end, unless this period is still running). */
  earlier: (SlotSpan & { until: number }) | null;
  /** The series' math as aggregates (called only when the slots answer: it may bind a parameter). */
  aggs: () => MathAggs | null;
  asValue: (e: string) => string;
}

/**
 * A series' statement from event slots (the states printer over slot rows), or null when it reads
 * events: the spans are this period and a comparison's earlier one, cut where its total stops.
 */
export function slotSeries(o: SlotSeriesInput): string | null {
  const { s, p, d, current, earlier } = o;
  const until = earlier && earlier.until !== earlier.to ? earlier.until : undefined;
  const spans: SlotSpan[] = !earlier
    ? []
    : until === undefined
      ? [{ from: earlier.from, to: earlier.to }]
      : [
          { from: earlier.from, to: until },
          { from: until, to: earlier.to },
        ];
  const { series, filters, breakdown, interval } = o;
  const plan = trendsSlotsPlan({
    d,
    math: series.math,
    filters,
    breakdown,
    interval,
    timezone: o.timezone,
    spans: [...spans, current],
  });
  const aggs = plan === null ? null : o.aggs();
  if (plan === null || aggs === null) return null;
  const rows = (cover: SlotsPlan["cover"]) => slotRows(s, p, d, { event: series.event, dim: plan.dim, filters, cover });
  const read = `${rows(plan.cover)} AS sr${int(o.i)}`;
  // The top values are the current period's (as over events), read from its own cover.
  const top = plan.breakdown ? rows(slotCover([current])) : null;
  const bv = top === null ? "''" : slotBreakdownValue(p, top, o.topN);
  const k = s.bucket(interval, "slot");
  const period = earlier
    ? { of: `if(slot >= ${p.ts(current.from)}, 0, 1)`, until: until === undefined ? undefined : p.ts(until) }
    : undefined;
  const label = d.label(interval, k);
  return stateRows({ i: o.i, bv, bucketKey: k, label, read, aggs, st: SLOT_STATES, asValue: o.asValue, period, time: "slot" });
}
