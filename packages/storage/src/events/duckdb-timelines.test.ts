// The DuckDB store's visitor timelines (duckdb-timelines.ts): the funnels they cover are answered
// from them, and exactly as SQL answers (the same store with funnelFromTimelines taken away): on
// the rows they were built from, with rows appended since (the fresh part: known and new visitors,
// new pages), after a visitor's deletion, with page filters of every operator; the specs they do
// not cover, and properties below minEvents, go to SQL. (funnel.test.ts and funnel-model.test.ts
// run every exact-number and random case on the "duckdb-timelines" engine too.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventRow, FunnelSpecInput } from "@lookout/schema";
import { FunnelSpecSchema, type RetentionSpecInput, RetentionSpecSchema } from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import type { EventReader } from "./event-store.js";
import { at, event } from "./fixtures.js";
import { runFunnel, runFunnelActors } from "./funnel.js";
import { runRetention } from "./retention.js";

const CTX = { timezone: "Europe/Berlin", now: at("2024-05-20 00:00:00") };
const RANGE = { period: "custom", date: "2024-05-01,2024-05-14", interval: "day" } as const;
const PAGES = ["/", "/pricing", "/Pricing/team", "/docs", "/blog/ünïcode", "/signup"];
const FILTERS = ["", "page~pricing", "page==/docs|/", "page!~blog", "page=~^/[ds][a-z]+$", "page!=/"];

let dir: string;
let store: DuckDbEventStore;
let n = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lookout-timelines-"));
  store = await openDuckDbEventStore(join(dir, "events.duckdb"), {
    rollupDelayMs: 0,
    timelines: { minEvents: 0, awaitBuild: true },
  });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same store without its timelines: every funnel by SQL. */
const bySql = (of: DuckDbEventStore = store): EventReader => ({
  ...of,
  funnelFromTimelines: undefined,
  funnelActorsFromTimelines: undefined,
  retentionFromTimelines: undefined,
});

function rowsFor(property: string, seed: number, count: number, visitors = 12): EventRow[] {
  const rnd = fc.sample(
    fc.record({
      v: fc.integer({ min: 0, max: visitors - 1 }),
      minute: fc.integer({ min: 0, max: 16 * 24 * 60 }),
      name: fc.constantFrom("pageview", "pageview", "signup", "purchase", "engagement"),
      page: fc.constantFrom(...PAGES),
    }),
    { numRuns: count, seed },
  );
  return rnd.map((r, i) =>
    event({
      property,
      ts: new Date(at("2024-04-30 00:00:00").getTime() + r.minute * 60_000 + (i % 3) * 250),
      name: r.name,
      path: r.page,
      visitor_id: `v${r.v}`,
      client_id: `c${r.v}`,
      session_id: `s${r.v}`,
    }),
  );
}

function spec(order: "sequential" | "strict" | "any", filters: string[], global = ""): FunnelSpecInput {
  return {
    kind: "funnel",
    ...RANGE,
    order,
    filters: global,
    window: { value: 2, unit: "day" },
    steps: [
      { event: "pageview", filters: filters[0] ?? "" },
      { event: "pageview", filters: filters[1] ?? "" },
      { event: "signup" },
    ],
    exclusions: order === "any" ? [] : [{ event: "purchase", between: [1, 2] }],
  };
}

/** The answer, and the visitors behind every step's points, from the timelines and by SQL. */
async function same(property: string, s: FunnelSpecInput, of: DuckDbEventStore = store): Promise<void> {
  const parsed = FunnelSpecSchema.parse(s);
  const viaTimelines = await of.funnelFromTimelines?.(property, parsed, CTX);
  expect(viaTimelines, "answered from the timelines").not.toBeNull();
  expect(viaTimelines).toEqual(await runFunnel(bySql(of), property, s, CTX));
  for (const step of [1, 2, 3]) {
    for (const status of ["converted", "dropped"] as const) {
      const at = { step, status };
      for (const page of [
        { limit: 100, offset: 0 },
        { limit: 3, offset: 1 },
      ]) {
        const actors = await of.funnelActorsFromTimelines?.(property, parsed, at, page, CTX);
        expect(actors, "visitors from the timelines").not.toBeNull();
        expect(actors).toEqual(await runFunnelActors(bySql(of), property, parsed, at, page, CTX));
      }
    }
  }
}

/** Retention grids of every option (daily, weekly, a 40-day daily grid), from the timelines and by SQL. */
async function sameRetention(property: string, of: DuckDbEventStore = store): Promise<void> {
  for (const [i, f] of FILTERS.entries()) {
    for (const unit of ["day", "week", "long"] as const) {
      const spec: RetentionSpecInput = {
        kind: "retention",
        ...(unit === "long" ? { period: "custom", date: "2024-04-10,2024-05-19" } : RANGE),
        period_unit: unit === "long" ? "day" : unit,
        periods: unit === "week" ? 2 : 5,
        start_event: { event: "pageview", filters: f },
        return_event: i % 2 === 0 ? { event: "signup" } : { event: "pageview", filters: FILTERS[(i + 3) % FILTERS.length] ?? "" },
        retention_type: i % 3 === 0 ? "recurring" : "first_time",
        cumulative: i % 2 === 1,
        filters: i === 4 ? "page!=/signup" : "",
      };
      const viaTimelines = await of.retentionFromTimelines?.(property, RetentionSpecSchema.parse(spec), CTX);
      expect(viaTimelines, "answered from the timelines").not.toBeNull();
      expect(viaTimelines).toEqual(await runRetention(bySql(of), property, spec, { ...CTX, dayRollups: false }));
    }
  }
}

describe("DuckDB visitor timelines", () => {
  it("answer retention grids exactly as SQL does, before and after more rows arrive", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 7, 400));
    await store.sync();
    await sameRetention(property);
    await store.append(rowsFor(property, 8, 150, 20));
    await store.sync();
    await sameRetention(property);
  });

  it("answer covered funnels exactly as SQL does, for page filters of every operator", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 1, 400));
    await store.sync();
    for (const order of ["sequential", "strict", "any"] as const) {
      for (const [i, f] of FILTERS.entries()) await same(property, spec(order, [f, FILTERS[(i + 2) % FILTERS.length] ?? ""]));
      await same(property, spec(order, ["", ""], "page!=/signup"));
    }
  });

  it("complete the base with the rows appended since (known and new visitors, new pages), run after run", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 2, 300));
    await store.sync();
    await same(property, spec("sequential", ["page~pricing", ""]));
    const later = rowsFor(property, 3, 200, 20).map((r, i) => (i % 5 === 0 ? { ...r, path: `/new-${i % 3}/pricing` } : r));
    await store.append(later);
    await store.sync();
    for (const order of ["sequential", "strict", "any"] as const)
      await same(property, spec(order, ["page~pricing", "page!~new"]));
    // A third run of rows: merged with the fresh rows already read, not read again with them.
    await store.append(rowsFor(property, 13, 120, 25));
    await store.sync();
    for (const order of ["sequential", "strict"] as const) await same(property, spec(order, ["page~pricing", ""]));
  });

  it("forget a deleted visitor: the next funnel reads the events again", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 4, 300));
    await store.sync();
    await same(property, spec("sequential", ["", ""]));
    const before = await store.funnelFromTimelines?.(property, FunnelSpecSchema.parse(spec("sequential", ["", ""])), CTX);
    expect(await store.deleteVisitor(property, "c3")).toBeGreaterThan(0);
    await same(property, spec("sequential", ["", ""]));
    const after = await store.funnelFromTimelines?.(property, FunnelSpecSchema.parse(spec("sequential", ["", ""])), CTX);
    expect(after?.results.steps[0]?.visitors).toBeLessThan(before?.results.steps[0]?.visitors ?? 0);
  });

  it("leave to SQL what they do not hold: a breakdown, a filter on another dimension", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 5, 50));
    await store.sync();
    const ask = (s: FunnelSpecInput) => store.funnelFromTimelines?.(property, FunnelSpecSchema.parse(s), CTX);
    expect(await ask({ ...spec("sequential", ["", ""]), breakdown: "page" })).toBeNull();
    expect(await ask(spec("sequential", ["country==DE", ""]))).toBeNull();
    expect(await ask(spec("sequential", ["", ""], "browser==Firefox"))).toBeNull();
  });

  it("leave to SQL a regular expression DuckDB refuses, which then says so", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 9, 50));
    await store.sync();
    const bad = spec("sequential", ["page=~(?<n>a)", ""]);
    expect(await store.funnelFromTimelines?.(property, FunnelSpecSchema.parse(bad), CTX)).toBeNull();
    await expect(runFunnel(store, property, bad, CTX)).rejects.toMatchObject({ code: "invalid_regex" });
  });

  it("hold at most maxEvents between all properties, the least recently used dropped first", async () => {
    const small = await openDuckDbEventStore(join(dir, "budget.duckdb"), {
      rollupDelayMs: 0,
      timelines: { minEvents: 0, maxEvents: 150, awaitBuild: true },
    });
    try {
      for (const [i, p] of ["tl-a", "tl-b"].entries()) await small.append(rowsFor(p, 10 + i, 100));
      await small.append(rowsFor("tl-big", 12, 200));
      await small.sync();
      const ask = (p: string) => small.funnelFromTimelines?.(p, FunnelSpecSchema.parse(spec("sequential", ["", ""])), CTX);
      expect(await ask("tl-a")).not.toBeNull();
      expect(await ask("tl-big"), "a property larger than the budget").toBeNull();
      // Building b's (100 events) leaves no room for a's: a is dropped, and built again when next asked.
      expect(await ask("tl-b")).not.toBeNull();
      const sql = { ...small, funnelFromTimelines: undefined };
      expect(await ask("tl-a")).toEqual(await runFunnel(sql, "tl-a", spec("sequential", ["", ""]), CTX));
    } finally {
      await small.close();
    }
  });

  it("answer the same read in slices of the visitor keys, without postings, over more than 2^32 ms", async () => {
    // Each visitor's key slice sorted apart, step 1 found by a scan of the pairs, and instants 80
    // days after the timeline's first event (past 2^32 ms: their high byte is read).
    const sliced = await openDuckDbEventStore(join(dir, "sliced.duckdb"), {
      rollupDelayMs: 0,
      timelines: { minEvents: 0, postingsMaxEvents: 0, sliceEvents: 90, awaitBuild: true },
    });
    try {
      const property = "tl-sliced";
      const early = rowsFor(property, 21, 60, 30).map((r) => ({ ...r, ts: new Date(r.ts.getTime() - 80 * 86_400_000) }));
      await sliced.append([...rowsFor(property, 20, 400, 30), ...early]);
      await sliced.sync();
      expect(await sliced.buildTimeline(property)).toBe(true);
      for (const order of ["sequential", "strict", "any"] as const)
        await same(property, spec(order, ["page~pricing", FILTERS[2] ?? ""]), sliced);
      await sameRetention(property, sliced);
      // Fresh rows, one of them decades past the base's first event: more than a timeline's span,
      // so SQL answers, the same.
      await sliced.append([
        ...rowsFor(property, 22, 50, 40),
        event({ property, ts: at("2070-01-01 00:00:00"), visitor_id: "v1" }),
      ]);
      await sliced.sync();
      const s = spec("sequential", ["", ""]);
      expect(await sliced.funnelFromTimelines?.(property, FunnelSpecSchema.parse(s), CTX)).toBeNull();
      expect(await runFunnel(sliced, property, s, CTX)).toEqual(await runFunnel(bySql(sliced), property, s, CTX));
    } finally {
      await sliced.close();
    }
  });

  it("are not built for a property below minEvents", async () => {
    const small = await openDuckDbEventStore(join(dir, "small.duckdb"), {
      rollupDelayMs: 0,
      timelines: { minEvents: 1000, awaitBuild: true },
    });
    try {
      await small.append(rowsFor("tl-small", 6, 100));
      await small.sync();
      expect(await small.funnelFromTimelines?.("tl-small", FunnelSpecSchema.parse(spec("sequential", ["", ""])), CTX)).toBeNull();
    } finally {
      await small.close();
    }
  });
});
