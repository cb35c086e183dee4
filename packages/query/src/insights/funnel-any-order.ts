// The any-order funnel (DESIGN.md §4 Funnels, funnel-eval.ts states the rules): steps 1..k each
// matched by a distinct event within one window, in any order. Rare beside the ordered funnels, so
// it works on event objects.
import type { FunnelPlan } from "./funnel.js";
import type { FunnelEvent, FunnelOutcome } from "./funnel-outcomes.js";

/** Any order: per window start (each event's instant), how many of steps 1..k distinct events cover. */
export function anyOrderOutcome(evs: readonly FunnelEvent[], plan: FunnelPlan): FunnelOutcome | null {
  const steps = plan.labels.length;
  let best: FunnelOutcome | null = null;
  for (let a = evs.length - 1; a >= 0; a--) {
    const t0 = (evs[a] as FunnelEvent).t;
    if (a + 1 < evs.length && (evs[a + 1] as FunnelEvent).t === t0) continue; // one start per instant
    let end = a;
    while (end < evs.length && (evs[end] as FunnelEvent).t <= t0 + plan.windowMs) end++;
    let first = a;
    while (first > 0 && (evs[first - 1] as FunnelEvent).t === t0) first--;
    const window = evs.slice(first, end);
    const reached = matchedPrefix(window, steps);
    if (reached === 0 || (best !== null && reached <= best.reached)) continue;
    // The breakdown value: the earliest step-1 event's (ties: the smallest value).
    let bv = "";
    let t1 = Number.POSITIVE_INFINITY;
    for (const e of window) {
      if ((e.m & 1) === 0) continue;
      if (e.t < t1 || (e.t === t1 && e.bv < bv)) [t1, bv] = [e.t, e.bv];
    }
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
