// Visitor timelines' layout: a property's events in memory in columns, by visitor then time, which
// funnels (funnel-timeline.ts) and retention grids (retention-timeline.ts) read where they lie; the
// DuckDB store builds and keeps them (@lookout/storage duckdb-timelines.ts). Seven bytes an event,
// so that 100M events (about 700 MB, and 12 bytes per visitor) fit beside DuckDB's own 1 GB within
// DESIGN.md §8's 2 GB peak:
// - its instant in epoch ms as t0 + hi * 2^32 + lo (a Uint32 and a Uint8: exact to the ms across
//   2^40 ms, about 34 years, from the timeline's first event);
// - its (name, page) pair, an index into the store's pair dictionary (2 bytes below 65 536 pairs):
//   a query decides once per pair what the pair means to it (pairFlags), not once per event.
// Postings (8 bytes more an event) are kept for the smaller timelines only: they let a funnel find
// its step-1 visitors without reading every event; a large timeline is scanned instead. A
// lifecycle or stickiness pass adds each event's local day (2 bytes, timeline-days.ts), kept with
// the base for the last timezone asked.

/** 2^32: an instant's high part's unit. */
export const T_HI = 4_294_967_296;
/** The widest span of instants one timeline holds (the high part is one byte). */
export const TIMELINE_MAX_SPAN_MS = T_HI * 256;

/** The pairs' dictionary: pair p is name name[p] on page page[p] (indices into the store's names and pages). */
export interface TimelinePairs {
  name: Int32Array;
  page: Int32Array;
}

/** A property's events in columns, by visitor then time. */
export interface Timeline {
  /** The visitors' keys (the events' vkey), ascending. */
  keys: BigInt64Array;
  /** Visitor v's events are [starts[v], starts[v + 1]), in time order; starts has keys.length + 1 entries. */
  starts: Int32Array;
  /** Event i's epoch ms: t0 + tHi[i] * T_HI + tLo[i] (timeAt). */
  t0: number;
  tLo: Uint32Array;
  tHi: Uint8Array;
  /** Each event's (name, page) pair: an index into the store's TimelinePairs. */
  pair: Uint16Array | Int32Array;
  /** The events by pair (indexTimeline), when kept. */
  postings?: TimelinePostings;
}

/** The events' indices sorted by pair (stably: by visitor, then time): pair p's are positions[pairStart[p] .. pairStart[p + 1]). */
export interface TimelinePostings {
  positions: Int32Array;
  pairStart: Int32Array;
  /** Each event's visitor (an index into keys). */
  visitorOf: Int32Array;
}

/** Event i's epoch milliseconds. */
export function timeAt(tl: Timeline, i: number): number {
  return tl.t0 + (tl.tHi[i] as number) * T_HI + (tl.tLo[i] as number);
}

/** The postings of a timeline whose pairs are below `pairs`: one stable counting sort. */
export function indexTimeline(tl: Timeline, pairs: number): TimelinePostings {
  const n = tl.pair.length;
  const pairStart = new Int32Array(pairs + 1);
  for (let i = 0; i < n; i++) {
    const p = (tl.pair[i] as number) + 1;
    pairStart[p] = (pairStart[p] as number) + 1;
  }
  for (let p = 0; p < pairs; p++) pairStart[p + 1] = (pairStart[p + 1] as number) + (pairStart[p] as number);
  const next = pairStart.slice(0, pairs);
  const positions = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = tl.pair[i] as number;
    positions[next[p] as number] = i;
    next[p] = (next[p] as number) + 1;
  }
  const visitorOf = new Int32Array(n);
  for (let v = 0; v < tl.keys.length; v++) visitorOf.fill(v, tl.starts[v] as number, tl.starts[v + 1] as number);
  return { positions, pairStart, visitorOf };
}

/** A step, an exclusion, a start or a return event, resolved against the store's names and pages. */
export interface TimelineSelector {
  /** Its event's name index; -1 when no event has that name. */
  name: number;
  /** Per page index, whether its filters keep that page (null: it has none). */
  pages: Uint8Array | null;
}

/** Whether pair p (name, page) is the selector's: its name, on a page its filters keep. */
export function selects(s: TimelineSelector, name: number, page: number): boolean {
  return s.name === name && (s.pages === null || s.pages[page] === 1);
}

/** Per pair, 1 when it is the selector's event on a page the global filters keep. */
export function selectedPairs(pairs: TimelinePairs, keep: Uint8Array | null, event: TimelineSelector): Uint8Array {
  const selected = new Uint8Array(pairs.name.length);
  for (let p = 0; p < selected.length; p++) {
    const page = pairs.page[p] as number;
    if (kept(keep, page) && selects(event, pairs.name[p] as number, page)) selected[p] = 1;
  }
  return selected;
}

/** Whether the global filters (per page, null: none) keep a page. */
export function kept(keep: Uint8Array | null, page: number): boolean {
  return keep === null || keep[page] === 1;
}

/** The fresh part's visitors: per base visitor with fresh events, their fresh index; and those only fresh. */
export function pairFresh(base: Timeline, fresh: Timeline): { alsoFresh: Map<number, number>; freshOnly: number[] } {
  const alsoFresh = new Map<number, number>();
  const freshOnly: number[] = [];
  for (let f = 0; f < fresh.keys.length; f++) {
    const b = findKey(base.keys, fresh.keys[f] as bigint);
    if (b >= 0) alsoFresh.set(b, f);
    else freshOnly.push(f);
  }
  return { alsoFresh, freshOnly };
}

/** pairFresh's pairs as an array over the base's visitors (-1: no fresh events), for a pass over every base visitor. */
export function freshOfBase(base: Timeline, alsoFresh: Map<number, number>): Int32Array {
  const out = new Int32Array(base.keys.length).fill(-1);
  for (const [b, f] of alsoFresh) out[b] = f;
  return out;
}

/**
 * The fresh part with its pairs in the base's array kind when they fit: a pass over both then
 * reads one kind of array (at 10M events a lifecycle pass took 0.5 s with both kinds, 0.3 with one).
 */
export function freshLikeBase(base: Timeline, fresh: Timeline): Timeline {
  if (!(base.pair instanceof Uint16Array) || fresh.pair instanceof Uint16Array) return fresh;
  for (let i = 0; i < fresh.pair.length; i++) if ((fresh.pair[i] as number) > 0xffff) return fresh;
  return { ...fresh, pair: Uint16Array.from(fresh.pair) };
}

/** A visitor key's index in ascending `keys`, or -1. */
function findKey(keys: BigInt64Array, key: bigint): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = keys[mid] as bigint;
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
