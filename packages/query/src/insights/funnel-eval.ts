// The funnel definition (DESIGN.md §4 Funnels) finished in TypeScript over the rows of the funnel
// SQL (funnel.ts): per visitor, the furthest step any chain reaches and the one chain that
// counts (funnel-shape.ts turns the outcomes into the answer and picks the visitors of a step).
// Pure: the same rows give the same answer on every engine.
//
// The rules, as the UI's help text and the README state them:
// - Every step-1 event may start a chain; a chain reaches step k when distinct events of steps
//   1..k occur in order with ts(k) - ts(1) <= window (inclusive). Events with equal timestamps
//   count in either order. The visitor's furthest step over all chains counts.
// - Strict: no other considered event (pageview or custom event) lies between two steps of the
//   chain (events at the same instant as a step may be ordered around it).
// - Any order: steps 1..k each matched by a distinct event within one window, in any order.
// - The chain that counts: of the chains reaching the furthest step, the latest start, then each
//   step as early as possible (times from the previous step are measured on it, its step-1 event
//   gives the breakdown value, its start the conversion-over-time bucket).
// - Exclusion X between steps a and b: when an X event lies strictly between the counted chain's
//   steps a and b, the visitor is left out of the funnel.
import { OTHER_BREAKDOWN_VALUE } from "@lookout/schema";
import { QueryError } from "../errors.js";
import { FUNNEL_MAX_ROWS, type FunnelPackRow, type FunnelPlan } from "./funnel.js";

/** One event of a visitor: epoch ms, step mask, exclusion mask, breakdown value. */
export interface FunnelEvent {
  t: number;
  m: number;
  x: number;
  bv: string;
}

/** What a visitor contributes: the furthest step (1-based), the counted chain's step times, start and breakdown value. */
export interface FunnelOutcome {
  reached: number;
  /** Epoch ms of each reached step (empty in an any-order funnel: steps have no order there). */
  times: number[];
  start: number;
  bv: string;
}

/** A DFS gives up after this many steps per chain start (ties are rare; this bounds a pathological visitor). */
const DFS_BUDGET = 20_000;

/** nextMatches()'s arrays, kept from visitor to visitor (an array per step per visitor made most of the evaluation's garbage). */
const nextPool: Int32Array[] = [];

/**
 * Per step (bit s), the index of the first event at or after each index that matches it (n when
 * none): a sequential chain's next step is found without walking the events in between, which
 * made a visitor with many step-1 events quadratic in their events. The arrays are shared: valid
 * until the next call, and longer than n + 1.
 */
function nextMatches(evs: readonly FunnelEvent[], steps: number): Int32Array[] {
  const n = evs.length;
  for (let s = 0; s < steps; s++) {
    if ((nextPool[s]?.length ?? 0) < n + 1) nextPool[s] = new Int32Array(Math.max(64, 2 * (n + 1)));
    const next = nextPool[s] as Int32Array;
    next[n] = n;
    const bit = 1 << s;
    for (let i = n - 1; i >= 0; i--) next[i] = ((evs[i] as FunnelEvent).m & bit) !== 0 ? i : (next[i + 1] as number);
  }
  return nextPool;
}

/** One chain search (module-level functions over it: no closures made per step-1 event). */
interface ChainSearch {
  evs: readonly FunnelEvent[];
  /** nextMatches(), or null for a strict funnel. */
  next: readonly Int32Array[] | null;
  steps: number;
  t0: number;
  limit: number;
  /** The chain's events: at most one per step (20), so a linear search beats a Set. */
  chain: number[];
  best: number[];
  budget: number;
}

/** Sequential: the unused matches of step s at the earliest instant >= lastT that has any. */
function sequentialCandidates(c: ChainSearch, s: number, lastT: number): number[] {
  const { evs, chain } = c;
  const n = evs.length;
  const nx = (c.next as readonly Int32Array[])[s] as Int32Array;
  let j = nx[firstAt(evs, lastT)] as number;
  while (j < n && chain.includes(j)) j = nx[j + 1] as number;
  if (j >= n) return [];
  const at = (evs[j] as FunnelEvent).t;
  if (at > c.limit) return [];
  const out: number[] = [];
  for (; j < n && (evs[j] as FunnelEvent).t === at; j = nx[j + 1] as number) if (!chain.includes(j)) out.push(j);
  return out;
}

/**
 * Strict: the unused matches of step s at lastT, then those of the next instant, which may follow
 * only when nothing unused is left at lastT (unless lastT is the chain's start, whose instant's
 * other events may be ordered before it).
 */
function strictCandidates(c: ChainSearch, s: number, lastT: number): number[] {
  const { evs, chain } = c;
  const n = evs.length;
  const bit = 1 << s;
  const out: number[] = [];
  let i = firstAt(evs, lastT);
  let complete = true;
  for (; i < n && (evs[i] as FunnelEvent).t === lastT; i++) {
    const unused = !chain.includes(i);
    if (unused && ((evs[i] as FunnelEvent).m & bit) !== 0) out.push(i);
    if (unused) complete = false;
  }
  if (!(complete || lastT === c.t0) || i >= n) return out;
  const following = (evs[i] as FunnelEvent).t;
  if (following > c.limit) return out;
  for (; i < n && (evs[i] as FunnelEvent).t === following; i++) {
    if (!chain.includes(i) && ((evs[i] as FunnelEvent).m & bit) !== 0) out.push(i);
  }
  return out;
}

function searchChain(c: ChainSearch, s: number, lastT: number): void {
  if (c.chain.length > c.best.length) c.best = [...c.chain];
  if (s >= c.steps || c.budget-- <= 0) return;
  const candidates = c.next === null ? strictCandidates(c, s, lastT) : sequentialCandidates(c, s, lastT);
  for (const i of candidates) {
    c.chain.push(i);
    searchChain(c, s + 1, (c.evs[i] as FunnelEvent).t);
    c.chain.pop();
    if (c.best.length === c.steps) return;
  }
}

/** The counted chain from one step-1 event: the longest, each step as early as possible (event indices). */
function chainFrom(
  evs: readonly FunnelEvent[],
  start: number,
  plan: FunnelPlan,
  steps: number,
  next: readonly Int32Array[] | null,
): number[] {
  const t0 = (evs[start] as FunnelEvent).t;
  const c: ChainSearch = { evs, next, steps, t0, limit: t0 + plan.windowMs, chain: [start], best: [start], budget: DFS_BUDGET };
  searchChain(c, 1, t0);
  return c.best;
}

/** The index of the first event at or after t (events sorted by t). */
function firstAt(evs: readonly FunnelEvent[], t: number): number {
  let lo = 0;
  let hi = evs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((evs[mid] as FunnelEvent).t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Lexicographic order of two time vectors. */
function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return false;
}

/** Sequential and strict: the counted chain over every step-1 event, latest first. */
function orderedOutcome(evs: readonly FunnelEvent[], plan: FunnelPlan): FunnelOutcome | null {
  const steps = plan.labels.length;
  const next = plan.order === "strict" ? null : nextMatches(evs, steps);
  let best: FunnelOutcome | null = null;
  for (let i = evs.length - 1; i >= 0; i--) {
    const e = evs[i] as FunnelEvent;
    if ((e.m & 1) === 0) continue;
    // Once a later start reached the furthest step, an earlier start counts only if it gets further.
    if (best !== null && e.t < best.start && best.reached === steps) break;
    const times = chainFrom(evs, i, plan, steps, next).map((j) => (evs[j] as FunnelEvent).t);
    const cand: FunnelOutcome = { reached: times.length, times, start: e.t, bv: e.bv };
    if (
      best === null ||
      cand.reached > best.reached ||
      (cand.reached === best.reached &&
        cand.start === best.start &&
        (lexLess(cand.times, best.times) || (!lexLess(best.times, cand.times) && cand.bv < best.bv)))
    ) {
      best = cand;
    }
  }
  if (best === null) return null;
  for (const [k, [a, b]] of plan.exclusions.entries()) {
    if (best.reached < b) continue;
    const from = best.times[a - 1] as number;
    const to = best.times[b - 1] as number;
    if (evs.some((e) => (e.x & (1 << k)) !== 0 && e.t > from && e.t < to)) return null;
  }
  return best;
}

/** Any order: per window start (each event's instant), how many of steps 1..k distinct events cover. */
function anyOrderOutcome(evs: readonly FunnelEvent[], plan: FunnelPlan): FunnelOutcome | null {
  const steps = plan.labels.length;
  let best: FunnelOutcome | null = null;
  for (let a = evs.length - 1; a >= 0; a--) {
    const t0 = (evs[a] as FunnelEvent).t;
    if (a + 1 < evs.length && (evs[a + 1] as FunnelEvent).t === t0) continue; // one start per instant
    let end = a;
    while (end < evs.length && (evs[end] as FunnelEvent).t <= t0 + plan.windowMs) end++;
    const window = evs.slice(firstAt(evs, t0), end);
    const reached = matchedPrefix(window, steps);
    if (reached === 0 || (best !== null && reached <= best.reached)) continue;
    const firstStep1 = window.filter((e) => (e.m & 1) !== 0);
    const t1 = Math.min(...firstStep1.map((e) => e.t));
    const bv = firstStep1.filter((e) => e.t === t1).reduce((m, e) => (e.bv < m ? e.bv : m), (firstStep1[0] as FunnelEvent).bv);
    best = { reached, times: [], start: t0, bv };
    if (reached === steps) break;
  }
  return best;
}

/** The largest k such that steps 1..k match distinct events (augmenting paths, step by step). */
function matchedPrefix(evs: readonly FunnelEvent[], steps: number): number {
  const owner = new Array<number>(evs.length).fill(-1);
  const augment = (s: number, seen: Set<number>): boolean => {
    for (let i = 0; i < evs.length; i++) {
      if (((evs[i] as FunnelEvent).m & (1 << s)) === 0 || seen.has(i)) continue;
      seen.add(i);
      if (owner[i] === -1 || augment(owner[i] as number, seen)) {
        owner[i] = s;
        return true;
      }
    }
    return false;
  };
  for (let s = 0; s < steps; s++) if (!augment(s, new Set())) return s;
  return steps;
}

/** One visitor's outcome (null: never entered, or left out by an exclusion). */
export function funnelOutcome(evs: readonly FunnelEvent[], plan: FunnelPlan): FunnelOutcome | null {
  return plan.order === "any" ? anyOrderOutcome(evs, plan) : orderedOutcome(evs, plan);
}

/** The answer's packed rows -> one row per visitor, without the ids the answer does not need. */
export function unpackFunnelRows(packs: readonly FunnelPackRow[]): { evs: string }[] {
  const out: { evs: string }[] = [];
  for (const r of packs) for (const evs of r.evs.split(";")) out.push({ evs });
  return out;
}

const eventOrder = (a: FunnelEvent, b: FunnelEvent) =>
  a.t - b.t || a.m - b.m || a.x - b.x || (a.bv < b.bv ? -1 : a.bv > b.bv ? 1 : 0);
function isSorted(evs: readonly FunnelEvent[]): boolean {
  for (let i = 1; i < evs.length; i++) if (eventOrder(evs[i - 1] as FunnelEvent, evs[i] as FunnelEvent) > 0) return false;
  return true;
}

/** Each visitor's row -> their client id ("" without one) and outcome; the breakdown's top N applied. */
export function funnelOutcomes(
  plan: FunnelPlan,
  rows: readonly { mcid?: string; evs: string }[],
): { cid: string; o: FunnelOutcome }[] {
  if (rows.length >= FUNNEL_MAX_ROWS) {
    throw new QueryError("too_many_events", "too many events for one funnel; choose a shorter range or narrower steps", "period");
  }
  const out: { cid: string; o: FunnelOutcome }[] = [];
  for (const r of rows) {
    const evs = parseEvents(r.evs);
    // The engines order a visitor's events arbitrarily; sorted, the same rows give the same answer
    // (they mostly arrive in order already: checking is cheaper than sorting).
    if (!isSorted(evs)) evs.sort(eventOrder);
    const o = funnelOutcome(evs, plan);
    if (o !== null) out.push({ cid: r.mcid ?? "", o });
  }
  if (plan.breakdown !== null) {
    const counts = new Map<string, number>();
    for (const { o } of out) counts.set(o.bv, (counts.get(o.bv) ?? 0) + 1);
    const top = new Set(
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, plan.breakdownLimit)
        .map(([k]) => k),
    );
    for (const x of out) if (!top.has(x.o.bv)) x.o.bv = OTHER_BREAKDOWN_VALUE;
  }
  return out;
}

/** parseEvents()'s cursor (module-level: no closure made per visitor). */
let parseAt = 0;

/** The decimal digits of `text` from parseAt up to the next ":" (bounded by the text's end), and past it. */
function field(text: string, n: number): number {
  let v = 0;
  for (let c = text.charCodeAt(parseAt); c !== 58 && parseAt < n; c = text.charCodeAt(++parseAt)) v = v * 10 + (c - 48);
  parseAt++;
  return v;
}

/** "t:m:x:hex(bv)" items joined by "," -> events (read in place: a visitor's string can be long). */
function parseEvents(text: string): FunnelEvent[] {
  // By character codes: no substring and no Number() per field.
  const evs: FunnelEvent[] = [];
  const n = text.length;
  parseAt = 0;
  while (parseAt < n) {
    const t = field(text, n);
    const m = field(text, n);
    const x = field(text, n);
    let end = text.indexOf(",", parseAt);
    if (end === -1) end = n;
    evs.push({ t, m, x, bv: parseAt >= end ? "" : fromHex(text.slice(parseAt, end)) });
    parseAt = end + 1;
  }
  return evs;
}

const utf8 = new TextDecoder();
/** The breakdown value back from its hex (the SQL hexes it so that no value can contain a separator). */
function fromHex(hex: string): string {
  if (hex === "") return "";
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return utf8.decode(bytes);
}
