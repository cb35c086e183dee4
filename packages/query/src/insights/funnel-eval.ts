// The funnel definition (DESIGN.md §4 Funnels) finished in TypeScript over the rows of the funnel
// SQL (funnel.ts): per visitor, the furthest step any chain reaches and the one chain that
// counts (funnel-shape.ts turns the outcomes into the answer and picks the visitors of a step;
// funnel-any-order.ts is the any-order search).
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
import { QueryError } from "../errors.js";
import { FUNNEL_MAX_ROWS, type FunnelPackRow, type FunnelPlan } from "./funnel.js";
import { anyOrderOutcome } from "./funnel-any-order.js";
import { type FunnelEvent, type FunnelOutcome, FunnelOutcomes, keepTopValues } from "./funnel-outcomes.js";

/** A DFS gives up after this many steps per chain start (ties are rare; this bounds a pathological visitor). */
const DFS_BUDGET = 20_000;

// The visitor being evaluated, in columns kept from visitor to visitor: an object per event made
// most of the evaluation's time and garbage (10M events, the bench's funnel: 817 290 events of
// 280 681 visitors). n events, sorted by before(). Module state is safe: an evaluation runs to
// its end without awaiting, so two funnels never interleave.
let n = 0;
let T = new Float64Array(1024);
let M = new Int32Array(1024);
let X = new Int32Array(1024);
const BV: string[] = [];

function reserve(size: number): void {
  if (size <= T.length) return;
  const grow = Math.max(size, 2 * T.length);
  const t = new Float64Array(grow);
  t.set(T);
  const m = new Int32Array(grow);
  m.set(M);
  const x = new Int32Array(grow);
  x.set(X);
  T = t;
  M = m;
  X = x;
}

/** Adds an event to the loaded visitor (beginVisitor() empties it; any order: finishVisitor() sorts). */
export function pushEvent(t: number, m: number, x: number, bv: string): void {
  if (n === T.length) reserve(n + 1);
  T[n] = t;
  M[n] = m;
  X[n] = x;
  BV[n] = bv;
  n++;
}

/** The events' order: time, then step mask, exclusion mask, breakdown value (negative: i first). */
function before(i: number, j: number): number {
  return (
    (T[i] as number) - (T[j] as number) ||
    (M[i] as number) - (M[j] as number) ||
    (X[i] as number) - (X[j] as number) ||
    ((BV[i] as string) < (BV[j] as string) ? -1 : (BV[i] as string) > (BV[j] as string) ? 1 : 0)
  );
}

/** The engines order a visitor's events arbitrarily; sorted, the same rows give the same answer (checking is cheaper than sorting). */
function sortEvents(): void {
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = before(i - 1, i) <= 0;
  if (sorted) return;
  const order = Array.from({ length: n }, (_, i) => i).sort(before);
  const t = order.map((i) => T[i] as number);
  const m = order.map((i) => M[i] as number);
  const x = order.map((i) => X[i] as number);
  const bv = order.map((i) => BV[i] as string);
  T.set(t);
  M.set(m);
  X.set(x);
  for (let i = 0; i < n; i++) BV[i] = bv[i] as string;
}

/** nextMatches()'s arrays, kept from visitor to visitor. */
const nextPool: Int32Array[] = [];

/**
 * Per step (bit s), the index of the first event at or after each index that matches it (n when
 * none): a sequential chain's next step is found without walking the events in between, which
 * made a visitor with many step-1 events quadratic in their events.
 */
function nextMatches(steps: number): void {
  for (let s = 0; s < steps; s++) {
    if ((nextPool[s]?.length ?? 0) < n + 1) nextPool[s] = new Int32Array(Math.max(64, 2 * (n + 1)));
    const next = nextPool[s] as Int32Array;
    next[n] = n;
    const bit = 1 << s;
    for (let i = n - 1; i >= 0; i--) next[i] = ((M[i] as number) & bit) !== 0 ? i : (next[i + 1] as number);
  }
}

/** The index of the first event at or after t. */
function firstAt(t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((T[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// One chain search at a time, in module state (no object or closure per step-1 event): the chain
// (at most one event per step, 20, so a linear search beats a Set) and the longest one found.
let steps = 0;
let strict = false;
let t0 = 0;
let limit = 0;
let budget = 0;
const chain = new Int32Array(32);
let chainLen = 0;
const best = new Int32Array(32);
let bestLen = 0;

function inChain(j: number): boolean {
  for (let k = 0; k < chainLen; k++) if (chain[k] === j) return true;
  return false;
}

/** Extends the chain by event j at step s and searches on. False once a chain reached the last step. */
function take(j: number, s: number): boolean {
  chain[chainLen++] = j;
  searchChain(s + 1, T[j] as number);
  chainLen--;
  return bestLen !== steps;
}

/**
 * Step s's candidates after an event at lastT, each tried in turn (the chain is as it was before
 * each try, so they are found as they are tried):
 * - sequential: the unused matches of step s at the earliest instant >= lastT that has any;
 * - strict: the unused matches at lastT, then those of the next instant, which may follow only
 *   when nothing unused is left at lastT (unless lastT is the chain's start, whose instant's other
 *   events may be ordered before it).
 */
function searchChain(s: number, lastT: number): void {
  if (chainLen > bestLen) {
    best.set(chain.subarray(0, chainLen));
    bestLen = chainLen;
  }
  if (s >= steps || budget-- <= 0) return;
  const bit = 1 << s;
  if (!strict) {
    const nx = nextPool[s] as Int32Array;
    let j = nx[firstAt(lastT)] as number;
    while (j < n && inChain(j)) j = nx[j + 1] as number;
    if (j >= n) return;
    const at = T[j] as number;
    if (at > limit) return;
    for (; j < n && T[j] === at; j = nx[j + 1] as number) if (!inChain(j) && !take(j, s)) return;
    return;
  }
  const from = firstAt(lastT);
  let i = from;
  let complete = true;
  for (; i < n && T[i] === lastT; i++) if (!inChain(i)) complete = false;
  const end = i;
  for (let k = from; k < end; k++) if (((M[k] as number) & bit) !== 0 && !inChain(k) && !take(k, s)) return;
  if (!(complete || lastT === t0) || end >= n) return;
  const following = T[end] as number;
  if (following > limit) return;
  for (let k = end; k < n && T[k] === following; k++) if (((M[k] as number) & bit) !== 0 && !inChain(k) && !take(k, s)) return;
}

// The counted chain so far (orderedOutcome): its step times, start and breakdown value.
const bestTimes = new Float64Array(32);
let bestReached = 0;
let bestStart = 0;
let bestBv = "";

/** Whether the chain just found (best, from step-1 event i) counts over the one kept (see the rules above). */
function countsOver(i: number, start: number): boolean {
  if (bestReached === 0 || bestLen > bestReached) return true;
  if (bestLen < bestReached || start !== bestStart) return false;
  for (let k = 0; k < bestLen; k++) {
    const a = T[best[k] as number] as number;
    const b = bestTimes[k] as number;
    if (a !== b) return a < b;
  }
  return (BV[i] as string) < bestBv;
}

/** Sequential and strict: the counted chain over every step-1 event, latest first, into best*; false when none counts. */
function orderedOutcome(plan: FunnelPlan): boolean {
  steps = plan.labels.length;
  strict = plan.order === "strict";
  if (!strict) nextMatches(steps);
  bestReached = 0;
  for (let i = n - 1; i >= 0; i--) {
    if (((M[i] as number) & 1) === 0) continue;
    const start = T[i] as number;
    // Once a later start reached the furthest step, an earlier start counts only if it gets further.
    if (bestReached === steps && start < bestStart) break;
    t0 = start;
    limit = start + plan.windowMs;
    budget = DFS_BUDGET;
    chain[0] = i;
    chainLen = 1;
    best[0] = i;
    bestLen = 1;
    searchChain(1, start);
    if (countsOver(i, start)) {
      for (let k = 0; k < bestLen; k++) bestTimes[k] = T[best[k] as number] as number;
      bestReached = bestLen;
      bestStart = start;
      bestBv = BV[i] as string;
    }
  }
  if (bestReached === 0) return false;
  for (let k = 0; k < plan.exclusions.length; k++) {
    const [a, b] = plan.exclusions[k] as [number, number];
    if (bestReached < b) continue;
    const from = bestTimes[a - 1] as number;
    const to = bestTimes[b - 1] as number;
    for (let i = 0; i < n; i++)
      if (((X[i] as number) & (1 << k)) !== 0 && (T[i] as number) > from && (T[i] as number) < to) return false;
  }
  return true;
}

/** The loaded visitor's events as objects (the any-order search, rare, works on them). */
function loadedEvents(): FunnelEvent[] {
  return Array.from({ length: n }, (_, i) => ({ t: T[i] as number, m: M[i] as number, x: X[i] as number, bv: BV[i] as string }));
}

/** The loaded visitor's outcome into best* (false: never entered, or left out by an exclusion). */
function loadedOutcome(plan: FunnelPlan): boolean {
  sortEvents();
  if (plan.order !== "any") return orderedOutcome(plan);
  const o = anyOrderOutcome(loadedEvents(), plan);
  if (o === null) return false;
  bestReached = o.reached;
  bestStart = o.start;
  bestBv = o.bv;
  return true;
}

/** One visitor's outcome from their events, in any order (null: never entered, or left out by an exclusion). */
export function funnelOutcome(evs: readonly FunnelEvent[], plan: FunnelPlan): FunnelOutcome | null {
  n = 0;
  reserve(evs.length);
  for (const e of evs) pushEvent(e.t, e.m, e.x, e.bv);
  if (!loadedOutcome(plan)) return null;
  const times = plan.order === "any" ? [] : Array.from(bestTimes.subarray(0, bestReached));
  return { reached: bestReached, times, start: bestStart, bv: bestBv };
}

/**
 * The columns' way in, for readers that hold events rather than rows (funnel-timeline.ts):
 * beginVisitor(), pushEvent() per event, then finishVisitor() adds the visitor's outcome to `out`
 * (nothing when they never entered or an exclusion left them out). No object per visitor.
 */
export function beginVisitor(): void {
  n = 0;
}

export function finishVisitor(plan: FunnelPlan, out: FunnelOutcomes, cid = ""): void {
  if (loadedOutcome(plan)) out.push(bestReached, bestStart, bestTimes, bestBv, cid);
}

/** A funnel past FUNNEL_MAX_ROWS visitors with a step-1 event is refused (the answer would be partial on SQL). */
export function tooManyVisitors(): never {
  throw new QueryError("too_many_events", "too many events for one funnel; choose a shorter range or narrower steps", "period");
}

/**
 * Packed rows (FunnelPackRow: each visitor's events joined by ";") -> the outcomes, read in place:
 * no string per visitor; the breakdown's top N applied. `withClientIds`: the visitors' statement's
 * rows, each visitor's events after "hex(client id)|" ("" where the answer's rows carry none).
 */
export function funnelOutcomesOfPacks(plan: FunnelPlan, packs: readonly FunnelPackRow[], withClientIds = false): FunnelOutcomes {
  const out = new FunnelOutcomes(plan.labels.length, plan.order !== "any");
  let visitors = 0;
  for (const { evs } of packs) {
    for (let from = 0; from <= evs.length; ) {
      let end = evs.indexOf(";", from);
      if (end === -1) end = evs.length;
      if (++visitors >= FUNNEL_MAX_ROWS) tooManyVisitors();
      let cid = "";
      if (withClientIds) {
        const bar = evs.indexOf("|", from);
        const at = bar === -1 || bar > end ? end : bar;
        cid = fromHex(evs.slice(from, at));
        from = Math.min(end, at + 1);
      }
      n = 0;
      parseVisitor(evs, from, end);
      if (loadedOutcome(plan)) out.push(bestReached, bestStart, bestTimes, bestBv, cid);
      from = end + 1;
    }
  }
  return keepTopValues(plan, out);
}

/** parseVisitor()'s cursor (module-level: no closure made per visitor). */
let parseAt = 0;

/** The decimal digits of `text` from parseAt up to the next ":" (bounded by `end`), and past it. */
function field(text: string, end: number): number {
  let v = 0;
  for (let c = text.charCodeAt(parseAt); c !== 58 && parseAt < end; c = text.charCodeAt(++parseAt)) v = v * 10 + (c - 48);
  parseAt++;
  return v;
}

/** "t:m:x:hex(bv)" items joined by "," in text[from, end) -> the loaded events (by character codes: no substring or Number() per field). */
function parseVisitor(text: string, from: number, end: number): void {
  parseAt = from;
  while (parseAt < end) {
    const t = field(text, end);
    const m = field(text, end);
    const x = field(text, end);
    let stop = parseAt;
    while (stop < end && text.charCodeAt(stop) !== 44) stop++;
    pushEvent(t, m, x, parseAt >= stop ? "" : fromHex(text.slice(parseAt, stop)));
    parseAt = stop + 1;
  }
}

const utf8 = new TextDecoder();
/** The breakdown value back from its hex (the SQL hexes it so that no value can contain a separator). */
function fromHex(hex: string): string {
  if (hex === "") return "";
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return utf8.decode(bytes);
}
