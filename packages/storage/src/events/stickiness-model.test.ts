// runStickiness on every event engine (DuckDB, ClickHouse, each also from its visitor timelines)
// against a plain-TypeScript model of DESIGN.md §4 Stickiness (random traffic across a DST change,
// random specs; on DuckDB also from visitor_activity, whole and up to a random mark), and peers.md §1.4's
// vector (exact n vs n or more), an empty range and a one-event visitor.

import { midnightAtOrBefore } from "@lookout/query";
import { type EventRow, type StickinessAnswer, type StickinessSpecInput, StickinessSpecSchema } from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventReader } from "./event-store.js";
import { event } from "./fixtures.js";
import { runStickiness } from "./stickiness.js";
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

function model(events: EventRow[], input: StickinessSpecInput): StickinessAnswer {
  const spec = StickinessSpecSchema.parse(input);
  const unit = (spec.interval ?? "day") as "day";
  // last_7_days: the 7 local days ending today.
  const today = dateOf(NOW.getTime());
  const [first, last] =
    spec.period === "last_7_days" ? [iso(utcDay(today) - 6 * DAY), today] : ((spec.date ?? "").split(",") as [string, string]);
  const periods = new Set<string>();
  for (let t = utcDay(first); iso(t) <= last; t += DAY) if (iso(t) <= dateOf(NOW.getTime())) periods.add(periodOf(unit, iso(t)));
  const per = new Map<string, Set<string>>();
  for (const e of events) {
    const date = dateOf(e.ts.getTime());
    if (date < first || date > last || e.name !== spec.event.event) continue;
    per.set(e.visitor_id, (per.get(e.visitor_id) ?? new Set()).add(periodOf(unit, date)));
  }
  const counts = [...per.values()].map((s) => s.size);
  const results = Array.from({ length: periods.size }, (_, i) => ({
    intervals: i + 1,
    visitors: counts.filter((c) => (spec.cumulative ? c >= i + 1 : c === i + 1)).length,
  }));
  return { kind: "stickiness", interval: unit, cumulative: spec.cumulative, results };
}

const eventArb = fc.record({
  visitor: fc.integer({ min: 0, max: 6 }),
  minute: fc.integer({ min: 0, max: 22 * 24 * 60 - 1 }),
  name: fc.constantFrom("pageview", "pageview", "signup"),
});
const specArb = fc.record({
  event: fc.constantFrom("pageview", "signup"),
  interval: fc.constantFrom("day", "week", "month"),
  cumulative: fc.boolean(),
  date: fc.constantFrom("2024-03-06,2024-03-12", "2024-03-02,2024-03-10", "2024-03-09,2024-03-20", "last_7_days"),
  /** Where the activity rollups end, in days from T0 (DuckDB). */
  mark: fc.integer({ min: 0, max: 21 }),
});

const ENGINES = await testEngines({ timelines: true });
let run = 0;

describe.each(ENGINES)("runStickiness on $name", (engine) => {
  let store: TestStore;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("stickiness-model");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });
  const skip = engine.skip !== undefined;

  it.skipIf(skip)("agrees with the model on random traffic and specs", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 20, maxLength: 60 }), specArb, async (raw, s) => {
        const property = `st-${++run}`;
        const events = raw.map((r, i) =>
          event({
            property,
            ts: new Date(T0 + r.minute * 60_000),
            name: r.name,
            visitor_id: `v${r.visitor}`,
            session_id: `v${r.visitor}-${i}`,
          }),
        );
        if (events.length > 0) await store.append(events);
        await store.sync();
        const input: StickinessSpecInput = {
          kind: "stickiness",
          ...(s.date === "last_7_days" ? { period: "last_7_days" } : { period: "custom", date: s.date }),
          interval: s.interval as "day",
          event: { event: s.event },
          cumulative: s.cumulative,
        };
        const expected = model(events, input);
        expect(await runStickiness(store, property, input, { timezone: TZ, now: NOW, dayRollups: false })).toEqual(expected);
        if (engine.name.endsWith("-timelines")) {
          const parsed = StickinessSpecSchema.parse(input);
          const viaTimelines = await store.stickinessFromTimelines?.(property, parsed, { timezone: TZ, now: NOW });
          expect(viaTimelines, "answered from the visitor timelines").toEqual(expected);
        }
        // The insights' rollups are DuckDB's (ClickHouse's day rows serve stats only: stats-model.test.ts).
        if (store.dialect !== "duckdb" || !store.buildDayRollups || events.length === 0) return;
        // From each visitor's activity days (DuckDB), whole or up to a mark anywhere in the range
        // (the rest from events): the same answer.
        await store.buildDayRollups(property, TZ);
        for (const through of [store.dayRollupThrough?.(property, TZ), midnightAtOrBefore(TZ, T0 + s.mark * DAY)]) {
          const capped: EventReader = { ...store, dayRollupThrough: () => through };
          expect(await runStickiness(capped, property, input, { timezone: TZ, now: NOW })).toEqual(expected);
        }
      }),
      { numRuns: 40 },
    );
  });

  it.skipIf(skip)(
    "peers.md §1.4: active on days 1, 3, 4 of 7 (one 23-hour DST day among them) is n = 3; cumulative 1, 2, 3",
    async () => {
      const property = `st-${++run}`;
      await store.append(
        [
          "2024-03-06T15:00:00Z",
          "2024-03-08T15:00:00Z",
          "2024-03-09T15:00:00Z",
          "2024-03-09T16:00:00Z",
          "2024-03-20T15:00:00Z",
        ].map((at, i) =>
          event({ property, ts: new Date(at), name: "pageview", visitor_id: i === 4 ? "late" : "u", session_id: `s${i}` }),
        ),
      );
      await store.sync();
      const spec = (cumulative: boolean): StickinessSpecInput => ({
        kind: "stickiness",
        period: "custom",
        date: "2024-03-06,2024-03-12",
        interval: "day",
        event: { event: "pageview" },
        cumulative,
      });
      const ctx = { timezone: TZ, now: NOW };
      expect((await runStickiness(store, property, spec(false), ctx)).results.map((r) => r.visitors)).toEqual([
        0, 0, 1, 0, 0, 0, 0,
      ]);
      expect((await runStickiness(store, property, spec(true), ctx)).results.map((r) => r.visitors)).toEqual([
        1, 1, 1, 0, 0, 0, 0,
      ]);
      const empty = await runStickiness(store, "st-none", spec(false), ctx);
      expect(empty.results.every((r) => r.visitors === 0)).toBe(true);
    },
  );
});
