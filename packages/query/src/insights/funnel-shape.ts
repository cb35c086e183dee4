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
import type { FunnelOutcome } from "./funnel-eval.js";

const pct = (a: number, b: number) => (b === 0 ? 0 : (a / b) * 100);

// Times are summed and picked in whole milliseconds and turned into seconds last: integer sums do
// not depend on the order the visitors arrive in (the packed answer's order is the engine's).
function medianSeconds(ms: number[]): number | null {
  if (ms.length === 0) return null;
  const s = Float64Array.from(ms).sort();
  const m = s.length >> 1;
  return (s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2) / 1000;
}
function meanSeconds(ms: number[]): number | null {
  if (ms.length === 0) return null;
  let sum = 0;
  for (const x of ms) sum += x;
  return sum / ms.length / 1000;
}

/** Per step: visitors, conversion, drop-off and the times from the previous step, in one pass over the outcomes. */
function stepResults(plan: FunnelPlan, outcomes: readonly FunnelOutcome[]): FunnelStepResult[] {
  const steps = plan.labels.length;
  const visitors = new Array<number>(steps).fill(0);
  const gaps: number[][] = plan.labels.map(() => []);
  const timed = plan.order !== "any";
  for (const o of outcomes) {
    for (let k = 0; k < o.reached; k++) visitors[k] = (visitors[k] as number) + 1;
    if (timed)
      for (let k = 1; k < o.reached; k++) (gaps[k] as number[]).push((o.times[k] as number) - (o.times[k - 1] as number));
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
export function shapeFunnel(plan: FunnelPlan, outcomes: readonly { o: FunnelOutcome }[]): FunnelAnswer {
  const all = outcomes.map((x) => x.o);
  const last = plan.labels.length;
  const converted = all.filter((o) => o.reached === last);
  const toConvert = plan.order === "any" ? [] : converted.map((o) => (o.times[last - 1] as number) - (o.times[0] as number));
  const byBucket = new Map<string, { entered: number; converted: number }>();
  const bucketOfStart = bucketLabeller(plan.interval, plan.timezone);
  for (const o of all) {
    const b = bucketOfStart(o.start);
    const cell = byBucket.get(b) ?? { entered: 0, converted: 0 };
    cell.entered++;
    if (o.reached === last) cell.converted++;
    byBucket.set(b, cell);
  }
  let breakdowns: FunnelAnswer["results"]["breakdowns"];
  if (plan.breakdown !== null) {
    const groups = new Map<string, FunnelOutcome[]>();
    // Pushed, not copied per visitor (a copy made the grouping quadratic in a value's visitors).
    for (const o of all) {
      const g = groups.get(o.bv);
      if (g === undefined) groups.set(o.bv, [o]);
      else g.push(o);
    }
    breakdowns = [...groups.entries()]
      .sort(
        (a, b) =>
          Number(a[0] === OTHER_BREAKDOWN_VALUE) - Number(b[0] === OTHER_BREAKDOWN_VALUE) ||
          b[1].length - a[1].length ||
          (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
      )
      .map(([breakdown_value, os]) => ({ breakdown_value, steps: stepResults(plan, os) }));
  }
  return {
    kind: "funnel",
    results: {
      steps: stepResults(plan, all),
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

/** Whether a visitor is behind a step's point: converted = got there; dropped = reached the step before and not it. */
export function funnelActorMatches(o: FunnelOutcome, at: FunnelActorSelector): boolean {
  if (at.breakdown_value !== undefined && o.bv !== at.breakdown_value) return false;
  return at.status === "converted" ? o.reached >= at.step : at.step >= 2 && o.reached === at.step - 1;
}
