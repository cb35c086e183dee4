// Filters -> conditions. A filter's values are ORed; negative ops (is_not, not_contains) negate
// the whole OR. Filters are sorted by where their dimension lives, because that decides what they
// keep (Plausible's semantics):
// - session dimensions (entry_page, source, channel, utm_*, country, device, browser, os, ...)
//   keep whole visits whose attribute matches;
// - page keeps the visits that contain a pageview matching every positive page filter at once
//   (as Plausible's event:page filters, which all apply to one pageview): visit metrics count
//   those visits, pageviews and time on page count only the matching pages;
// - event_name and prop:<key> keep the visits that contain a matching custom event, and `events`
//   counts only the matching events;
// - a negative filter on page, event_name or a prop keeps the visits that contain NO matching row
//   (a visit that viewed /pricing is not a visit with "page is not /pricing").
import { type Filter, isPropDimension, propKey } from "@lookout/schema";
import { DIMENSION_LEVELS } from "./catalog.js";
import type { Dialect } from "./dialects.js";
import type { Params } from "./params.js";
import type { SessionDimensionColumn } from "./tables.js";

export interface SessionFilter {
  filter: Filter;
  column: SessionDimensionColumn;
}

export interface SortedFilters {
  session: SessionFilter[];
  page: Filter[];
  event: Filter[];
  prop: Filter[];
}

export function sortFilters(filters: readonly Filter[]): SortedFilters {
  const out: SortedFilters = { session: [], page: [], event: [], prop: [] };
  for (const f of filters) {
    if (isPropDimension(f.dimension)) {
      out.prop.push(f);
      continue;
    }
    const level = DIMENSION_LEVELS[f.dimension];
    if (level.level === "session") out.session.push({ filter: f, column: level.column });
    else if (level.level === "page") out.page.push(f);
    else out.event.push(f);
  }
  return out;
}

export const isNegative = (f: Filter) => f.op === "is_not" || f.op === "not_contains";

/** A single-value `is`: the one filter shape the prev_* fast path can honour. */
export const isSingleIs = (f: Filter) => f.op === "is" && f.values.length === 1;

/** The positive core of a filter on `column` (a negative op's core is its positive twin). */
export function matchCondition(f: Filter, column: string, p: Params, d: Dialect): string {
  if (f.op === "is" || f.op === "is_not") {
    const ph = f.values.map((v) => p.add(v));
    return ph.length === 1 ? `${column} = ${ph[0]}` : `${column} IN (${ph.join(", ")})`;
  }
  const one = (v: string) => (f.op === "matches" ? d.matches(column, p.add(v)) : d.contains(column, p.add(v)));
  const parts = f.values.map(one);
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(" OR ")})`;
}

/** The condition on a column of the row itself: negative ops negate. */
export function rowCondition(f: Filter, column: string, p: Params, d: Dialect): string {
  const core = matchCondition(f, column, p, d);
  return isNegative(f) ? `NOT (${core})` : core;
}

/** For a prop filter on an `events` row: the row must carry the key and match. */
export function propCondition(f: Filter, p: Params, d: Dialect): string {
  const key = p.add(isPropDimension(f.dimension) ? propKey(f.dimension) : "");
  return `${d.hasProp(key)} AND ${matchCondition(f, d.propValue(key), p, d)}`;
}
