// What of the visitors screens lives in the URL, so a view can be shared and reloaded. The list:
// `?tab=visitors&q=ada&order=visits&identified=identified` (defaults left out). A visitor's
// history: `?event=Signup&from=2026-01-01&to=2026-01-31`. A hand-edited URL never breaks a
// screen: what cannot be read is left out.
import { VISITOR_IDENTIFIED, VISITOR_LIMITS, VISITOR_ORDERS, type VisitorIdentified, type VisitorOrder } from "@lookout/schema";
import type { HistoryParams, ListParams } from "./api";

export const DEFAULT_LIST: ListParams = { search: "", order: "last_seen", identified: "all" };

const oneOf = <T extends string>(all: readonly T[], v: string | null, fallback: T): T =>
  (all as readonly string[]).includes(v ?? "") ? (v as T) : fallback;

export function readListParams(p: URLSearchParams): ListParams {
  return {
    search: (p.get("q") ?? "").slice(0, VISITOR_LIMITS.searchLength),
    order: oneOf<VisitorOrder>(VISITOR_ORDERS, p.get("order"), DEFAULT_LIST.order),
    identified: oneOf<VisitorIdentified>(VISITOR_IDENTIFIED, p.get("identified"), DEFAULT_LIST.identified),
  };
}

/** Writes `next` into a copy of `p`, keeping its other parameters (tab, property). */
export function writeListParams(p: URLSearchParams, next: ListParams): URLSearchParams {
  const out = new URLSearchParams(p);
  const set = (key: string, value: string, fallback: string) => (value === fallback ? out.delete(key) : out.set(key, value));
  set("q", next.search, DEFAULT_LIST.search);
  set("order", next.order, DEFAULT_LIST.order);
  set("identified", next.identified, DEFAULT_LIST.identified);
  return out;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string) => DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

export const NO_HISTORY_FILTER: HistoryParams = { event: "", from: "", to: "" };

export function readHistoryParams(p: URLSearchParams): HistoryParams {
  const event = (p.get("event") ?? "").trim().slice(0, VISITOR_LIMITS.eventNameLength);
  let from = p.get("from") ?? "";
  let to = p.get("to") ?? "";
  if (!isDay(from)) from = "";
  if (!isDay(to)) to = "";
  // A reversed range is read as the same days the other way round.
  if (from && to && from > to) [from, to] = [to, from];
  return { event, from, to };
}

export function writeHistoryParams(p: URLSearchParams, next: HistoryParams): URLSearchParams {
  const out = new URLSearchParams(p);
  for (const key of ["event", "from", "to"] as const) {
    const v = next[key].trim();
    if (v) out.set(key, v);
    else out.delete(key);
  }
  return out;
}

export const isFiltered = (h: HistoryParams) => h.event !== "" || h.from !== "" || h.to !== "";
