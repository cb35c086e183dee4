// What the funnel's evaluation (funnel-eval.ts) hands the shaper (funnel-shape.ts) and the
// visitors' list: each visitor's outcome, kept in columns, and the events one is worked out from.
import { OTHER_BREAKDOWN_VALUE } from "@lookout/schema";
import type { FunnelPlan } from "./funnel.js";

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

/**
 * The visitors' outcomes in columns: an object and an array per visitor made much of the garbage
 * collector's work (280 681 visitors at 10M events, bench/insights.bench.ts).
 */
export class FunnelOutcomes {
  count = 0;
  /** Visitor i's reached steps' epoch ms are times[i * steps .. i * steps + reached) (unset in an any-order funnel). */
  times: Float64Array;
  reached: Uint8Array;
  start: Float64Array;
  /** Breakdown values: read with bvAt() (kept only once one is not "", as client ids are). */
  bv: string[] = [];
  /** Client ids: read with cidAt() ("" without one, and in the answer's rows, which do not carry them). */
  cid: string[] = [];

  constructor(
    readonly steps: number,
    /** Whether the steps have times (not in an any-order funnel). */
    readonly timed: boolean,
    /** Visitors expected (the columns grow past it). */
    capacity = 1024,
  ) {
    const size = Math.max(16, capacity);
    this.reached = new Uint8Array(size);
    this.start = new Float64Array(size);
    this.times = new Float64Array(size * steps);
  }

  bvAt(i: number): string {
    return this.bv[i] ?? "";
  }

  cidAt(i: number): string {
    return this.cid[i] ?? "";
  }

  push(reached: number, start: number, times: Float64Array, bv: string, cid: string): void {
    const i = this.count++;
    if (i === this.reached.length) {
      const grow = <A extends Uint8Array | Float64Array>(a: A, size: number): A => {
        const b = new (a.constructor as new (n: number) => A)(size);
        b.set(a);
        return b;
      };
      this.reached = grow(this.reached, 2 * i);
      this.start = grow(this.start, 2 * i);
      this.times = grow(this.times, 2 * i * this.steps);
    }
    this.reached[i] = reached;
    this.start[i] = start;
    if (this.timed) {
      const at = i * this.steps;
      for (let k = 0; k < reached; k++) this.times[at + k] = times[k] as number;
    }
    // Most funnels have neither: no array of 280 000 empty strings (10M events, the bench's funnel).
    if (bv !== "" || this.bv.length > 0) {
      while (this.bv.length < i) this.bv.push("");
      this.bv[i] = bv;
    }
    if (cid !== "" || this.cid.length > 0) {
      while (this.cid.length < i) this.cid.push("");
      this.cid[i] = cid;
    }
  }

  /** Visitor i's outcome as one object (tests, and a look at one visitor). */
  at(i: number): FunnelOutcome {
    const reached = this.reached[i] as number;
    const from = i * this.steps;
    return {
      reached,
      times: this.timed ? Array.from(this.times.subarray(from, from + reached)) : [],
      start: this.start[i] as number,
      bv: this.bvAt(i),
    };
  }
}

/** The breakdown's top N applied to the outcomes: the other values become OTHER_BREAKDOWN_VALUE. */
export function keepTopValues(plan: FunnelPlan, out: FunnelOutcomes): FunnelOutcomes {
  if (plan.breakdown === null) return out;
  const counts = new Map<string, number>();
  for (let i = 0; i < out.count; i++) counts.set(out.bvAt(i), (counts.get(out.bvAt(i)) ?? 0) + 1);
  const top = new Set(
    [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, plan.breakdownLimit)
      .map(([k]) => k),
  );
  for (let i = 0; i < out.count; i++) {
    if (top.has(out.bvAt(i))) continue;
    while (out.bv.length < i) out.bv.push("");
    out.bv[i] = OTHER_BREAKDOWN_VALUE;
  }
  return out;
}
