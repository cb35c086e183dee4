// runStats on every engine (DuckDB, ClickHouse) over a handful of hand-built visits, with every expected number worked
// out by hand from DESIGN.md §4:
//   bounce          a visit with one pageview and no custom event (engagement/pageleave are not)
//   visit_duration  last event minus first event, averaged over all visits (a bounce counts 0 s)
//   time_on_page    engagement pings' engaged_ms / pageviews
//   conversions     distinct visitors with a visit in which the goal event happened
// The property's timezone is America/New_York (EDT, UTC-4, all of May); times below are UTC.
import { type EventRow, METRICS, type QuerySpecInput } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopClickHouseCluster } from "../test-services.js";
import { at, event } from "./fixtures.js";
import { type AggregateResult, type BreakdownRow, runStats, type StatsContext, type TimeseriesPoint } from "./stats.js";
import { type TestStore, testEngines } from "./test-engines.js";

const P = "stats.example";
const TZ = "America/New_York";
const CTX: StatsContext = { timezone: TZ, now: at("2024-05-15 16:00:00") };
/** Friday 10 May to Tuesday 14 May, local days; its previous period is 5–9 May. */
const RANGE = { preset: "custom", from: "2024-05-10", to: "2024-05-14" } as const;

type Step = [utc: string, name: string, path: string, extra?: Partial<EventRow>];
function visit(visitor: string, session: string, attrs: Partial<EventRow>, steps: Step[]): EventRow[] {
  return steps.map(([ts, name, path, extra]) =>
    event({
      property: P,
      ts: at(ts),
      name,
      path,
      visitor_id: visitor,
      session_id: session,
      client_id: visitor,
      ...attrs,
      ...extra,
    }),
  );
}

const google = { referrer_source: "Google", referrer: "https://www.google.com/", channel: "search" };
const FIXTURE: EventRow[] = [
  // A1 — Fri 10:00 local. 2 pageviews, 1 custom event (signup), 180 s, engaged 30 s + 60 s.
  ...visit("vA", "A1", { ...google, country: "US", device: "desktop", browser: "Chrome" }, [
    ["2024-05-10 14:00:00", "pageview", "/"],
    ["2024-05-10 14:00:30", "engagement", "/", { engaged_ms: 30_000 }],
    ["2024-05-10 14:01:00", "pageview", "/pricing"],
    ["2024-05-10 14:02:00", "engagement", "/pricing", { engaged_ms: 60_000 }],
    ["2024-05-10 14:02:10", "signup", "/pricing", { props: { plan: "pro" } }],
    ["2024-05-10 14:03:00", "pageleave", "/pricing"],
  ]),
  // A2 — Sun 09:00 local, direct. A bounce: 1 pageview, 0 s.
  ...visit("vA", "A2", { country: "US", device: "desktop", browser: "Chrome" }, [["2024-05-12 13:00:00", "pageview", "/"]]),
  // B1 — Fri 23:50 local (Sat 03:50 UTC), running past local midnight: it counts on Friday.
  // 2 pageviews, 940 s, engaged 20 s + 40 s.
  ...visit(
    "vB",
    "B1",
    {
      referrer_source: "Twitter",
      referrer: "https://t.co/",
      channel: "social",
      country: "DE",
      device: "mobile",
      browser: "Safari",
    },
    [
      ["2024-05-11 03:50:00", "pageview", "/blog/a"],
      ["2024-05-11 03:50:20", "engagement", "/blog/a", { engaged_ms: 20_000 }],
      ["2024-05-11 04:05:00", "pageview", "/"],
      ["2024-05-11 04:05:40", "engagement", "/", { engaged_ms: 40_000 }],
    ],
  ),
  // C1 — Mon 15:00 local. 1 pageview + a purchase: not a bounce. 45 s, engaged 45 s.
  ...visit("vC", "C1", { ...google, country: "FR", device: "mobile", browser: "Safari" }, [
    ["2024-05-13 19:00:00", "pageview", "/pricing"],
    ["2024-05-13 19:00:05", "purchase", "/pricing", { revenue: 49, props: { plan: "team" } }],
    ["2024-05-13 19:00:45", "engagement", "/pricing", { engaged_ms: 45_000 }],
  ]),
  // C2 — Tue 08:00 local. 1 pageview + an engagement ping: still a bounce. 10 s, engaged 10 s.
  ...visit("vC", "C2", { ...google, country: "FR", device: "mobile", browser: "Safari" }, [
    ["2024-05-14 12:00:00", "pageview", "/"],
    ["2024-05-14 12:00:10", "engagement", "/", { engaged_ms: 10_000 }],
  ]),
  // Outside the range by minutes, on either side (Thu 23:50 local and Wed 00:10 local).
  ...visit("vD", "D0", { country: "US" }, [["2024-05-10 03:50:00", "pageview", "/"]]),
  ...visit("vD", "D1", { country: "US" }, [["2024-05-15 04:10:00", "pageview", "/"]]),
  // E1 — Mon 6 May (previous period): 2 pageviews, 60 s.
  ...visit("vE", "E1", { country: "GB" }, [
    ["2024-05-06 16:00:00", "pageview", "/"],
    ["2024-05-06 16:01:00", "pageview", "/pricing"],
  ]),
  // F1 — a year earlier (Fri 12 May 2023).
  ...visit("vF", "F1", { country: "US" }, [["2023-05-12 16:00:00", "pageview", "/"]]),
];

let store: TestStore;
// The settled read on ClickHouse runs here on the half-settled cluster (its live half is the plain
// cluster's read); the single half-settled node runs the random model suite (stats-model.test.ts).
const ENGINES = (await testEngines({ cluster: true, settled: true })).filter((e) => e.name !== "clickhouse-settled");
// The two-shard cluster testEngines started: stopped once every engine's stores are closed.
afterAll(() => stopClickHouseCluster());
// The same cases on every engine (DESIGN.md §1: one suite, every adapter).
describe.each(ENGINES)("on $name", (engine) => {
  if (engine.skip) {
    it.skip(engine.skip, () => {});
    return;
  }
  beforeAll(async () => {
    if (engine.skip) return;
    store = await engine.open("stats");
    // Two appends, the second out of order, plus another property's copy that must never count.
    const half = Math.floor(FIXTURE.length / 2);
    await store.append(FIXTURE.slice(half).reverse());
    await store.append(FIXTURE.slice(0, half));
    await store.append(FIXTURE.map((e) => ({ ...e, property: "other.example" })));
    await store.sync();
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });

  /** Whether the queries below may read day rollups (set per pass, see the end of the file). */
  const mode = { dayRollups: false };
  const run = (spec: QuerySpecInput, ctx: StatsContext) => runStats(store, spec, { ...ctx, dayRollups: mode.dayRollups });
  const aggregate = async (spec: Partial<QuerySpecInput>, ctx: StatsContext = CTX) =>
    (await run({ kind: "aggregate", property: P, date_range: RANGE, ...spec }, ctx)) as AggregateResult;
  const valuesOf = (r: AggregateResult) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v?.value]));
  const values = async (spec: Partial<QuerySpecInput>) => valuesOf(await aggregate(spec));
  const breakdown = async (dimension: string, metrics: QuerySpecInput["metrics"], spec: Partial<QuerySpecInput> = {}) =>
    (await run(
      { kind: "breakdown", property: P, date_range: RANGE, dimensions: [dimension], metrics, ...spec } as QuerySpecInput,
      CTX,
    )) as BreakdownRow[];
  const series = async (spec: Partial<QuerySpecInput>, ctx: StatsContext = CTX) =>
    (await run({ kind: "timeseries", property: P, date_range: RANGE, ...spec }, ctx)) as TimeseriesPoint[];

  // Every case runs twice: from the visit rollups, then with day rollups built for both
  // timezones it uses (duckdb-day-rollup.ts), which unfiltered queries then read whole days from.
  for (const dayRollups of [false, true]) {
    // An engine without day rollups declares it (its `cannot` record): that pass is skipped, with the reason.
    const cannot = dayRollups ? engine.cannot.dayRollups : undefined;
    describe.skipIf(cannot !== undefined)(
      dayRollups ? `with day rollups${cannot ? ` (${engine.name} cannot: ${cannot})` : ""}` : "from visit rollups",
      () => {
        beforeAll(async () => {
          mode.dayRollups = dayRollups;
          if (dayRollups) for (const tz of [TZ, "UTC"]) await store.buildDayRollups?.(P, tz);
        });

        describe("aggregate", () => {
          it("computes every metric exactly", async () => {
            expect(
              await values({
                metrics: [...METRICS],
                goal: "signup",
              }),
            ).toEqual({
              visitors: 3, // A, B, C
              visits: 5, // A1 A2 B1 C1 C2
              pageviews: 7, // 2 + 1 + 2 + 1 + 1
              views_per_visit: 1.4,
              bounce_rate: 40, // A2, C2
              visit_duration: 235, // (180 + 0 + 940 + 45 + 10) / 5
              events: 2, // signup, purchase
              conversions: 1, // A
              conversion_rate: 33.3, // 1 / 3
              time_on_page: 29, // 205 s engaged / 7 pageviews = 29.29 s
            });
            expect(await values({ metrics: ["conversions", "conversion_rate"], goal: "purchase" })).toEqual({
              conversions: 1,
              conversion_rate: 33.3,
            });
            expect(await values({ metrics: ["conversions"], goal: "never-happened" })).toEqual({ conversions: 0 });
          });

          it("compares with the previous period: values, comparison values and change in %", async () => {
            const r = await aggregate({
              metrics: ["visitors", "visits", "pageviews", "bounce_rate", "visit_duration"],
              comparison: "previous_period",
            });
            // Previous period, 5–9 May local: E1 (2 pageviews, 60 s) and D0 (Thu 23:50 local, a bounce).
            expect(r).toEqual({
              visitors: { value: 3, comparison: 2, change: 50 },
              visits: { value: 5, comparison: 2, change: 150 },
              pageviews: { value: 7, comparison: 3, change: 133.3 },
              bounce_rate: { value: 40, comparison: 50, change: -20 },
              visit_duration: { value: 235, comparison: 30, change: 683.3 },
            });
          });

          it("compares year over year", async () => {
            const r = await aggregate({ metrics: ["visitors", "pageviews"], comparison: "year_over_year" });
            expect(r).toEqual({
              visitors: { value: 3, comparison: 1, change: 200 },
              pageviews: { value: 7, comparison: 1, change: 600 },
            });
          });

          it("a running period compares with the same elapsed stretch of the previous one", async () => {
            // Today = Tue 14 May. At 10:00 local, yesterday until 10:00 had nothing (C1 was at 15:00).
            const morning = await aggregate(
              { date_range: { preset: "today" }, comparison: "previous_period", metrics: ["visitors"] },
              {
                ...CTX,
                now: at("2024-05-14 14:00:00"),
              },
            );
            expect(morning).toEqual({ visitors: { value: 1, comparison: 0, change: null } });
            // At 16:00 local it had C1.
            const afternoon = await aggregate(
              { date_range: { preset: "today" }, comparison: "previous_period", metrics: ["visitors"] },
              { ...CTX, now: at("2024-05-14 20:00:00") },
            );
            expect(afternoon).toEqual({ visitors: { value: 1, comparison: 1, change: 0 } });
          });

          it("counts an event at 23:50 local on the local day", async () => {
            // Fri 10 May local holds A1 and B1 (Sat 03:50 UTC), not D0 (Fri 03:50 UTC = Thu local).
            const fri = { date_range: { preset: "custom", from: "2024-05-10", to: "2024-05-10" } } as const;
            expect(await values({ ...fri, metrics: ["visitors", "visits", "pageviews"] })).toEqual({
              visitors: 2,
              visits: 2,
              pageviews: 4,
            });
            const sat = { date_range: { preset: "custom", from: "2024-05-11", to: "2024-05-11" } } as const;
            expect(await values({ ...sat, metrics: ["visitors", "visits", "pageviews"] })).toEqual({
              visitors: 0,
              visits: 0,
              pageviews: 0,
            });
            // In UTC the same data falls differently: Fri 10 May UTC has D0 and A1.
            const utc = await run(
              { kind: "aggregate", property: P, ...fri, metrics: ["visitors", "visits"] },
              { ...CTX, timezone: "UTC" },
            );
            expect(valuesOf(utc as AggregateResult)).toEqual({ visitors: 2, visits: 2 });
          });
        });

        describe("filters", () => {
          const m = ["visitors", "visits", "pageviews"] as QuerySpecInput["metrics"];
          const cases: [string, QuerySpecInput["filters"], Record<string, number>][] = [
            ["country is US", [{ dimension: "country", op: "is", values: ["US"] }], { visitors: 1, visits: 2, pageviews: 3 }],
            [
              "country is US or DE",
              [{ dimension: "country", op: "is", values: ["US", "DE"] }],
              { visitors: 2, visits: 3, pageviews: 5 },
            ],
            [
              "country is_not US",
              [{ dimension: "country", op: "is_not", values: ["US"] }],
              { visitors: 2, visits: 3, pageviews: 4 },
            ],
            [
              "channel contains SOC",
              [{ dimension: "channel", op: "contains", values: ["SOC"] }],
              { visitors: 1, visits: 1, pageviews: 2 },
            ],
            [
              "source not_contains goo",
              [{ dimension: "source", op: "not_contains", values: ["goo"] }],
              { visitors: 2, visits: 2, pageviews: 3 },
            ],
            [
              "browser matches ^Saf",
              [{ dimension: "browser", op: "matches", values: ["^Saf"] }],
              { visitors: 2, visits: 3, pageviews: 4 },
            ],
            // Page filters keep the visits that viewed a matching page; pageviews count matching pages only.
            [
              "page is /pricing",
              [{ dimension: "page", op: "is", values: ["/pricing"] }],
              { visitors: 2, visits: 2, pageviews: 2 },
            ],
            [
              "page contains PRIC",
              [{ dimension: "page", op: "contains", values: ["PRIC"] }],
              { visitors: 2, visits: 2, pageviews: 2 },
            ],
            [
              "page matches ^/(blog|pricing)",
              [{ dimension: "page", op: "matches", values: ["^/(blog|pricing)"] }],
              { visitors: 3, visits: 3, pageviews: 3 },
            ],
            // Negative page filters keep the visits with no matching page, and all their pageviews.
            [
              "page is_not /pricing",
              [{ dimension: "page", op: "is_not", values: ["/pricing"] }],
              { visitors: 3, visits: 3, pageviews: 4 },
            ],
            [
              "page not_contains blog",
              [{ dimension: "page", op: "not_contains", values: ["blog"] }],
              { visitors: 2, visits: 4, pageviews: 5 },
            ],
            // Positive page filters all hold for one page: A1 viewed / and /pricing, no page is both.
            [
              "page is / and page contains pric",
              [
                { dimension: "page", op: "is", values: ["/"] },
                { dimension: "page", op: "contains", values: ["pric"] },
              ],
              { visitors: 0, visits: 0, pageviews: 0 },
            ],
            [
              "page contains pric and page matches ^/pr",
              [
                { dimension: "page", op: "contains", values: ["pric"] },
                { dimension: "page", op: "matches", values: ["^/pr"] },
              ],
              { visitors: 2, visits: 2, pageviews: 2 },
            ],
            [
              "event_name is signup",
              [{ dimension: "event_name", op: "is", values: ["signup"] }],
              { visitors: 1, visits: 1, pageviews: 2 },
            ],
            [
              "event_name is_not signup",
              [{ dimension: "event_name", op: "is_not", values: ["signup"] }],
              { visitors: 3, visits: 4, pageviews: 5 },
            ],
            [
              "prop:plan is team",
              [{ dimension: "prop:plan", op: "is", values: ["team"] }],
              { visitors: 1, visits: 1, pageviews: 1 },
            ],
            [
              "prop:plan is_not team",
              [{ dimension: "prop:plan", op: "is_not", values: ["team"] }],
              { visitors: 3, visits: 4, pageviews: 6 },
            ],
            [
              "prop:plan matches ^t",
              [{ dimension: "prop:plan", op: "matches", values: ["^t"] }],
              { visitors: 1, visits: 1, pageviews: 1 },
            ],
            [
              "source is Google and page is /",
              [
                { dimension: "source", op: "is", values: ["Google"] },
                { dimension: "page", op: "is", values: ["/"] },
              ],
              { visitors: 2, visits: 2, pageviews: 2 },
            ],
            [
              "device is mobile and event_name is_not purchase",
              [
                { dimension: "device", op: "is", values: ["mobile"] },
                { dimension: "event_name", op: "is_not", values: ["purchase"] },
              ],
              { visitors: 2, visits: 2, pageviews: 3 },
            ],
          ];
          for (const [name, filters, want] of cases) {
            it(name, async () => {
              expect(await values({ metrics: m, filters })).toEqual(want);
            });
          }

          it("two page filters keep the same visits whether or not pageviews are asked for", async () => {
            // Without a pageview metric the visits are kept by semi-joins, not by the matching pages' join.
            const filters: QuerySpecInput["filters"] = [
              { dimension: "page", op: "is", values: ["/"] },
              { dimension: "page", op: "contains", values: ["pric"] },
            ];
            expect(await values({ metrics: ["visitors", "visits", "visit_duration"], filters })).toEqual({
              visitors: 0,
              visits: 0,
              visit_duration: 0,
            });
          });

          it("events count only the matching custom events; time on page only the matching pages", async () => {
            expect(
              await values({ metrics: ["events"], filters: [{ dimension: "event_name", op: "is", values: ["signup"] }] }),
            ).toEqual({
              events: 1,
            });
            expect(
              await values({ metrics: ["events"], filters: [{ dimension: "prop:plan", op: "is_not", values: ["team"] }] }),
            ).toEqual({
              events: 1,
            });
            // /pricing: A1 60 s, C1 45 s over 2 pageviews = 52.5 s.
            expect(
              await values({
                metrics: ["time_on_page", "bounce_rate"],
                filters: [{ dimension: "page", op: "is", values: ["/pricing"] }],
              }),
            ).toEqual({ time_on_page: 53, bounce_rate: 0 });
          });

          it("conversions within a filter", async () => {
            expect(
              await values({
                metrics: ["visitors", "conversions", "conversion_rate"],
                goal: "purchase",
                filters: [{ dimension: "device", op: "is", values: ["mobile"] }],
              }),
            ).toEqual({ visitors: 2, conversions: 1, conversion_rate: 50 });
          });
        });

        describe("breakdown", () => {
          it("by a session dimension (source), ordered by visitors then value", async () => {
            expect(await breakdown("source", ["visitors", "visits", "bounce_rate", "visit_duration"])).toEqual([
              { source: "Google", visitors: 2, visits: 3, bounce_rate: 33.3, visit_duration: 78 },
              { source: "", visitors: 1, visits: 1, bounce_rate: 100, visit_duration: 0 },
              { source: "Twitter", visitors: 1, visits: 1, bounce_rate: 0, visit_duration: 940 },
            ]);
          });

          it("by country and device, with order, limit and offset", async () => {
            expect(await breakdown("country", ["visitors", "visits"])).toEqual([
              { country: "DE", visitors: 1, visits: 1 },
              { country: "FR", visitors: 1, visits: 2 },
              { country: "US", visitors: 1, visits: 2 },
            ]);
            expect(await breakdown("country", ["visits"], { order: { by: "visits", direction: "asc" }, limit: 2 })).toEqual([
              { country: "DE", visits: 1 },
              { country: "FR", visits: 2 },
            ]);
            expect(
              await breakdown("country", ["visitors"], { order: { by: "dimension", direction: "desc" }, offset: 1 }),
            ).toEqual([
              { country: "FR", visitors: 1 },
              { country: "DE", visitors: 1 },
            ]);
            expect(await breakdown("device", ["visitors", "pageviews"])).toEqual([
              { device: "mobile", visitors: 2, pageviews: 4 },
              { device: "desktop", visitors: 1, pageviews: 3 },
            ]);
          });

          it("by page: visitors, pageviews, time on page and bounce rate of the visits that viewed it", async () => {
            expect(await breakdown("page", ["visitors", "visits", "pageviews", "time_on_page", "bounce_rate"])).toEqual([
              { page: "/", visitors: 3, visits: 4, pageviews: 4, time_on_page: 20, bounce_rate: 50 },
              { page: "/pricing", visitors: 2, visits: 2, pageviews: 2, time_on_page: 53, bounce_rate: 0 },
              { page: "/blog/a", visitors: 1, visits: 1, pageviews: 1, time_on_page: 20, bounce_rate: 0 },
            ]);
          });

          it("by page with page filters: matching pages only", async () => {
            expect(
              await breakdown("page", ["visitors", "pageviews"], {
                filters: [{ dimension: "page", op: "contains", values: ["/"] }],
              }),
            ).toEqual([
              { page: "/", visitors: 3, pageviews: 4 },
              { page: "/pricing", visitors: 2, pageviews: 2 },
              { page: "/blog/a", visitors: 1, pageviews: 1 },
            ]);
            expect(
              await breakdown("page", ["visitors", "pageviews"], {
                filters: [{ dimension: "page", op: "is_not", values: ["/pricing"] }],
              }),
            ).toEqual([
              { page: "/", visitors: 3, pageviews: 3 },
              { page: "/blog/a", visitors: 1, pageviews: 1 },
            ]);
          });

          it("by entry and exit page", async () => {
            expect(await breakdown("entry_page", ["visitors", "visits", "bounce_rate"])).toEqual([
              { entry_page: "/", visitors: 2, visits: 3, bounce_rate: 66.7 },
              { entry_page: "/blog/a", visitors: 1, visits: 1, bounce_rate: 0 },
              { entry_page: "/pricing", visitors: 1, visits: 1, bounce_rate: 0 },
            ]);
            expect(await breakdown("exit_page", ["visitors", "visits"])).toEqual([
              { exit_page: "/", visitors: 3, visits: 3 },
              { exit_page: "/pricing", visitors: 2, visits: 2 },
            ]);
          });

          it("by event name", async () => {
            expect(await breakdown("event_name", ["visitors", "events", "pageviews"])).toEqual([
              { event_name: "purchase", visitors: 1, events: 1, pageviews: 1 },
              { event_name: "signup", visitors: 1, events: 1, pageviews: 2 },
            ]);
            expect(
              await breakdown("event_name", ["visitors", "events"], {
                filters: [{ dimension: "prop:plan", op: "is", values: ["pro"] }],
              }),
            ).toEqual([{ event_name: "signup", visitors: 1, events: 1 }]);
          });

          it("by a custom event prop", async () => {
            expect(await breakdown("prop:plan", ["visitors", "events", "visit_duration"])).toEqual([
              { "prop:plan": "pro", visitors: 1, events: 1, visit_duration: 180 },
              { "prop:plan": "team", visitors: 1, events: 1, visit_duration: 45 },
            ]);
            expect(await breakdown("prop:nope", ["visitors"])).toEqual([]);
          });

          it("with conversions", async () => {
            expect(await breakdown("source", ["visitors", "conversions", "conversion_rate"], { goal: "signup" })).toEqual([
              { source: "Google", visitors: 2, conversions: 1, conversion_rate: 50 },
              { source: "", visitors: 1, conversions: 0, conversion_rate: 0 },
              { source: "Twitter", visitors: 1, conversions: 0, conversion_rate: 0 },
            ]);
            expect(await breakdown("page", ["visitors", "conversions", "conversion_rate"], { goal: "signup" })).toEqual([
              { page: "/", visitors: 3, conversions: 1, conversion_rate: 33.3 },
              { page: "/pricing", visitors: 2, conversions: 1, conversion_rate: 50 },
              { page: "/blog/a", visitors: 1, conversions: 0, conversion_rate: 0 },
            ]);
          });
        });

        describe("goals", () => {
          // In range: vA (A1: /, /pricing, signup; A2: /), vB (B1: /blog/a, /), vC (C1: /pricing,
          // purchase; C2: /). 3 visitors; D0 (Thu 23:50 local) is out of range.
          const GOALS = [
            { kind: "event", name: "Signed up", match: "signup" },
            { kind: "event", name: "purchase", match: "purchase" },
            { kind: "event", name: "Never", match: "never" },
            { kind: "page", name: "Visit /pricing", match: "/pricing" },
            { kind: "page", name: "Blog post", match: "/blog/*" },
            { kind: "page", name: "Top level", match: "/*" },
            { kind: "page", name: "Any page", match: "/**" },
            { kind: "page", name: "Docs", match: "/docs/**" },
          ] as const;
          const goals = async (spec: Partial<QuerySpecInput> = {}) =>
            (await run(
              {
                kind: "goals",
                property: P,
                date_range: RANGE,
                metrics: ["visitors", "events", "conversion_rate"],
                goals: [...GOALS],
                ...spec,
              } as QuerySpecInput,
              CTX,
            )) as BreakdownRow[];

          it("every goal: unique conversions, total conversions, rate over all visitors; ordered by visitors, then name", async () => {
            expect(await goals()).toEqual([
              { goal: "Any page", visitors: 3, events: 7, conversion_rate: 100 },
              // "/*" stays within one segment: every pageview but /blog/a.
              { goal: "Top level", visitors: 3, events: 6, conversion_rate: 100 },
              { goal: "Visit /pricing", visitors: 2, events: 2, conversion_rate: 66.7 },
              { goal: "Blog post", visitors: 1, events: 1, conversion_rate: 33.3 },
              { goal: "Signed up", visitors: 1, events: 1, conversion_rate: 33.3 },
              { goal: "purchase", visitors: 1, events: 1, conversion_rate: 33.3 },
              { goal: "Docs", visitors: 0, events: 0, conversion_rate: 0 },
              { goal: "Never", visitors: 0, events: 0, conversion_rate: 0 },
            ]);
          });

          it("filters keep whole visits; a goal counts its matching events in them, over the visitors they keep", async () => {
            expect(await goals({ filters: [{ dimension: "country", op: "is", values: ["US"] }], limit: 3 })).toEqual([
              { goal: "Any page", visitors: 1, events: 3, conversion_rate: 100 },
              { goal: "Signed up", visitors: 1, events: 1, conversion_rate: 100 },
              { goal: "Top level", visitors: 1, events: 3, conversion_rate: 100 },
            ]);
            // The visits that viewed /blog/a: B1 only; both of its pageviews convert "Any page".
            expect(await goals({ filters: [{ dimension: "page", op: "is", values: ["/blog/a"] }], limit: 2 })).toEqual([
              { goal: "Any page", visitors: 1, events: 2, conversion_rate: 100 },
              { goal: "Blog post", visitors: 1, events: 1, conversion_rate: 100 },
            ]);
          });

          it("orders by name and pages", async () => {
            const rows = await goals({ metrics: ["events"], order: { by: "dimension", direction: "asc" }, limit: 2, offset: 1 });
            expect(rows).toEqual([
              { goal: "Blog post", events: 1 },
              { goal: "Docs", events: 0 },
            ]);
          });

          it("answers no rows without goals, and never counts another property's events", async () => {
            expect(await goals({ goals: [] })).toEqual([]);
            const other = (await run(
              { kind: "goals", property: "nobody.example", date_range: RANGE, goals: [...GOALS] } as QuerySpecInput,
              CTX,
            )) as BreakdownRow[];
            expect(other.every((r) => r.visitors === 0)).toBe(true);
          });
        });

        describe("timeseries", () => {
          it("by local day, every bucket present, a visit on the day it started", async () => {
            expect(await series({ interval: "day", metrics: ["visitors", "visits", "pageviews"] })).toEqual([
              { date: "2024-05-10", visitors: 2, visits: 2, pageviews: 4 },
              { date: "2024-05-11", visitors: 0, visits: 0, pageviews: 0 },
              { date: "2024-05-12", visitors: 1, visits: 1, pageviews: 1 },
              { date: "2024-05-13", visitors: 1, visits: 1, pageviews: 1 },
              { date: "2024-05-14", visitors: 1, visits: 1, pageviews: 1 },
            ]);
          });

          it("by week: a visitor counts once per bucket", async () => {
            expect(await series({ interval: "week", metrics: ["visitors", "visits"] })).toEqual([
              { date: "2024-05-06", visitors: 2, visits: 3 },
              { date: "2024-05-13", visitors: 1, visits: 2 },
            ]);
            expect(await series({ interval: "month", metrics: ["visitors", "visits"] })).toEqual([
              { date: "2024-05-01", visitors: 3, visits: 5 },
            ]);
          });

          it("by local hour", async () => {
            const fri = await series({
              date_range: { preset: "custom", from: "2024-05-10", to: "2024-05-10" },
              interval: "hour",
              metrics: ["visitors"],
            });
            expect(fri).toHaveLength(24);
            expect(fri.filter((x) => x.visitors)).toEqual([
              { date: "2024-05-10 10:00:00", visitors: 1 },
              { date: "2024-05-10 23:00:00", visitors: 1 },
            ]);
          });

          it("with a comparison aligned by position", async () => {
            const s = await series({ interval: "day", metrics: ["visitors", "pageviews"], comparison: "previous_period" });
            expect(s.map((x) => [x.date, x.visitors, x.comparison])).toEqual([
              ["2024-05-10", 2, { date: "2024-05-05", visitors: 0, pageviews: 0 }],
              ["2024-05-11", 0, { date: "2024-05-06", visitors: 1, pageviews: 2 }],
              ["2024-05-12", 1, { date: "2024-05-07", visitors: 0, pageviews: 0 }],
              ["2024-05-13", 1, { date: "2024-05-08", visitors: 0, pageviews: 0 }],
              ["2024-05-14", 1, { date: "2024-05-09", visitors: 1, pageviews: 1 }],
            ]);
          });

          it("adds up to the aggregate", async () => {
            const days = await series({ interval: "day", metrics: ["visits", "pageviews", "events"] });
            const sum = (k: "visits" | "pageviews" | "events") => days.reduce((s, x) => s + (x[k] ?? 0), 0);
            expect({ visits: sum("visits"), pageviews: sum("pageviews"), events: sum("events") }).toEqual(
              await values({ metrics: ["visits", "pageviews", "events"] }),
            );
          });
        });
      },
    );
  }

  describe("errors", () => {
    it("an engine-invalid regex is a QueryError, not a 500", async () => {
      // Valid for JavaScript and within the schema's bounds, not for RE2 (no control escapes).
      await expect(
        values({ metrics: ["visitors"], filters: [{ dimension: "page", op: "matches", values: ["\\cA"] }] }),
      ).rejects.toThrow(expect.objectContaining({ name: "QueryError", code: "invalid_regex" }));
    });
  });
});
