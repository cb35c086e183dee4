// runFunnel's exact numbers on hand-built fixtures, on every engine: the worked vectors of
// research/peers.md §1.2 and each rule of DESIGN.md §4 Funnels pinned by name (window start,
// inclusive edge, re-entry, ties, strict order, exclusion), a DST-crossing timezone, an empty
// range, one-event visitors, the breakdown, the histogram and conversion over time, and the
// visitors behind a step (runFunnelActors).
import { type EventRow, type FunnelSpecInput, FunnelSpecSchema } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { at, event } from "./fixtures.js";
import { runFunnel, runFunnelActors } from "./funnel.js";
import { type TestStore, testEngines } from "./test-engines.js";

const UTC = { timezone: "UTC", now: at("2024-05-20 00:00:00") };
const DAY_RANGE = { period: "custom", date: "2024-05-09,2024-05-09", interval: "day" } as const;
const ABC = [{ event: "A" }, { event: "B" }, { event: "C" }];
const HOUR = { value: 1, unit: "hour" } as const;

const ENGINES = await testEngines({ timelines: true });

describe.each(ENGINES)("funnels on $name: exact numbers", (engine) => {
  let store: TestStore;
  let n = 0;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("funnel-exact");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });

  /** A fresh property holding these events (name@HH:MM[:SS] per visitor). */
  async function seed(perVisitor: Record<string, string[]>, extra: Partial<EventRow> = {}): Promise<string> {
    const property = `fx-${++n}`;
    const rows: EventRow[] = [];
    for (const [v, list] of Object.entries(perVisitor)) {
      for (const [i, spec] of list.entries()) {
        const [name, time] = spec.split("@") as [string, string];
        const hms = time.length === 5 ? `${time}:00` : time;
        rows.push(
          event({
            property,
            ts: at(`2024-05-09 ${hms}`),
            name,
            visitor_id: v,
            client_id: `c-${v}`,
            session_id: `${v}-${i}`,
            ...extra,
          }),
        );
      }
    }
    if (rows.length > 0) await store.append(rows);
    await store.sync();
    return property;
  }
  const run = (property: string, spec: Omit<FunnelSpecInput, "kind" | "period">) =>
    runFunnel(store, property, { kind: "funnel", ...DAY_RANGE, ...spec }, UTC);
  const visitors = async (property: string, spec: Omit<FunnelSpecInput, "kind" | "period">) =>
    (await run(property, spec)).results.steps.map((s) => s.visitors);
  const skip = engine.skip !== undefined;

  it.skipIf(skip)(
    "window start + re-entry (peers §1.2 vector 1): A@13:00 A@13:30 B@13:45 C@14:15, 1 h -> 3/3 from the later A",
    async () => {
      const p = await seed({ u: ["A@13:00", "A@13:30", "B@13:45", "C@14:15"] });
      const a = await run(p, { steps: ABC, window: HOUR });
      expect(a.results.steps.map((s) => s.visitors)).toEqual([1, 1, 1]);
      // Times are measured on the counted chain (the later A): 15 and 30 minutes.
      expect(a.results.steps.map((s) => s.median_seconds)).toEqual([null, 900, 1800]);
      expect(a.results.time_to_convert.median_seconds).toBe(2700);
    },
  );

  it.skipIf(skip)("counts every visitor of a crowd: the answer's packed parts lose none of them", async () => {
    // 500 visitors spread over every part of the packed answer (FUNNEL_PARTS), each their own
    // numbers: one in three converts, one in five does B only after the window.
    const crowd: Record<string, string[]> = {};
    for (let i = 0; i < 500; i++) {
      crowd[`crowd-${i}`] = i % 3 === 0 ? ["A@10:00", "B@10:30"] : i % 5 === 0 ? ["A@10:00", "B@11:30"] : ["A@10:00"];
    }
    const p = await seed(crowd);
    const a = await run(p, { steps: [{ event: "A" }, { event: "B" }], window: HOUR });
    expect(a.results.steps.map((s) => s.visitors)).toEqual([500, 167]);
    expect(a.results.steps[1]?.average_seconds).toBe(1800);
    const spec = FunnelSpecSchema.parse({ kind: "funnel", ...DAY_RANGE, steps: [{ event: "A" }, { event: "B" }], window: HOUR });
    const ids = await runFunnelActors(store, p, spec, { step: 2, status: "converted" }, { limit: 1000, offset: 0 }, UTC);
    expect(ids.client_ids).toHaveLength(167);
    expect(ids.client_ids).toContain("c-crowd-0");
  });

  it.skipIf(skip)("window anchored at step 1, not at the previous step: A@0 B@40m C@70m, 1 h -> 2 of 3", async () => {
    const p = await seed({ u: ["A@10:00", "B@10:40", "C@11:10"] });
    expect(await visitors(p, { steps: ABC, window: HOUR })).toEqual([1, 1, 0]);
  });

  it.skipIf(skip)("inclusive edge: a step exactly one window after step 1 counts, one second later does not", async () => {
    const p = await seed({ in: ["A@10:00:00", "B@11:00:00"], out: ["A@10:00:00", "B@11:00:01"] });
    expect(await visitors(p, { steps: [{ event: "A" }, { event: "B" }], window: HOUR })).toEqual([2, 1]);
  });

  it.skipIf(skip)("ties: events with equal timestamps count in either order", async () => {
    const p = await seed({ u: ["B@10:00", "A@10:00", "C@10:00"] });
    expect(await visitors(p, { steps: ABC })).toEqual([1, 1, 1]);
    // One event never stands for two steps.
    const q = await seed({ u: ["A@10:00"] });
    expect(await visitors(q, { steps: [{ event: "A" }, { event: "A" }] })).toEqual([1, 0]);
  });

  it.skipIf(skip)(
    "strict order (peers §1.2 vector 3): A, Z, B -> 1 of 2; A, B -> 2; engagement pings do not break it",
    async () => {
      const p = await seed({ broken: ["A@10:00", "Z@10:01", "B@10:02"], clean: ["A@10:00", "engagement@10:01", "B@10:02"] });
      const steps = [{ event: "A" }, { event: "B" }];
      expect(await visitors(p, { steps, order: "strict" })).toEqual([2, 1]);
      expect(await visitors(p, { steps, order: "sequential" })).toEqual([2, 2]);
    },
  );

  it.skipIf(skip)("strict order: a later attempt can still convert (A Z A B)", async () => {
    const p = await seed({ u: ["A@10:00", "Z@10:01", "A@10:02", "B@10:03"] });
    expect(await visitors(p, { steps: [{ event: "A" }, { event: "B" }], order: "strict" })).toEqual([1, 1]);
  });

  it.skipIf(skip)("any order: B before A converts; the window still binds", async () => {
    const p = await seed({ u: ["C@10:00", "B@10:10", "A@10:20"], far: ["B@10:00", "A@12:00"] });
    expect(await visitors(p, { steps: ABC, order: "any", window: HOUR })).toEqual([2, 1, 1]);
    expect(await visitors(p, { steps: ABC, order: "sequential", window: HOUR })).toEqual([2, 0, 0]);
  });

  it.skipIf(skip)(
    "exclusion (peers §1.2 vector 2): A@0 X@5m B@10m with X between 1 and 2 -> left out of the whole funnel",
    async () => {
      const p = await seed({ x: ["A@10:00", "X@10:05", "B@10:10"], ok: ["A@10:00", "B@10:10", "X@10:15"] });
      const spec = { steps: [{ event: "A" }, { event: "B" }], exclusions: [{ event: "X", between: [1, 2] as [number, number] }] };
      expect(await visitors(p, spec)).toEqual([1, 1]);
      expect(await visitors(p, { steps: spec.steps })).toEqual([2, 2]);
    },
  );

  it.skipIf(skip)("conversions, drop-off, averages and the time-to-convert histogram", async () => {
    const p = await seed({
      a: ["A@10:00", "B@10:01", "C@10:03"],
      b: ["A@10:00", "B@10:03", "C@10:10"],
      c: ["A@10:00", "B@10:05"],
      d: ["A@10:00"],
    });
    const r = (await run(p, { steps: ABC })).results;
    expect(r.steps.map((s) => [s.visitors, s.conversion, s.conversion_from_previous, s.dropped])).toEqual([
      [4, 100, 100, 0],
      [3, 75, 75, 1],
      [2, 50, (2 / 3) * 100, 1],
    ]);
    expect(r.steps[1]?.average_seconds).toBe(180);
    expect(r.steps[1]?.median_seconds).toBe(180);
    expect(r.steps[2]?.median_seconds).toBe(270);
    expect(r.time_to_convert.average_seconds).toBe(390);
    expect(r.time_to_convert.bins.reduce((s, b) => s + b.visitors, 0)).toBe(2);
    expect(r.time_to_convert.bins[0]).toMatchObject({ from_seconds: 180, visitors: 1 });
    expect(r.over_time).toEqual([{ date: "2024-05-09", entered: 4, converted: 2, conversion: 50 }]);
    const ids = async (step: number, status: "converted" | "dropped") =>
      (
        await runFunnelActors(
          store,
          p,
          {
            kind: "funnel",
            ...DAY_RANGE,
            steps: ABC,
            window: { value: 14, unit: "day" },
            order: "sequential",
            exclusions: [],
          } as never,
          { step, status },
          { limit: 50, offset: 0 },
          UTC,
        )
      ).client_ids;
    expect(await ids(2, "dropped")).toEqual(["c-d"]);
    expect(await ids(3, "dropped")).toEqual(["c-c"]);
    expect(await ids(3, "converted")).toEqual(["c-a", "c-b"]);
    expect(await ids(1, "dropped")).toEqual([]);
  });

  it.skipIf(skip)("breakdown by the step-1 event's dimension, top N then $other", async () => {
    const property = `fx-${++n}`;
    const ev = (v: string, name: string, hm: string, country: string) =>
      event({ property, ts: at(`2024-05-09 ${hm}:00`), name, visitor_id: v, client_id: v, session_id: v, country });
    await store.append([
      ev("u1", "A", "10:00", "DE"),
      ev("u1", "B", "10:01", "US"),
      ev("u2", "A", "10:00", "DE"),
      ev("u3", "A", "10:00", "US"),
      ev("u3", "B", "10:05", "US"),
      ev("u4", "A", "10:00", "FR"),
    ]);
    await store.sync();
    const r = (await run(property, { steps: [{ event: "A" }, { event: "B" }], breakdown: "country", breakdown_limit: 1 }))
      .results;
    expect(r.breakdowns?.map((b) => [b.breakdown_value, b.steps.map((s) => s.visitors)])).toEqual([
      ["DE", [2, 1]],
      ["$other", [2, 1]],
    ]);
  });

  it.skipIf(skip)("a DST change: a 1-hour window across New York's spring-forward night is 60 real minutes", async () => {
    const property = `fx-${++n}`;
    // 10 March 2024, 01:30 EST = 06:30 UTC; 03:20 EDT = 07:20 UTC: 50 real minutes.
    await store.append([
      event({ property, ts: at("2024-03-10 06:30:00"), name: "A", visitor_id: "v", session_id: "s" }),
      event({ property, ts: at("2024-03-10 07:20:00"), name: "B", visitor_id: "v", session_id: "s" }),
    ]);
    await store.sync();
    const a = await runFunnel(
      store,
      property,
      {
        kind: "funnel",
        period: "custom",
        date: "2024-03-10,2024-03-10",
        interval: "hour",
        steps: [{ event: "A" }, { event: "B" }],
        window: HOUR,
      },
      { timezone: "America/New_York", now: at("2024-04-01 00:00:00") },
    );
    expect(a.results.steps.map((s) => s.visitors)).toEqual([1, 1]);
    expect(a.results.over_time).toHaveLength(23);
    expect(a.results.over_time.find((b) => b.entered > 0)).toMatchObject({ date: "2024-03-10 01:00:00", converted: 1 });
  });

  it.skipIf(skip)("an empty range and one-event visitors", async () => {
    const p = await seed({});
    const empty = (await run(p, { steps: ABC })).results;
    expect(empty.steps.map((s) => [s.visitors, s.conversion, s.median_seconds])).toEqual([
      [0, 0, null],
      [0, 0, null],
      [0, 0, null],
    ]);
    expect(empty.time_to_convert).toEqual({ bins: [], median_seconds: null, average_seconds: null });
    const q = await seed({ one: ["A@10:00"], other: ["B@10:00"] });
    expect(await visitors(q, { steps: ABC })).toEqual([1, 0, 0]);
  });
});
