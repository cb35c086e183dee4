// The funnel answer from the visitors' outcomes (funnel-eval.ts; DESIGN.md §5 the funnel answer):
// per step (visitors, conversion, drop-off, median and average time from the previous step), per
// breakdown value, the time-to-convert histogram and conversion over time; and which visitors
// stand behind a step's point. Pure, as the outcomes are.
import {
  FUNNEL_LIMITS,
  type FunnelActorSelector,
  type FunnelAnswer,
  type FunnelStepResult,
  OTHER_BREAKDOWN_VALUE,
} from "@lookout/schema";
import { bucketLabeller } from "../buckets.js";
import type { FunnelPlan } from "./funnel.js";
import type { FunnelOutcomes } from "./funnel-outcomes.js";

const pct = (a: number, b: number) => (b === 0 ? 0 : (a / b) * 100);

// Times are summed and picked in whole milliseconds and turned into seconds last: integer sums do
// not depend on the order the visitors arrive in (the packed answer's order is the engine's).
function medianSeconds(ms: number[]): number | null {
  if (ms.length === 0) return null;
  const s = Float64Array.from(ms);
  const m = s.length >> 1;
  const upper = select(s, m);
  if (s.length % 2) return upper / 1000;
  // The lower middle: the largest of what select() left before m.
  let lower = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < m; i++) if ((s[i] as number) > lower) lower = s[i] as number;
  return (lower + upper) / 2 / 1000;
}

/** The k-th smallest of `a` (0-based), moving a's values so that those before k are no larger (quickselect: a full sort of 160 000 gaps took 15 ms). */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k] as number;
  }
  return a[k] as number;
}
function meanSeconds(ms: number[]): number | null {
  if (ms.length === 0) return null;
  let sum = 0;
  for (const x of ms) sum += x;
  return sum / ms.length / 1000;
}

/** Per step of the visitors `which` (indices into `outs`; null for all): visitors, conversion, drop-off and the times from the previous step. */
function stepResults(plan: FunnelPlan, outs: FunnelOutcomes, which: readonly number[] | null): FunnelStepResult[] {
  const steps = plan.labels.length;
  const visitors = new Array<number>(steps).fill(0);
  const gaps: number[][] = plan.labels.map(() => []);
  const { reached, times } = outs;
  const count = which === null ? outs.count : which.length;
  for (let w = 0; w < count; w++) {
    const i = which === null ? w : (which[w] as number);
    const r = reached[i] as number;
    for (let k = 0; k < r; k++) visitors[k] = (visitors[k] as number) + 1;
    if (!outs.timed) continue;
    const at = i * steps;
    for (let k = 1; k < r; k++) (gaps[k] as number[]).push((times[at + k] as number) - (times[at + k - 1] as number));
  }
  return plan.labels.map((label, k) => {
    const here = visitors[k] as number;
    const prev = k === 0 ? here : (visitors[k - 1] as number);
    return {
      step: k + 1,
      label,
      visitors: here,
      conversion: k === 0 ? (here === 0 ? 0 : 100) : pct(here, visitors[0] as number),
      conversion_from_previous: k === 0 ? (here === 0 ? 0 : 100) : pct(here, prev),
      dropped: prev - here,
      median_seconds: medianSeconds(gaps[k] as number[]),
      average_seconds: meanSeconds(gaps[k] as number[]),
    };
  });
}

/** Equal-width bins (whole seconds) over the converted visitors' time from step 1 to the last step. */
function histogram(seconds: number[]): FunnelAnswer["results"]["time_to_convert"]["bins"] {
  if (seconds.length === 0) return [];
  // A loop, not Math.min(...seconds): spread into arguments, a long list can overflow the stack.
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const s of seconds) {
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  lo = Math.floor(lo);
  const width = Math.max(1, Math.ceil((hi - lo + 1) / FUNNEL_LIMITS.histogramBins));
  const n = Math.max(1, Math.ceil((hi - lo + 1) / width));
  const bins = Array.from({ length: n }, (_, i) => ({
    from_seconds: lo + i * width,
    to_seconds: lo + (i + 1) * width,
    visitors: 0,
  }));
  for (const s of seconds) (bins[Math.min(n - 1, Math.floor((s - lo) / width))] as { visitors: number }).visitors++;
  return bins;
}

/** The outcomes -> the funnel answer (DESIGN.md §5). */
export function shapeFunnel(plan: FunnelPlan, outs: FunnelOutcomes): FunnelAnswer {
  const last = plan.labels.length;
  const toConvert: number[] = [];
  const byBucket = new Map<string, { entered: number; converted: number }>();
  const bucketOfStart = bucketLabeller(plan.interval, plan.timezone);
  for (let i = 0; i < outs.count; i++) {
    const done = outs.reached[i] === last;
    if (done && outs.timed) toConvert.push((outs.times[i * last + last - 1] as number) - (outs.times[i * last] as number));
    const b = bucketOfStart(outs.start[i] as number);
    let cell = byBucket.get(b);
    if (cell === undefined) byBucket.set(b, (cell = { entered: 0, converted: 0 }));
    cell.entered++;
    if (done) cell.converted++;
  }
  let breakdowns: FunnelAnswer["results"]["breakdowns"];
  if (plan.breakdown !== null) {
    const groups = new Map<string, number[]>();
    // Pushed, not copied per visitor (a copy made the grouping quadratic in a value's visitors).
    for (let i = 0; i < outs.count; i++) {
      const g = groups.get(outs.bvAt(i));
      if (g === undefined) groups.set(outs.bvAt(i), [i]);
      else g.push(i);
    }
    breakdowns = [...groups.entries()]
      .sort(
        (a, b) =>
          Number(a[0] === OTHER_BREAKDOWN_VALUE) - Number(b[0] === OTHER_BREAKDOWN_VALUE) ||
          b[1].length - a[1].length ||
          (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
      )
      .map(([breakdown_value, which]) => ({ breakdown_value, steps: stepResults(plan, outs, which) }));
  }
  return {
    kind: "funnel",
    results: {
      steps: stepResults(plan, outs, null),
      ...(breakdowns ? { breakdowns } : {}),
      time_to_convert: {
        bins: histogram(toConvert.map((ms) => ms / 1000)),
        median_seconds: medianSeconds(toConvert),
        average_seconds: meanSeconds(toConvert),
      },
      over_time: plan.buckets.map((date) => {
        const c = byBucket.get(date) ?? { entered: 0, converted: 0 };
        return { date, ...c, conversion: c.entered === 0 ? null : pct(c.converted, c.entered) };
      }),
    },
  };
}

/** Whether visitor i is behind a step's point: converted = got there; dropped = reached the step before and not it. */
export function funnelActorMatches(outs: FunnelOutcomes, i: number, at: FunnelActorSelector): boolean {
  if (at.breakdown_value !== undefined && outs.bvAt(i) !== at.breakdown_value) return false;
  const reached = outs.reached[i] as number;
  return at.status === "converted" ? reached >= at.step : at.step >= 2 && reached === at.step - 1;
}
