// The stores' visitor timelines (timelines.ts, with DuckDB's and ClickHouse's sources): the funnels
// and retention grids they cover are answered from them, and exactly as SQL answers (the same store
// with the timeline answers taken away): on the rows they were built from, with rows appended since
// (the fresh part: known and new visitors, new pages), after a visitor's deletion, with page
// filters of every operator, read in slices without postings; the specs they do not cover, and
// properties below minEvents, go to SQL. On ClickHouse also: events of the current days (its fresh
// part), an insert into a past day and a deletion by another server (the base then no longer
// holds: SQL answers, and the base is read again). (funnel.test.ts, funnel-model.test.ts and
// retention-model.test.ts run every exact-number and random case on the "-timelines" engines too.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventRow, FunnelSpecInput } from "@lookout/schema";
import {
  FunnelSpecSchema,
  LifecycleSpecSchema,
  type RetentionSpecInput,
  RetentionSpecSchema,
  StickinessSpecSchema,
} from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it as itRun } from "vitest";
import { clickHouseTestDatabase, requireClickHouse, requireClickHouseCluster, stopClickHouseCluster } from "../test-services.js";
import { openClickHouseEventStore } from "./clickhouse-store.js";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { duckDbRoom, openDuckDbEventStore } from "./duckdb-store.js";
import type { EventReader, EventStore } from "./event-store.js";
import { at, event } from "./fixtures.js";
import { runFunnel, runFunnelActors } from "./funnel.js";
import { runLifecycle } from "./lifecycle.js";
import { runRetention } from "./retention.js";
import { runStickiness } from "./stickiness.js";
import type { TimelineOptions } from "./timelines.js";

type Store = EventStore & { buildTimeline(property: string): Promise<boolean> };

const ch = await requireClickHouse();
let dir: string;
let opened = 0;
const ENGINES: { name: string; skip?: string; open: (timelines: TimelineOptions) => Promise<Store> }[] = [
  {
    name: "duckdb",
    open: (timelines) => openDuckDbEventStore(join(dir, `s${++opened}.duckdb`), { rollupDelayMs: 0, timelines }),
  },
  {
    name: "clickhouse",
    ...("skip" in ch ? { skip: ch.skip } : {}),
    open: (timelines) => {
      if (!("url" in ch)) throw new Error(ch.skip);
      return openClickHouseEventStore(`${ch.url}/${clickHouseTestDatabase(`timelines_${++opened}`)}`, { timelines, settleEveryMs: 0 });
    },
  },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "lookout-timelines-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stopClickHouseCluster();
});

const CTX = { timezone: "Europe/Berlin", now: at("2024-05-20 00:00:00") };
const RANGE = { period: "custom", date: "2024-05-01,2024-05-14", interval: "day" } as const;
const PAGES = ["/", "/pricing", "/Pricing/team", "/docs", "/blog/ünïcode", "/signup"];
const FILTERS = ["", "page~pricing", "page==/docs|/", "page!~blog", "page=~^/[ds][a-z]+$", "page!=/"];

let store: Store;
let n = 0;

/** The same store without its timelines: every funnel by SQL. */
const bySql = (of: Store = store): EventReader =>
  new Proxy(of, {
    get: (target, prop) => {
      if (prop === "funnelFromTimelines" || prop === "funnelActorsFromTimelines" || prop === "retentionFromTimelines")
        return undefined;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
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
async function same(property: string, s: FunnelSpecInput, of: Store = store): Promise<void> {
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
async function sameRetention(property: string, of: Store = store): Promise<void> {
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

describe.each(ENGINES)("$name visitor timelines", (engine) => {
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open({ minEvents: 0, awaitBuild: true });
  });
  afterAll(() => store?.close());
  const it = engine.skip ? itSkip(engine.skip) : itRun;

  it("answer retention grids exactly as SQL does, before and after more rows arrive", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 7, 400));
    await store.sync();
    await sameRetention(property);
    await store.append(rowsFor(property, 8, 150, 20));
    await store.sync();
    await sameRetention(property);
  });

  it("answer stickiness and lifecycle exactly as SQL does, for page filters and every interval", async () => {
    const property = `tl-${++n}`;
    await store.append(rowsFor(property, 14, 400));
    await store.sync();
    for (const [i, f] of FILTERS.entries()) {
      for (const interval of ["day", "week", "month"] as const) {
        const spec = StickinessSpecSchema.parse({
          kind: "stickiness",
          ...(interval === "day" ? RANGE : { period: "custom", date: "2024-04-10,2024-05-19" }),
          interval,
          event: { event: i % 2 === 0 ? "pageview" : "signup", filters: f },
          filters: i === 3 ? "page!=/signup" : "",
          cumulative: i % 3 === 0,
        });
        const viaTimelines = await store.stickinessFromTimelines?.(property, spec, CTX);
        expect(viaTimelines, "answered from the timelines").not.toBeNull();
        expect(viaTimelines).toEqual(await runStickiness(bySql(), property, spec, { ...CTX, dayRollups: false }));
        const lifecycle = LifecycleSpecSchema.parse({ ...spec, kind: "lifecycle" });
        const cycles = await store.lifecycleFromTimelines?.(property, lifecycle, CTX);
        expect(cycles, "answered from the timelines").not.toBeNull();
        expect(cycles).toEqual(await runLifecycle(bySql(), property, lifecycle, { ...CTX, dayRollups: false }));
      }
    }
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
    const small = await engine.open({ minEvents: 0, maxEvents: 150, awaitBuild: true });
    try {
      for (const [i, p] of ["tl-a", "tl-b"].entries()) await small.append(rowsFor(p, 10 + i, 100));
      await small.append(rowsFor("tl-big", 12, 200));
      await small.sync();
      const ask = (p: string) => small.funnelFromTimelines?.(p, FunnelSpecSchema.parse(spec("sequential", ["", ""])), CTX);
      expect(await ask("tl-a")).not.toBeNull();
      expect(await ask("tl-big"), "a property larger than the budget").toBeNull();
      // Building b's (100 events) leaves no room for a's: a is dropped, and built again when next asked.
      expect(await ask("tl-b")).not.toBeNull();
      const sql = bySql(small);
      expect(await ask("tl-a")).toEqual(await runFunnel(sql, "tl-a", spec("sequential", ["", ""]), CTX));
    } finally {
      await small.close();
    }
  });

  it("answer the same read in slices of the visitor keys, without postings, over more than 2^32 ms", async () => {
    // Each visitor's key slice sorted apart, step 1 found by a scan of the pairs, and instants 80
    // days after the timeline's first event (past 2^32 ms: their high byte is read).
    const sliced = await engine.open({ minEvents: 0, postingsMaxEvents: 0, sliceEvents: 90, awaitBuild: true });
    try {
      const property = "tl-sliced";
      const early = rowsFor(property, 21, 60, 30).map((r) => ({ ...r, ts: new Date(r.ts.getTime() - 80 * 86_400_000) }));
      await sliced.append([...rowsFor(property, 20, 400, 30), ...early]);
      await sliced.sync();
      expect(await sliced.buildTimeline(property)).toBe(true);
      for (const order of ["sequential", "strict", "any"] as const)
        await same(property, spec(order, ["page~pricing", FILTERS[2] ?? ""]), sliced);
      await sameRetention(property, sliced);
      // Rows appended, one of them decades past the others. DuckDB's fresh part then spans more
      // than a timeline holds, so SQL answers; ClickHouse's fresh part holds only that one (the
      // rest are in past days: its base is read again).
      await sliced.append([
        ...rowsFor(property, 22, 50, 40),
        event({ property, ts: at("2070-01-01 00:00:00"), visitor_id: "v1" }),
      ]);
      await sliced.sync();
      const s = spec("sequential", ["", ""]);
      const viaTimelines = await sliced.funnelFromTimelines?.(property, FunnelSpecSchema.parse(s), CTX);
      const viaSql = await runFunnel(bySql(sliced), property, s, CTX);
      if (engine.name === "duckdb") expect(viaTimelines).toBeNull();
      else expect(viaTimelines).toEqual(viaSql);
      expect(await runFunnel(sliced, property, s, CTX)).toEqual(viaSql);
    } finally {
      await sliced.close();
    }
  });

  it("are not built for a property below minEvents", async () => {
    const small = await engine.open({ minEvents: 1000, awaitBuild: true });
    try {
      await small.append(rowsFor("tl-small", 6, 100));
      await small.sync();
      expect(await small.funnelFromTimelines?.("tl-small", FunnelSpecSchema.parse(spec("sequential", ["", ""])), CTX)).toBeNull();
    } finally {
      await small.close();
    }
  });
});

/** An `it` that skips every test with the engine's reason in its name. */
function itSkip(reason: string) {
  return (name: string, _fn: () => Promise<void>) => itRun.skip(`${name} (skipped: ${reason})`, () => {});
}

// One node, and a two-shard cluster behind Distributed tables (its deletions mutate each shard's events_local).
const SERVERS = [
  { name: "one node", cluster: false },
  { name: "a two-shard cluster", cluster: true },
] as const;

describe.skipIf("skip" in ch).each(SERVERS)("ClickHouse visitor timelines across days and servers, on $name", (on) => {
  itRun("hold the current days in the fresh part, and see another server's insert into a past day and its deletion", async () => {
    const shards = on.cluster ? await requireClickHouseCluster() : null;
    const where = shards ?? ch;
    if (!("url" in where) || (shards !== null && "skip" in shards)) return;
    const db = `${where.url}/${clickHouseTestDatabase(on.cluster ? "timelines_cluster" : "timelines_servers")}`;
    const cluster = shards !== null && !("skip" in shards) ? { cluster: { name: shards.name, shards: shards.shards } } : {};
    const a = await openClickHouseEventStore(db, { ...cluster, timelines: { minEvents: 0, awaitBuild: true }, settleEveryMs: 0 });
    const b = await openClickHouseEventStore(db, { ...cluster, timelines: false, settleEveryMs: 0 });
    try {
      const property = "tl-servers";
      const now = Date.now();
      // Berlin's dates (the range's zone): between 23:00 and midnight UTC its today is UTC's
      // tomorrow, and a range ending on UTC's today left out the visitor of minutes ago.
      const day = (ms: number) =>
        new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin", year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);
      // 16 days of rows ending a minute ago: the last two days are past the base's boundary.
      const shift = now - 60_000 - 16 * 86_400_000 - at("2024-04-30 00:00:00").getTime();
      const moved = (rows: EventRow[], by = shift) => rows.map((r) => ({ ...r, ts: new Date(r.ts.getTime() + by) }));
      const ctx = { timezone: "Europe/Berlin", now: new Date(now) };
      const range = { period: "custom", date: `${day(now - 18 * 86_400_000)},${day(now)}`, interval: "day" } as const;
      const funnel: FunnelSpecInput = { ...spec("sequential", ["page~pricing", ""]), ...range };
      const retention: RetentionSpecInput = {
        kind: "retention",
        ...range,
        period_unit: "day",
        periods: 5,
        start_event: { event: "pageview" },
        return_event: { event: "signup" },
      };
      const check = async () => {
        const viaTimelines = await a.funnelFromTimelines?.(property, FunnelSpecSchema.parse(funnel), ctx);
        expect(viaTimelines, "answered from the timelines").not.toBeNull();
        expect(viaTimelines).toEqual(await runFunnel(bySql(a), property, funnel, ctx));
        const grid = await a.retentionFromTimelines?.(property, RetentionSpecSchema.parse(retention), ctx);
        expect(grid, "answered from the timelines").not.toBeNull();
        expect(grid).toEqual(await runRetention(bySql(a), property, retention, ctx));
        return viaTimelines?.results.steps[0]?.visitors ?? 0;
      };
      await a.append(moved(rowsFor(property, 31, 500, 25)));
      expect(await a.buildTimeline(property)).toBe(true);
      const first = await check();
      expect(first).toBeGreaterThan(0);
      // The other server inserts into a day three days back (settleable, so marked), and now.
      await b.append(moved(rowsFor(property, 32, 120, 30), shift - 3 * 86_400_000));
      await b.append(moved(rowsFor(property, 33, 40, 30), shift + 60_000 - 2 * 86_400_000));
      const before = await check();
      // ... and deletes a visitor who entered the funnel: this server's base no longer holds.
      const entered = await a.funnelActorsFromTimelines?.(
        property,
        FunnelSpecSchema.parse(funnel),
        { step: 1, status: "converted" },
        { limit: 1, offset: 0 },
        ctx,
      );
      const gone = entered?.client_ids[0] as string;
      expect(await b.deleteVisitor(property, gone)).toBeGreaterThan(0);
      expect(await check()).toBe(before - 1);
      // A new visitor on the pricing page minutes ago (the fresh part, read again as it grew).
      await b.append([
        event({ property, ts: new Date(now - 600_000), name: "pageview", path: "/pricing", visitor_id: "late-1" }),
        event({ property, ts: new Date(now - 300_000), name: "signup", path: "/signup", visitor_id: "late-1" }),
      ]);
      expect(await check()).toBe(before);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("DuckDB's memory beside the timelines", () => {
  itRun("gives way past the timelines' share, down to a floor, and comes back when they go", async () => {
    const MiB = 2 ** 20;
    expect(duckDbRoom(1e9, 100 * MiB, 400 * MiB)).toBe(1e9);
    expect(duckDbRoom(1e9, 600 * MiB, 400 * MiB)).toBe(1e9 - 200 * MiB);
    expect(duckDbRoom(1e9, 2000 * MiB, 400 * MiB)).toBe(512 * MiB);
    expect(duckDbRoom(300 * MiB, 2000 * MiB, 400 * MiB)).toBe(300 * MiB);
    const limit = (s: DuckDbEventStore) =>
      s.query<{ m: string }>({ sql: "SELECT current_setting('memory_limit') AS m", params: {} }).then((r) => r[0]?.m);
    const duck = await openDuckDbEventStore(join(dir, "memory.duckdb"), {
      rollupDelayMs: 0,
      memoryLimit: "1000MiB",
      timelineMemoryShare: 0,
      timelines: { minEvents: 0, awaitBuild: true },
    });
    try {
      expect(await limit(duck)).toBe("1000.0 MiB");
      await duck.append(rowsFor("tl-memory", 40, 200));
      await duck.sync();
      expect(await duck.buildTimeline("tl-memory")).toBe(true);
      // The limit less what the timeline holds (a few KB), in whole MiB; all of it once the timeline goes.
      await expect.poll(() => limit(duck)).toBe("999.0 MiB");
      await duck.deleteProperty("tl-memory");
      await expect.poll(() => limit(duck)).toBe("1000.0 MiB");
    } finally {
      await duck.close();
    }
  });
});
