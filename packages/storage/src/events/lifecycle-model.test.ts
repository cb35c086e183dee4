// runLifecycle on every event engine (DuckDB, ClickHouse, each also from its visitor timelines) against a plain-TypeScript model of
// DESIGN.md §4 Lifecycle (random traffic across a DST change, random specs; on DuckDB also from
// the activity rollups, whole and up to a random mark), and exact numbers on
// hand-built fixtures naming the rule each pins (peers.md §1.5's vector, lifecycle's first period,
// a visitor created before their first chosen event, an empty range, a one-event visitor).

import { midnightAtOrBefore } from "@lookout/query";
import {
  type EventRow,
  type Filter,
  type LifecycleAnswer,
  type LifecycleSpecInput,
  LifecycleSpecSchema,
  parseFilters,
} from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventReader } from "./event-store.js";
import { event } from "./fixtures.js";
import { runLifecycle } from "./lifecycle.js";
import { type TestStore, testEngines } from "./test-engines.js";

const TZ = "America/New_York";
const DAY = 86_400_000;
const T0 = Date.parse("2024-03-01T05:00:00Z");
const NOW = new Date(T0 + 20 * DAY);

const localDate = new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" });
const dateOf = (ms: number) => localDate.format(new Date(ms));
const utcDay = (s: string) => Date.parse(`${s}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
function periodOf(unit: string, date: string): string {
  if (unit === "day") return date;
  if (unit === "month") return `${date.slice(0, 8)}01`;
  const t = utcDay(date);
  return iso(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY);
}
function step(unit: string, label: string, n: number): string {
  if (unit === "day") return iso(utcDay(label) + n * DAY);
  if (unit === "week") return iso(utcDay(label) + 7 * n * DAY);
  const d = new Date(utcDay(label));
  return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
}
function keeps(e: EventRow, f: Filter): boolean {
  const value = f.dimension === "page" ? e.path : f.dimension === "country" ? e.country : "";
  const hit = f.values.some((x) =>
    f.op === "is" || f.op === "is_not" ? value === x : value.toLowerCase().includes(x.toLowerCase()),
  );
  return f.op === "is_not" || f.op === "not_contains" ? !hit : hit;
}

/** DESIGN.md §4 read literally, on the events in memory. */
function model(events: EventRow[], input: LifecycleSpecInput): LifecycleAnswer {
  const spec = LifecycleSpecSchema.parse(input);
  const unit = (spec.interval ?? "day") as "day";
  const [first, last] = (spec.date ?? "").split(",") as [string, string];
  const current = periodOf(unit, dateOf(NOW.getTime()));
  const labels: string[] = [];
  for (let p = periodOf(unit, first); p <= periodOf(unit, last); p = step(unit, p, 1)) labels.push(p);
  const lookback = step(unit, labels[0] as string, -1);
  const filters = [...parseFilters(spec.filters ?? ""), ...parseFilters(spec.event.filters ?? "")];
  const active = new Map<string, Set<string>>();
  const firstEver = new Map<string, number>();
  for (const e of events) {
    const date = dateOf(e.ts.getTime());
    if (date > last) continue;
    firstEver.set(e.visitor_id, Math.min(firstEver.get(e.visitor_id) ?? Number.POSITIVE_INFINITY, e.ts.getTime()));
    if (date >= lookback && e.name === spec.event.event && filters.every((f) => keeps(e, f))) {
      active.set(e.visitor_id, (active.get(e.visitor_id) ?? new Set()).add(periodOf(unit, date)));
    }
  }
  const results = labels
    .filter((l) => l <= current)
    .map((date) => {
      const prev = step(unit, date, -1);
      const pt = { date, new: 0, returning: 0, resurrecting: 0, dormant: 0 };
      for (const [visitor, mine] of active) {
        if (!mine.has(date)) {
          if (mine.has(prev)) pt.dormant -= 1;
        } else if (periodOf(unit, dateOf(firstEver.get(visitor) as number)) === date) pt.new += 1;
        else if (mine.has(prev)) pt.returning += 1;
        else pt.resurrecting += 1;
      }
      return pt;
    });
  return { kind: "lifecycle", interval: unit, results };
}

const eventArb = fc.record({
  visitor: fc.integer({ min: 0, max: 6 }),
  minute: fc.integer({ min: 0, max: 22 * 24 * 60 - 1 }),
  name: fc.constantFrom("pageview", "pageview", "signup"),
  path: fc.constantFrom("/", "/a"),
  country: fc.constantFrom("US", "DE"),
});
const specArb = fc.record({
  event: fc.constantFrom("pageview", "signup"),
  eventFilters: fc.constantFrom("", "page==/a"),
  filters: fc.constantFrom("", "country!=DE"),
  interval: fc.constantFrom("day", "day", "week", "month"),
  date: fc.constantFrom("2024-03-06,2024-03-12", "2024-03-02,2024-03-10", "2024-03-09,2024-03-20"),
  /** Where the activity rollups end, in days from T0 (DuckDB). */
  mark: fc.integer({ min: 0, max: 21 }),
});

const ENGINES = await testEngines({ timelines: true });
let run = 0;

describe.each(ENGINES)("runLifecycle on $name", (engine) => {
  let store: TestStore;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("lifecycle-model");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });
  const skip = engine.skip !== undefined;
  const load = async (rows: { v: string; at: string; name?: string }[]) => {
    const property = `lc-${++run}`;
    const events = rows.map((r, i) =>
      event({ property, ts: new Date(r.at), name: r.name ?? "pageview", visitor_id: r.v, session_id: `${r.v}-${i}` }),
    );
    if (events.length > 0) await store.append(events);
    await store.sync();
    return property;
  };
  const spec = (date: string, extra: Partial<LifecycleSpecInput> = {}): LifecycleSpecInput => ({
    kind: "lifecycle",
    period: "custom",
    date,
    interval: "day",
    event: { event: "pageview" },
    ...extra,
  });
  const rows = (a: LifecycleAnswer) => a.results.map((p) => [p.date, p.new, p.returning, p.resurrecting, p.dormant]);

  it.skipIf(skip)("agrees with the model on random traffic and specs", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 20, maxLength: 60 }), specArb, async (raw, s) => {
        const property = `lc-${++run}`;
        const events = raw.map((r, i) =>
          event({
            property,
            ts: new Date(T0 + r.minute * 60_000),
            name: r.name,
            path: r.path,
            country: r.country,
            visitor_id: `v${r.visitor}`,
            session_id: `v${r.visitor}-${i}`,
          }),
        );
        if (events.length > 0) await store.append(events);
        await store.sync();
        const input = spec(s.date, {
          interval: s.interval as "day",
          event: { event: s.event, ...(s.eventFilters ? { filters: s.eventFilters } : {}) },
          ...(s.filters ? { filters: s.filters } : {}),
        });
        const expected = model(events, input);
        expect(await runLifecycle(store, property, input, { timezone: TZ, now: NOW, dayRollups: false })).toEqual(expected);
        if (engine.name.endsWith("-timelines") && !s.filters) {
          const parsed = LifecycleSpecSchema.parse(input);
          const viaTimelines = await store.lifecycleFromTimelines?.(property, parsed, { timezone: TZ, now: NOW });
          expect(viaTimelines, "answered from the visitor timelines").toEqual(expected);
        }
        // The insights' rollups are DuckDB's (ClickHouse's day rows serve stats only: stats-model.test.ts).
        if (store.dialect !== "duckdb" || !store.buildDayRollups || events.length === 0) return;
        // From the activity rollups (DuckDB), whole or up to a mark anywhere in the range (the
        // rest from events): the same answer. Any earlier mark is one the store could have.
        await store.buildDayRollups(property, TZ);
        const built = store.dayRollupThrough?.(property, TZ);
        expect(built).toBeGreaterThan(NOW.getTime());
        for (const through of [built, midnightAtOrBefore(TZ, T0 + s.mark * DAY)]) {
          const capped: EventReader = { ...store, dayRollupThrough: () => through };
          expect(await runLifecycle(capped, property, input, { timezone: TZ, now: NOW })).toEqual(expected);
        }
      }),
      { numRuns: 50 },
    );
  });

  it.skipIf(skip)("peers.md §1.5: created d1, active d1, d2, d4 over d1..d5 (first period new, dormant negative)", async () => {
    const property = await load([
      { v: "u", at: "2024-03-04T15:00:00Z" },
      { v: "u", at: "2024-03-05T15:00:00Z" },
      { v: "u", at: "2024-03-07T15:00:00Z" },
    ]);
    expect(rows(await runLifecycle(store, property, spec("2024-03-04,2024-03-08"), { timezone: TZ, now: NOW }))).toEqual([
      ["2024-03-04", 1, 0, 0, 0],
      ["2024-03-05", 0, 1, 0, 0],
      ["2024-03-06", 0, 0, 0, -1],
      ["2024-03-07", 0, 0, 1, 0],
      ["2024-03-08", 0, 0, 0, -1],
    ]);
  });

  it.skipIf(skip)(
    "first period: a visitor active the day before the range is returning, then dormant (the lookback)",
    async () => {
      const property = await load([
        { v: "u", at: "2024-03-03T15:00:00Z" },
        { v: "u", at: "2024-03-04T15:00:00Z" },
      ]);
      expect(rows(await runLifecycle(store, property, spec("2024-03-04,2024-03-05"), { timezone: TZ, now: NOW }))).toEqual([
        ["2024-03-04", 0, 1, 0, 0],
        ["2024-03-05", 0, 0, 0, -1],
      ]);
    },
  );

  it.skipIf(skip)("a visitor first seen (any event) before their first chosen event is resurrecting, not new", async () => {
    const property = await load([
      { v: "c", at: "2024-02-20T15:00:00Z", name: "pageview" },
      { v: "c", at: "2024-03-05T15:00:00Z", name: "signup" },
    ]);
    const a = await runLifecycle(store, property, spec("2024-03-04,2024-03-05", { event: { event: "signup" } }), {
      timezone: TZ,
      now: NOW,
    });
    expect(rows(a)).toEqual([
      ["2024-03-04", 0, 0, 0, 0],
      ["2024-03-05", 0, 0, 1, 0],
    ]);
  });

  it.skipIf(skip)("intervals are local days across DST; an empty range is all zeros", async () => {
    // 9 March 23:30 EST = 04:30Z on the 10th: new on the 9th; 11 March 00:30 EDT = 04:30Z: resurrecting on the 11th.
    const property = await load([
      { v: "d", at: "2024-03-10T04:30:00Z" },
      { v: "d", at: "2024-03-11T04:30:00Z" },
    ]);
    expect(rows(await runLifecycle(store, property, spec("2024-03-09,2024-03-11"), { timezone: TZ, now: NOW }))).toEqual([
      ["2024-03-09", 1, 0, 0, 0],
      ["2024-03-10", 0, 0, 0, -1],
      ["2024-03-11", 0, 0, 1, 0],
    ]);
    const empty = await load([]);
    expect(rows(await runLifecycle(store, empty, spec("2024-03-09,2024-03-10"), { timezone: TZ, now: NOW }))).toEqual([
      ["2024-03-09", 0, 0, 0, 0],
      ["2024-03-10", 0, 0, 0, 0],
    ]);
  });
});
