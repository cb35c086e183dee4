// The planner of the web-analytics kinds: which rows answer a query and which fast paths apply,
// as plain data that print.ts turns into SQL and plan.test.ts checks without printing any.
//
// - The grain, from the dimension: visits (`sessions`), visit x page (`session_pages`), visit x
//   custom event name (`session_events`), or raw `events` when prop filters or a prop dimension
//   need event props. Every visit and everything it did counts in the period where the visit
//   started, so a chart adds up to the range's totals and a visit is never split or counted twice.
// - The joins the metrics need on top of the grain's rows (the visit row, the matching pages, the
//   matching custom events, the goal).
// - The prev_* fast path (tables.ts): "visitors" as a filtered COUNT where that is exact.
// - The day-rollup fast path (day-rollup.ts): the whole local days of a period read from day rows.
import type { SettledVisits } from "./compiled.js";
import { type Dimension, type Filter, type Interval, isPropDimension, type Metric } from "@lookout/schema";
import { DIMENSION_LEVELS, type Ingredients, PAGEVIEW_METRICS, VISIT_ROW_METRICS } from "./catalog.js";
import { ANY_DIM, additiveIngredients, type DayRollupDim, localDayNumber, rowsEndDay, wholeDaysEnd } from "./day-rollup.js";
import { isNegative, isSingleIs, type SortedFilters, sortFilters } from "./filters.js";
import type { Period } from "./parts.js";
import { type Column, col } from "./relation.js";
import { prevColumn, type SessionDimensionColumn } from "./tables.js";

/** What a result row is per period: one row, one per chart bucket, or one per dimension value. */
export type GroupKey = { by: "none" } | { by: "bucket"; interval: Interval } | { by: "dimension"; dimension: Dimension };

/** A sort key of the outer statement: a column the printer names itself (period, bucket, dim) or a metric. */
export interface OrderItem {
  column: "bucket" | "dim" | Metric;
  direction?: "ASC" | "DESC";
}

/** A kind compiler's request: the shape of the answer (key, periods, order, cap) and the store's abilities. */
export interface PlanInput {
  property: string;
  timezone: string;
  metrics: readonly Metric[];
  filters: readonly Filter[];
  goal: string | undefined;
  key: GroupKey;
  /** The current period, then the comparison's when there is one. */
  periods: readonly Period[];
  /** After `period` when there are two periods. */
  order: OrderItem[];
  limit: number;
  offset: number;
  /** Dialect.prevColumns and Dialect.dayRows: what the store keeps. */
  prevColumns: boolean;
  dayRollups: boolean;
  /** CompileContext.dayRollupThrough: where the store's day rows end. */
  dayRollupThrough: number | undefined;
  /** CompileContext.settledVisits (ClickHouse). */
  settledVisits?: SettledVisits | undefined;
}

export type Grain = "sessions" | "pages" | "events" | "raw_events" | "props";

/** The table each grain's rows come from. */
export const GRAIN_TABLE = {
  sessions: "sessions",
  pages: "session_pages",
  events: "session_events",
  raw_events: "events",
  props: "events",
} as const satisfies Record<Grain, string>;

export interface PlannedPeriod extends Period {
  /**
   * The day-rollup fast path for this period: the visits of local days [fromDay, toDay) that start
   * before restFrom from day rows, the rest ([restFrom, to), when restFrom < to) from the visit
   * rollups; null when day rows cannot answer. restFrom is a local midnight, or on ClickHouse
   * a UTC midnight inside the day before toDay (wholeDaysEnd).
   */
  dayRows: { fromDay: number; toDay: number; restFrom: number } | null;
}

export interface QueryPlan {
  property: string;
  timezone: string;
  metrics: Metric[];
  key: GroupKey;
  order: OrderItem[];
  limit: number;
  offset: number;
  grain: Grain;
  /** The visit column of a visit-level dimension (the `sessions` grain), else null. */
  dimensionColumn: SessionDimensionColumn | null;
  filters: SortedFilters;
  /** The positive page filters: the pages they keep are the pages pageviews count. */
  positivePages: Filter[];
  /** The visit row's columns the metrics read (bounce, duration, the visit's sums). */
  visitColumns: Column[];
  joins: {
    /** The grain is not visits and needs the visit row (its columns: visitColumns). */
    visit: boolean;
    /** Per-visit sums of the pages the positive page filters keep. */
    matchingPages: boolean;
    /** Per-visit count of the custom events the positive event and prop filters keep, and from where. */
    matchingEvents: "session_events" | "events" | null;
    /** The goal whose visits count as conversions (a left join on session_events). */
    conversions: string | null;
  };
  /** The prev_* column that makes "visitors" a filtered COUNT, or null for COUNT(DISTINCT). */
  prevColumn: string | null;
  /** PlanInput.settledVisits, for the derived tables' reads. */
  settledVisits?: SettledVisits | undefined;
  /** The day rollups' `dim` and the summed ingredients, when day rows can answer. */
  dayRollup: { dim: DayRollupDim; ingredients: (keyof Ingredients)[] } | null;
  periods: PlannedPeriod[];
}

export function planQuery(input: PlanInput): QueryPlan {
  const f = sortFilters(input.filters);
  const dim = input.key.by === "dimension" ? input.key.dimension : null;
  const level = dim === null || isPropDimension(dim) ? null : DIMENSION_LEVELS[dim];
  const dimensionColumn = level?.level === "session" ? level.column : null;
  const grain: Grain =
    dim !== null && isPropDimension(dim)
      ? "props"
      : level?.level === "page"
        ? "pages"
        : level?.level === "event"
          ? f.prop.length > 0
            ? "raw_events"
            : "events"
          : "sessions";
  const metrics = new Set(input.metrics);
  const has = (set: ReadonlySet<Metric>) => input.metrics.some((m) => set.has(m));
  const positivePages = f.page.filter((x) => x.op === "is" || x.op === "contains" || x.op === "matches");
  const visitLevel = grain === "sessions" || grain === "pages";
  // customEventCore's conditions: one per positive event_name and prop filter.
  const positiveCustom = [...f.event, ...f.prop].filter((x) => !isNegative(x)).length > 0;
  const matchingPages = grain !== "pages" && positivePages.length > 0 && has(PAGEVIEW_METRICS);
  const matchingEvents = visitLevel && positiveCustom && metrics.has("events");
  const useConversions = metrics.has("conversions") || metrics.has("conversion_rate");

  const visitColumns: Column[] = [];
  if (has(VISIT_ROW_METRICS)) visitColumns.push(col("bounce"), col("duration"));
  if (!matchingPages && grain !== "pages" && has(PAGEVIEW_METRICS)) {
    visitColumns.push(col("pageviews", "s_pageviews"), col("engaged_ms", "s_engaged"));
  }
  if (visitLevel && !matchingEvents && metrics.has("events")) visitColumns.push(col("events", "s_events"));

  const visit =
    grain !== "sessions" &&
    (has(VISIT_ROW_METRICS) ||
      grain === "raw_events" ||
      grain === "props" ||
      (grain !== "pages" && has(PAGEVIEW_METRICS) && !matchingPages) ||
      (grain === "pages" && metrics.has("events") && !matchingEvents));

  const dayDim = dayRollupDim(input, grain, dimensionColumn);
  const ingredients = dayDim === null ? null : additiveIngredients(input.metrics);
  const dayRollup = dayDim !== null && ingredients ? { dim: dayDim, ingredients } : null;
  const tz = input.timezone;
  const periods = input.periods.map((x): PlannedPeriod => {
    const to = dayRollup ? wholeDaysEnd(tz, x, input.dayRollupThrough) : null;
    const base: Period =
      x.countFrom === undefined ? { from: x.from, to: x.to } : { from: x.from, to: x.to, countFrom: x.countFrom };
    return {
      ...base,
      dayRows: to === null ? null : { fromDay: localDayNumber(tz, x.from), toDay: rowsEndDay(tz, to), restFrom: to },
    };
  });

  return {
    property: input.property,
    timezone: tz,
    metrics: [...input.metrics],
    key: input.key,
    order: input.order,
    limit: input.limit,
    offset: input.offset,
    grain,
    dimensionColumn,
    filters: f,
    positivePages,
    visitColumns,
    joins: {
      visit,
      matchingPages,
      matchingEvents: matchingEvents ? (f.prop.length > 0 ? "events" : "session_events") : null,
      conversions: useConversions && input.goal !== undefined ? input.goal : null,
    },
    prevColumn: fastPrevColumn(input.prevColumns, grain, f, dimensionColumn),
    dayRollup,
    periods,
    ...(input.settledVisits ? { settledVisits: input.settledVisits } : {}),
  };
}

/** The day rollups' `dim` that answers the query, or null when day rows cannot (day-rollup.ts). */
function dayRollupDim(input: PlanInput, grain: Grain, dimensionColumn: SessionDimensionColumn | null): DayRollupDim | null {
  if (!input.dayRollups || input.dayRollupThrough === undefined || input.filters.length > 0) return null;
  if (input.key.by === "bucket" && (input.key.interval === "hour" || input.key.interval === "minute")) return null;
  if (grain === "sessions") return dimensionColumn ?? ANY_DIM;
  if (grain === "pages") return "path";
  if (grain === "events") return "name";
  return null;
}

/**
 * The prev_* column that makes "visitors" a filtered COUNT (tables.ts), or null when the filters
 * could let a visitor's earlier matching visit be a different row than the prev_* one points at.
 */
function fastPrevColumn(
  prevColumns: boolean,
  grain: Grain,
  f: SortedFilters,
  dimensionColumn: SessionDimensionColumn | null,
): string | null {
  if (!prevColumns) return null;
  if (grain === "sessions") {
    if (f.page.length + f.event.length + f.prop.length > 0) return null;
    if (dimensionColumn) {
      return f.session.every((x) => x.column === dimensionColumn && isSingleIs(x.filter)) ? prevColumn(dimensionColumn) : null;
    }
    if (f.session.length === 0) return prevColumn("any");
    const only = f.session[0];
    return f.session.length === 1 && only && isSingleIs(only.filter) ? prevColumn(only.column) : null;
  }
  const others = f.session.length + f.prop.length;
  if (grain === "pages")
    return others + f.event.length === 0 && f.page.every(isSingleIs) && f.page.length <= 1 ? "prev_path" : null;
  if (grain === "events") {
    return others + f.page.length === 0 && f.event.every(isSingleIs) && f.event.length <= 1 ? "prev_name" : null;
  }
  return null;
}
