// Day rollups (duckdb-day-rollup.ts, @lookout/query day-rollup.ts) must give the numbers the visit
// rollups give, and lifecycle, stickiness, trends and retention insights from the activity rollups
// (trends broken down by a visit attribute from the breakdown rollups) those from events: generated traffic over 40 days that span a DST change, queried in four timezones
// (one with a half-hour offset), every dashboard query plus comparisons and partial days, with the
// day rows complete, covering part of the range, and moved back by late events.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { INSIGHT_COMPILERS } from "@lookout/query";
import {
  type InsightSpecInput,
  InsightSpecSchema,
  type PathsSpecInput,
  type QuerySpecInput,
  type RetentionSpecInput,
  type TrendsSpecInput,
} from "@lookout/schema";
import { generateEvents } from "@lookout/traffic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import { event } from "./fixtures.js";
import { runInsight } from "./insights.js";
import { compileFor, runStats } from "./stats.js";

const END = new Date("2024-03-25T00:00:00Z"); // US DST began 2024-03-10, EU on 03-31 (outside)
const NOW = new Date(END.getTime() - 5 * 3_600_000); // mid-day: "today" and the last day are partial
const ZONES = ["UTC", "America/Los_Angeles", "Asia/Tokyo", "Asia/Kolkata"];
const P = "days";
const OTHER = "days-other";

function specs(): Record<string, QuerySpecInput> {
  const last30 = { preset: "last_30_days" } as const;
  const breakdown = (dimension: string, metrics: string[], date_range: QuerySpecInput["date_range"] = last30) =>
    ({ kind: "breakdown", property: P, date_range, dimensions: [dimension], metrics, limit: 1000 }) as QuerySpecInput;
  const all = ["visitors", "visits", "pageviews", "views_per_visit", "bounce_rate", "visit_duration", "events", "time_on_page"];
  return {
    top: { kind: "aggregate", property: P, date_range: last30, comparison: "previous_period", metrics: all as never },
    top_7d_yoy: { kind: "aggregate", property: P, date_range: { preset: "last_7_days" }, comparison: "year_over_year" },
    month_to_date: { kind: "aggregate", property: P, date_range: { preset: "month_to_date" }, comparison: "previous_period" },
    chart: {
      kind: "timeseries",
      property: P,
      date_range: last30,
      interval: "day",
      comparison: "previous_period",
      metrics: ["visitors", "visits", "pageviews", "bounce_rate"],
    },
    chart_week: {
      kind: "timeseries",
      property: P,
      date_range: last30, // starts mid-week: a partial first bucket
      interval: "week",
      comparison: "previous_period",
      metrics: ["visitors", "pageviews", "visit_duration"],
    },
    chart_month: {
      kind: "timeseries",
      property: P,
      date_range: { preset: "custom", from: "2024-02-10", to: "2024-03-24" },
      interval: "month",
      metrics: ["visitors", "visits", "views_per_visit"],
    },
    custom: {
      kind: "aggregate",
      property: P,
      date_range: { preset: "custom", from: "2024-03-05", to: "2024-03-12" },
      metrics: all as never,
    },
    page: breakdown("page", ["visitors", "visits", "pageviews", "bounce_rate", "time_on_page", "events"]),
    entry_page: breakdown("entry_page", ["visitors", "visits", "bounce_rate", "visit_duration"]),
    source: breakdown("source", ["visitors", "visits", "pageviews"]),
    referrer: breakdown("referrer", ["visitors"]),
    country: breakdown("country", ["visitors", "views_per_visit"], { preset: "custom", from: "2024-03-01", to: "2024-03-24" }),
    browser: breakdown("browser", ["visitors", "visit_duration"]),
    event_name: breakdown("event_name", ["visitors", "events", "visits", "pageviews", "bounce_rate"]),
  };
}

const dirs: string[] = [];
let store: DuckDbEventStore;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-days-"));
  dirs.push(dir);
  // Small chunks: visitor_activity's first fill then runs in several passes (2 500 events each).
  store = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0, rebuildChunkEvents: 500 });
  for (const property of [P, OTHER]) {
    for (const batch of generateEvents({
      property,
      days: 40,
      visitors: 1_500,
      seed: property === P ? 11 : 12,
      end: END,
      batchSize: 5_000,
    })) {
      await store.append(batch);
    }
  }
  // Two visits of days, a pageview each half hour, over local midnights: a paths range's start
  // (2024-03-05, every zone), its end (2024-03-13 in Los Angeles, two pageviews into the visit: its
  // path is cut short) and the mark the late events move back (2024-03-15).
  const long = (visitor: string, fromIso: string, days: number) =>
    Array.from({ length: days * 48 }, (_, i) =>
      event({
        property: P,
        ts: new Date(Date.parse(fromIso) + i * 1_800_000),
        visitor_id: visitor,
        session_id: `${visitor}-1`,
        path: ["/", "/pricing", "/docs", "/pricing"][i % 4] as string,
      }),
    );
  await store.append([...long("long-a", "2024-03-04T00:00:00Z", 2), ...long("long-b", "2024-03-13T06:15:00Z", 3)]);
}, 120_000);

afterAll(async () => {
  await store?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every spec, answered with day rollups and without; each pair must be equal. */
async function compare(tz: string, expectDays: boolean): Promise<void> {
  for (const [name, spec] of Object.entries(specs())) {
    const ctx = { timezone: tz, now: NOW };
    const sql = compileFor(store, spec, ctx).sql;
    if (expectDays && name !== "top_7d_yoy") expect(sql, name).toContain("day_rollup");
    const fast = await runStats(store, spec, ctx);
    const plain = await runStats(store, spec, { ...ctx, dayRollups: false });
    expect(fast, `${tz} ${name}`).toEqual(plain);
  }
  // Insights: from the activity rollups as far as the mark (today from events), the same as from
  // events alone.
  const seen = new Set<string>();
  for (const [name, spec] of Object.entries(INSIGHTS)) {
    const ctx = { timezone: tz, now: NOW };
    const parsed = InsightSpecSchema.parse(spec);
    const compiled = INSIGHT_COMPILERS[parsed.kind](parsed as never, P, "duckdb", {
      ...ctx,
      dayRollupThrough: store.dayRollupThrough?.(P, tz),
    });
    if (expectDays)
      expect(JSON.stringify(compiled), name).toMatch(/\b(activity_rollup|visitor_activity|breakdown_rollup|paths_rollup)\b/);
    const fast = await runInsight(store, P, parsed, ctx);
    const plain = await runInsight(store, P, parsed, { ...ctx, dayRollups: false });
    expect(fast, `${tz} ${name}`).toEqual(plain);
    // Each answer has numbers to compare, not only zeros.
    if (plain.kind === "lifecycle") for (const r of plain.results) for (const k of STATUSES) if (r[k] !== 0) seen.add(k);
    if (plain.kind === "trends" && spec.kind === "trends" && spec.breakdown) {
      const other = plain.results.find((r) => r.breakdown_value === "$other");
      expect(other?.total ?? 0, name).toBeGreaterThan(0);
    }
    if (plain.kind === "paths") expect(plain.results.edges.length, name).toBeGreaterThan(10);
    if (plain.kind === "stickiness") expect(plain.results.filter((r) => r.visitors > 0).length, name).toBeGreaterThan(1);
    if (plain.kind === "retention") {
      expect(
        plain.results.cohorts.some((c) => c.values.slice(1).some((x) => x > 0)),
        name,
      ).toBe(true);
    }
  }
  // Every lifecycle status occurs.
  expect([...seen].sort()).toEqual([...STATUSES].sort());
}

const STATUSES = ["new", "returning", "resurrecting", "dormant"] as const;

const TRENDS: Record<string, TrendsSpecInput> = {
  day: {
    kind: "trends",
    period: "last_30_days",
    interval: "day",
    series: [
      { event: "pageview", math: "unique_visitors" },
      { event: "signup", math: "total" },
    ],
  },
  // Today's week straddles the mark: its visitors from both sides, each once.
  week: {
    kind: "trends",
    period: "last_30_days",
    interval: "week",
    series: [
      { event: "pageview", math: "unique_visitors" },
      { event: "pageview", math: "avg_per_visitor" },
    ],
    formula: "A/B",
  },
  month: {
    kind: "trends",
    period: "custom",
    date: "2024-02-10,2024-03-24",
    interval: "month",
    series: [{ event: "pageview", math: "unique_visitors" }],
  },
  // From the breakdown rollups: "$other" holds several values, and today's visitors come from
  // events (the model test, trends-model.test.ts, has visitors with several countries).
  country_day: {
    kind: "trends",
    period: "last_30_days",
    interval: "day",
    series: [
      { event: "pageview", math: "unique_visitors" },
      { event: "signup", math: "total" },
    ],
    breakdown: "country",
    breakdown_limit: 2,
  },
  os_week: {
    kind: "trends",
    period: "last_30_days",
    interval: "week",
    series: [
      { event: "pageview", math: "unique_visitors" },
      { event: "pageview", math: "avg_per_visitor" },
    ],
    breakdown: "os",
    breakdown_limit: 1,
  },
  // A comparison's period reads them too; today's total is cut at the same time yesterday.
  day_compared: {
    kind: "trends",
    period: "last_30_days",
    interval: "day",
    series: [{ event: "pageview", math: "unique_visitors" }],
    comparison: "previous_period",
  },
  country_compared: {
    kind: "trends",
    period: "last_30_days",
    interval: "day",
    series: [{ event: "pageview", math: "avg_per_visitor" }],
    breakdown: "country",
    breakdown_limit: 1,
    comparison: "previous_period",
  },
  browser_month: {
    kind: "trends",
    period: "custom",
    date: "2024-02-10,2024-03-24",
    interval: "month",
    series: [{ event: "pageview", math: "unique_visitors" }],
    breakdown: "browser",
    breakdown_limit: 3,
  },
};

const RETENTIONS: Record<string, RetentionSpecInput> = {
  week: {
    kind: "retention",
    period: "last_30_days",
    start_event: { event: "pageview" },
    return_event: { event: "pageview" },
    period_unit: "week",
    periods: 3,
  },
  day_on_or_after: {
    kind: "retention",
    period: "custom",
    date: "2024-03-10,2024-03-20",
    start_event: { event: "pageview" },
    return_event: { event: "pageview" },
    period_unit: "day",
    periods: 4,
    cumulative: true,
  },
  month: {
    kind: "retention",
    period: "custom",
    date: "2024-02-14,2024-03-24",
    start_event: { event: "pageview" },
    return_event: { event: "pageview" },
    period_unit: "month",
    periods: 1,
  },
};

/** Lifecycle and stickiness of pageviews by day, week (last 30 days) and month (a custom range). */
const BY_UNIT = {
  day: { period: "last_30_days", interval: "day" },
  week: { period: "last_30_days", interval: "week" },
  month: { period: "custom", date: "2024-02-10,2024-03-24", interval: "month" },
} as const;

/**
 * Page paths from the paths rollups: a range to today (today's visitors from events), one that
 * ends days ago (visits over both of its ends are cut), every step count's cut of the same rows.
 */
const PATHS: Record<string, PathsSpecInput> = {
  last_30_days: { kind: "paths", period: "last_30_days", type: "pageview", steps: 5 },
  past_week: { kind: "paths", period: "custom", date: "2024-03-05,2024-03-12", type: "pageview", steps: 3 },
  ten_steps: { kind: "paths", period: "custom", date: "2024-03-01,2024-03-24", type: "pageview", steps: 10 },
};

/** Every insight compared from the activity rollups and from events, by "kind name". */
const INSIGHTS: Record<string, InsightSpecInput> = Object.fromEntries([
  ...Object.entries(BY_UNIT).flatMap(([unit, range]) =>
    (["lifecycle", "stickiness"] as const).map((kind) => [`${kind} ${unit}`, { kind, ...range, event: { event: "pageview" } }]),
  ),
  ...Object.entries(TRENDS).map(([name, spec]) => [`trends ${name}`, spec]),
  ...Object.entries(RETENTIONS).map(([name, spec]) => [`retention ${name}`, spec]),
  ...Object.entries(PATHS).map(([name, spec]) => [`paths ${name}`, spec]),
]);

describe("day rollups", () => {
  it("give the visit rollups' numbers in every timezone", async () => {
    for (const tz of ZONES) {
      expect(store.dayRollupThrough?.(P, tz)).toBeUndefined(); // not built: asked for now
      await store.buildDayRollups(P, tz);
      const through = store.dayRollupThrough?.(P, tz) as number;
      expect(through).toBeGreaterThan(END.getTime()); // every generated day is settled
      await compare(tz, true);
    }
  }, 120_000);

  it("stay exact when late events change old days, and are filled again", async () => {
    const tz = "America/Los_Angeles";
    const before = store.dayRollupThrough?.(P, tz) as number;
    // A new visit ten days back, and two more events in an existing visit five days back.
    const [old] = await store.events(P, { from: new Date(END.getTime() - 5 * 86_400_000), limit: 1 });
    if (!old) throw new Error("no event five days back");
    await store.append([
      event({
        property: P,
        ts: new Date(END.getTime() - 10 * 86_400_000),
        visitor_id: "late",
        session_id: "late-1",
        path: "/late",
      }),
      { ...old, ts: new Date(old.ts.getTime() + 60_000), name: "signup", props: {} },
      // A page more in that visit: its path changes.
      { ...old, ts: new Date(old.ts.getTime() + 30_000), name: "pageview", path: "/late-page", props: {} },
    ]);
    const moved = store.dayRollupThrough?.(P, tz) as number;
    expect(moved).toBeLessThanOrEqual(END.getTime() - 10 * 86_400_000);
    await compare(tz, true); // days after the mark come from the visit rollups
    await store.buildDayRollups(P, tz);
    expect(store.dayRollupThrough?.(P, tz)).toBe(before);
    await compare(tz, true);
    // The other property's marks did not move.
    await store.buildDayRollups(OTHER, tz);
    const other = store.dayRollupThrough?.(OTHER, tz);
    await store.append([
      event({ property: P, ts: new Date(END.getTime() - 20 * 86_400_000), visitor_id: "late2", session_id: "late-2" }),
    ]);
    expect(store.dayRollupThrough?.(OTHER, tz)).toBe(other);
  }, 120_000);

  it("go on filling after a restart from where they were", async () => {
    const tz = "UTC";
    const path = join(dirs[0] as string, "events.duckdb");
    await store.buildDayRollups(OTHER, tz);
    const through = store.dayRollupThrough?.(OTHER, tz) as number;
    expect(through).toBeGreaterThan(END.getTime());
    await store.close();
    // As if the store had been closed since ten days before its mark.
    const db = await DuckDBInstance.create(path);
    const c = await db.connect();
    await c.run(
      "UPDATE day_rollup_state SET through_ms = through_ms - 10 * 86400000 WHERE tz = 'UTC' AND pkey = (SELECT pkey FROM property_keys WHERE property = $p)",
      { p: OTHER },
    );
    c.closeSync();
    db.closeSync();
    store = await openDuckDbEventStore(path, { rollupDelayMs: 0 });
    expect(store.dayRollupThrough?.(OTHER, tz)).toBe(through - 10 * 86_400_000);
    // Nothing asks for the pair: filling resumes on its own.
    const deadline = Date.now() + 20_000;
    while (store.dayRollupThrough?.(OTHER, tz) !== through && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(store.dayRollupThrough?.(OTHER, tz)).toBe(through);
    await compare(tz, true);
  }, 120_000);

  it("are kept across a restart and dropped with their property", async () => {
    const tz = "Asia/Tokyo";
    const path = join(dirs[0] as string, "events.duckdb");
    await store.buildDayRollups(P, tz);
    const through = store.dayRollupThrough?.(P, tz);
    await store.close();
    store = await openDuckDbEventStore(path, { rollupDelayMs: 0 });
    expect(store.dayRollupThrough?.(P, tz)).toBe(through);
    await compare(tz, true);
    await store.deleteProperty(P);
    const left = await store.query<{ n: number }>({
      sql: "SELECT count(*) AS n FROM day_rollup WHERE pkey = (SELECT pkey FROM property_keys WHERE property = $p)",
      params: { p: P },
    });
    expect(left[0]?.n).toBe(0);
    expect(store.dayRollupThrough?.(P, tz)).toBeUndefined();
  }, 120_000);
});
