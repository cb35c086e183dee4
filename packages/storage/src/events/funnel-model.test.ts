// runFunnel on every event engine (DuckDB, ClickHouse) against a plain-TypeScript model of
// DESIGN.md §4 Funnels that enumerates every chain by brute force (no greedy choice, no pruning):
// random small traffic over a range that spans a DST change (many equal timestamps, so that ties
// are common) and random funnel specs (2–3 steps with filters, sequential/strict/any, windows,
// exclusions, breakdowns), answered once by the SQL + evaluator and once by reading the events in
// memory. Any difference is a bug in one of the two.
import {
  type EventRow,
  type Filter,
  FUNNEL_UNIT_SECONDS,
  type FunnelAnswer,
  type FunnelSpec,
  type FunnelSpecInput,
  FunnelSpecSchema,
  OTHER_BREAKDOWN_VALUE,
  parseFilters,
} from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { event } from "./fixtures.js";
import { runFunnel } from "./funnel.js";
import { type TestStore, testEngines } from "./test-engines.js";

const TZ = "America/New_York";
const DAY = 86_400_000;
const T0 = Date.parse("2024-03-01T05:00:00Z");
const NOW = new Date(T0 + 20 * DAY);
/** Days 5-9 of the traffic, local; the DST change (10 March) makes the last day 23 hours long. */
const FROM = Date.parse("2024-03-06T05:00:00Z");
const TO = Date.parse("2024-03-11T04:00:00Z");
const DAY_LABELS = ["2024-03-06", "2024-03-07", "2024-03-08", "2024-03-09", "2024-03-10"];

const eventArb = fc.record({
  visitor: fc.integer({ min: 0, max: 4 }),
  // Half hours: most in a busy half day (ties and window edges are frequent), the rest over days 4-10.
  half: fc.oneof(fc.integer({ min: 5 * 48 + 20, max: 5 * 48 + 32 }), fc.integer({ min: 4 * 48, max: 10 * 48 })),
  name: fc.constantFrom("pageview", "pageview", "signup", "purchase", "engagement", "cancel"),
  path: fc.constantFrom("/", "/a", "/b"),
  country: fc.constantFrom("US", "DE", ""),
  plan: fc.constantFrom(undefined, "pro", "free"),
});

const FILTERS = ["", "", "page==/a", "country!=DE", "prop:plan==pro"];
const stepArb = fc.record({ event: fc.constantFrom("pageview", "signup", "purchase"), filters: fc.constantFrom(...FILTERS) });
const specArb = fc.record({
  steps: fc.array(stepArb, { minLength: 2, maxLength: 3 }),
  order: fc.constantFrom("sequential", "sequential", "strict", "any"),
  window: fc.record({ value: fc.integer({ min: 1, max: 3 }), unit: fc.constantFrom("hour", "day") }),
  exclusion: fc.constantFrom(undefined, "cancel", "pageview"),
  filters: fc.constantFrom("", "country!=US"),
  breakdown: fc.constantFrom(undefined, "country", "prop:plan"),
  breakdown_limit: fc.constantFrom(1, 5),
});

function rowValue(e: EventRow, dim: string): string | undefined {
  if (dim.startsWith("prop:")) return e.props[dim.slice(5)];
  if (dim === "page") return e.path;
  if (dim === "country") return e.country;
  throw new Error(dim);
}

function keeps(e: EventRow, f: Filter): boolean {
  const v = rowValue(e, f.dimension);
  const hit = v !== undefined && f.values.some((x) => v === x);
  if (f.dimension.startsWith("prop:")) return f.op === "is_not" ? !hit : hit;
  const plain = f.values.some((x) => (v ?? "") === x);
  return f.op === "is_not" ? !plain : plain;
}

interface Ev {
  t: number;
  steps: boolean[];
  excl: boolean;
  bv: string;
}
interface Outcome {
  reached: number;
  times: number[];
  start: number;
  bv: string;
}

const lexLess = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return false;
};

/** Every chain (any length >= 1) of a visitor, by brute force. */
function chains(evs: Ev[], spec: FunnelSpec, W: number): number[][] {
  const out: number[][] = [];
  const walk = (chain: number[]) => {
    out.push(chain);
    const s = chain.length;
    if (s === spec.steps.length) return;
    const first = evs[chain[0] as number] as Ev;
    const last = evs[chain[s - 1] as number] as Ev;
    evs.forEach((e, i) => {
      if (chain.includes(i) || !e.steps[s] || e.t < last.t || e.t - first.t > W) return;
      const next = [...chain, i];
      if (spec.order === "strict") {
        const inside = evs.some((o, j) => !next.includes(j) && o.t > first.t && o.t < e.t);
        if (inside) return;
      }
      walk(next);
    });
  };
  evs.forEach((e, i) => {
    if (e.steps[0]) walk([i]);
  });
  return out;
}

function orderedOutcome(evs: Ev[], spec: FunnelSpec, W: number): Outcome | null {
  const all = chains(evs, spec, W);
  if (all.length === 0) return null;
  const K = Math.max(...all.map((c) => c.length));
  let best: Outcome | null = null;
  for (const c of all.filter((x) => x.length === K)) {
    const times = c.map((i) => (evs[i] as Ev).t);
    const o = { reached: K, times, start: times[0] as number, bv: (evs[c[0] as number] as Ev).bv };
    if (
      best === null ||
      o.start > best.start ||
      (o.start === best.start && (lexLess(times, best.times) || (!lexLess(best.times, times) && o.bv < best.bv)))
    )
      best = o;
  }
  const b = best as Outcome;
  for (const x of spec.exclusions) {
    const [from, to] = x.between;
    if (b.reached < to) continue;
    if (evs.some((e) => e.excl && e.t > (b.times[from - 1] as number) && e.t < (b.times[to - 1] as number))) return null;
  }
  return b;
}

function anyOutcome(evs: Ev[], spec: FunnelSpec, W: number): Outcome | null {
  let best: Outcome | null = null;
  const assign = (k: number, chosen: number[]) => {
    if (chosen.length > 0) {
      const ts = chosen.map((i) => (evs[i] as Ev).t);
      const lo = Math.min(...ts);
      if (Math.max(...ts) - lo > W) return;
      if (best === null || chosen.length > best.reached || (chosen.length === best.reached && lo > best.start)) {
        const inWin = evs.filter((e) => e.steps[0] && e.t >= lo && e.t <= lo + W);
        const t1 = Math.min(...inWin.map((e) => e.t));
        const bv = inWin
          .filter((e) => e.t === t1)
          .map((e) => e.bv)
          .sort()[0] as string;
        best = { reached: chosen.length, times: [], start: lo, bv };
      }
    }
    if (k === spec.steps.length) return;
    evs.forEach((e, i) => {
      if (e.steps[k] && !chosen.includes(i)) assign(k + 1, [...chosen, i]);
    });
  };
  assign(0, []);
  return best;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}
const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

function steps(spec: FunnelSpec, os: Outcome[]) {
  const n = spec.steps.map((_, k) => os.filter((o) => o.reached > k).length);
  return spec.steps.map((s, k) => {
    const gaps =
      k === 0 || spec.order === "any"
        ? []
        : os.filter((o) => o.reached > k).map((o) => ((o.times[k] as number) - (o.times[k - 1] as number)) / 1000);
    const prev = k === 0 ? (n[0] as number) : (n[k - 1] as number);
    const here = n[k] as number;
    return {
      step: k + 1,
      label: `${k + 1}: ${s.event}`,
      visitors: here,
      conversion: here === 0 ? 0 : k === 0 ? 100 : (here / (n[0] as number)) * 100,
      conversion_from_previous: here === 0 ? 0 : k === 0 ? 100 : (here / prev) * 100,
      dropped: prev - here,
      median_seconds: median(gaps),
      average_seconds: mean(gaps),
    };
  });
}

function model(events: EventRow[], input: FunnelSpecInput): FunnelAnswer {
  const spec = FunnelSpecSchema.parse(input);
  const W = spec.window.value * FUNNEL_UNIT_SECONDS[spec.window.unit] * 1000;
  const global = parseFilters(spec.filters ?? "");
  const matchesSel = (e: EventRow, sel: { event: string; filters?: string | undefined }) =>
    e.name === sel.event && parseFilters(sel.filters ?? "").every((f) => keeps(e, f));
  const byVisitor = new Map<string, Ev[]>();
  for (const e of events) {
    const t = e.ts.getTime();
    if (t < FROM || t >= TO || ["engagement", "pageleave", "identify"].includes(e.name)) continue;
    if (!global.every((f) => keeps(e, f))) continue;
    const ev: Ev = {
      t,
      steps: spec.steps.map((s) => matchesSel(e, s)),
      excl: spec.exclusions.some((x) => matchesSel(e, x)),
      bv: spec.breakdown ? (rowValue(e, spec.breakdown) ?? "") : "",
    };
    if (spec.order !== "strict" && !ev.steps.some(Boolean) && !ev.excl) continue;
    byVisitor.set(e.visitor_id, [...(byVisitor.get(e.visitor_id) ?? []), ev]);
  }
  const os: Outcome[] = [];
  for (const evs of byVisitor.values()) {
    const o = spec.order === "any" ? anyOutcome(evs, spec, W) : orderedOutcome(evs, spec, W);
    if (o) os.push(o);
  }
  if (spec.breakdown) {
    const counts = new Map<string, number>();
    for (const o of os) counts.set(o.bv, (counts.get(o.bv) ?? 0) + 1);
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, spec.breakdown_limit ?? 10)
      .map(([v]) => v);
    for (const o of os) if (!top.includes(o.bv)) o.bv = OTHER_BREAKDOWN_VALUE;
  }
  const last = spec.steps.length;
  const conv =
    spec.order === "any"
      ? []
      : os.filter((o) => o.reached === last).map((o) => ((o.times[last - 1] as number) - (o.times[0] as number)) / 1000);
  const bins: { from_seconds: number; to_seconds: number; visitors: number }[] = [];
  if (conv.length > 0) {
    const lo = Math.floor(Math.min(...conv));
    const width = Math.max(1, Math.ceil((Math.max(...conv) - lo + 1) / 10));
    for (const s of conv) {
      const i = Math.floor((s - lo) / width);
      while (bins.length <= i)
        bins.push({ from_seconds: lo + bins.length * width, to_seconds: lo + (bins.length + 1) * width, visitors: 0 });
      (bins[i] as { visitors: number }).visitors++;
    }
  }
  const dayOf = (t: number) => {
    for (let i = 4; i >= 0; i--) if (t >= FROM + i * DAY) return i;
    return 0;
  };
  const values = [...new Set(os.map((o) => o.bv))];
  const size = (v: string) => os.filter((o) => o.bv === v).length;
  values.sort(
    (a, b) => Number(a === OTHER_BREAKDOWN_VALUE) - Number(b === OTHER_BREAKDOWN_VALUE) || size(b) - size(a) || (a < b ? -1 : 1),
  );
  return {
    kind: "funnel",
    results: {
      steps: steps(spec, os),
      ...(spec.breakdown
        ? {
            breakdowns: values.map((v) => ({
              breakdown_value: v,
              steps: steps(
                spec,
                os.filter((o) => o.bv === v),
              ),
            })),
          }
        : {}),
      time_to_convert: { bins, median_seconds: median(conv), average_seconds: mean(conv) },
      over_time: DAY_LABELS.map((date, d) => {
        const mine = os.filter((o) => dayOf(o.start) === d);
        const converted = mine.filter((o) => o.reached === last).length;
        return { date, entered: mine.length, converted, conversion: mine.length === 0 ? null : (converted / mine.length) * 100 };
      }),
    },
  };
}

const round = (x: unknown): unknown =>
  typeof x === "number"
    ? Math.round(x * 1e6) / 1e6
    : Array.isArray(x)
      ? x.map(round)
      : x && typeof x === "object"
        ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v)]))
        : x;

const ENGINES = await testEngines({ timelines: true });

describe.each(ENGINES)("runFunnel on $name agrees with the plain-TypeScript model", (engine) => {
  let store: TestStore;
  let run = 0;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("funnel-model");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });
  it.skipIf(engine.skip !== undefined)("on random traffic and random specs", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 0, maxLength: 40 }), specArb, async (raw, s) => {
        const property = `funnel-${++run}`;
        const events = raw.map((r, i) =>
          event({
            property,
            ts: new Date(T0 + r.half * 30 * 60_000),
            name: r.name,
            path: r.path,
            visitor_id: `v${r.visitor}`,
            client_id: `c${r.visitor}`,
            session_id: `v${r.visitor}-${i}`,
            country: r.country,
            props: r.plan ? { plan: r.plan } : {},
          }),
        );
        if (events.length > 0) await store.append(events);
        await store.sync();
        const spec: FunnelSpecInput = {
          kind: "funnel",
          period: "custom",
          date: "2024-03-06,2024-03-10",
          interval: "day",
          steps: s.steps.map((x) => ({ event: x.event, ...(x.filters ? { filters: x.filters } : {}) })),
          order: s.order as "sequential",
          window: s.window as { value: number; unit: "hour" },
          ...(s.exclusion && s.order !== "any"
            ? { exclusions: [{ event: s.exclusion, between: [1, 2] as [number, number] }] }
            : {}),
          ...(s.filters ? { filters: s.filters } : {}),
          ...(s.breakdown ? { breakdown: s.breakdown as "country", breakdown_limit: s.breakdown_limit } : {}),
        };
        const answer = await runFunnel(store, property, spec, { timezone: TZ, now: NOW });
        expect(round(answer)).toEqual(round(model(events, spec)));
      }),
      { numRuns: 60 },
    );
  });
});
