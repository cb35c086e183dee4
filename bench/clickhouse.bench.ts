// ClickHouse dashboard benchmark (DESIGN.md §8, issue #22): the same generated traffic loaded into
// ClickHouse (one node on this machine) and DuckDB in the same run, and the whole dashboard set
// (bench/dashboard-set.ts) fired in parallel on each, side by side. Budget: ClickHouse's p95 of the
// whole set under 1 s at 10M events (reported at every size; judged at 10M and above).
//
//   tsx bench/clickhouse.bench.ts                         1M events
//   tsx bench/clickhouse.bench.ts --events 10M [--runs 20] [--insight-runs 5] [--seed 42] [--no-insights] [--live-days 2]
//
// With --live-days N, ClickHouse's dashboard (and each insight kind, unless --no-insights) is measured once more at the end with the data's last
// N UTC days read from visit states (the live part of a running server's reads): a late event of a
// new visit in the Nth-last day unsettles that day and every day after it. Each timed run then
// follows a new visit's event in that day (appended outside the timing), so the reads' shared live
// parts run again in every run, as on a site with traffic (storage's clickhouse-live-rows.ts).
//
// ClickHouse: CLICKHOUSE_URL when set (a database `bench_<size>` is dropped and filled), else a
// clickhouse-server of its own in a temporary directory (Debian's 18.16, as the tests start it).
// DuckDB: a fresh file, loaded with rollups deferred and rebuilt once (the dashboard bench's
// "bulk"). Both get the events in the same batches. Then each insight kind (bench/insight-set.ts,
// the insights bench's specs) alone on each engine, --insight-runs times after a warm-up, with its
// answers compared between the engines (budget: each under 1 s at 10M on ClickHouse; a kind past
// an engine's query time limit is recorded as such), after both stores' visitor timelines are
// built (timed). Writes bench/results/clickhouse.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { EventRow } from "@lookout/schema";
import { type EventStore, openClickHouseEventStore, openDuckDbEventStore, runStats } from "@lookout/storage";
import { type ClickHouseServer, startClickHouse } from "@lookout/storage/test-services";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import { dashboardSpecs } from "./dashboard-set.js";
import { insightRuns } from "./insight-set.js";

const BENCH = dirname(fileURLToPath(import.meta.url));
const BUDGET_MS = 1000;
const JUDGED_FROM = 10_000_000;

const { values: args } = parseArgs({
  options: {
    events: { type: "string", multiple: true },
    runs: { type: "string", default: "20" },
    "insight-runs": { type: "string", default: "5" },
    "no-insights": { type: "boolean", default: false },
    seed: { type: "string", default: "42" },
    // The dashboard measured again with the data's last N UTC days live (0: not).
    "live-days": { type: "string", default: "0" },
  },
  allowPositionals: true,
  strict: false, // npm run bench passes every argument to every benchmark
});

function count(s: string): number {
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)([kKmM]?)$/.exec(s.trim().replace(/_/g, ""));
  if (!m) throw new Error(`--events: not a count: ${s}`);
  const mult = m[2] === "" ? 1 : m[2]?.toLowerCase() === "k" ? 1e3 : 1e6;
  return Math.round(Number(m[1]) * mult);
}
const sizes = (args.events as string[] | undefined)?.flatMap((e) => e.split(",")).map(count) ?? [1_000_000];
const RUNS = Math.max(5, Number(args.runs));
const INSIGHT_RUNS = Math.max(1, Number(args["insight-runs"]));
const SEED = Number(args.seed);
const LIVE_DAYS = Math.max(0, Math.floor(Number(args["live-days"])));
const PROPERTY = "bench.example";
const END = new Date("2024-06-01T00:00:00Z");
const CTX = { timezone: "America/New_York", now: new Date(END.getTime() - 1) };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const r1 = (x: number) => Math.round(x * 10) / 10;
const fmt = (n: number) => n.toLocaleString("en");

/**
 * The dashboard set: 3 warm-up runs, each query alone, then RUNS timed sets. `before` runs ahead of
 * every run, outside the timing (the live case: a new event, so that the shared live parts are
 * computed again in each run, as on a site with traffic: clickhouse-live-rows.ts).
 */
async function measure(store: EventStore, before: () => Promise<void> = async () => {}) {
  const entries = Object.entries(dashboardSpecs(PROPERTY));
  const dashboard = () => Promise.all(entries.map(([, spec]) => runStats(store, spec, CTX)));
  for (let i = 0; i < 3; i++) await dashboard();
  const perQuery: Record<string, number> = {};
  for (const [name, spec] of entries) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      await before();
      const t = performance.now();
      await runStats(store, spec, CTX);
      times.push(performance.now() - t);
    }
    perQuery[name] = r1(pct(times, 50));
  }
  const totals: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await before();
    const t = performance.now();
    await dashboard();
    totals.push(performance.now() - t);
  }
  const top = (await runStats(store, entries[0]?.[1] as never, CTX)) as Record<string, { value: number }>;
  return {
    p50_ms: r1(pct(totals, 50)),
    p95_ms: r1(pct(totals, 95)),
    per_query_p50_ms: perQuery,
    visitors: top.visitors?.value ?? 0,
    visits: top.visits?.value ?? 0,
    pageviews: top.pageviews?.value ?? 0,
  };
}

/** Numbers equal to 9 significant digits (the engines sum floats in different orders), the rest exactly. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number")
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return same(ka, kb) && ka.every((k) => same(ra[k], rb[k]));
  }
  return a === b;
}

type InsightFigure = { p50_ms: number; p95_ms: number; rows: number; answer: unknown } | { error: string };

/**
 * Each insight kind alone: one warm-up run, then INSIGHT_RUNS timed; an error (a time limit) is the
 * figure. `before` runs ahead of every run, outside the timing (the live case, as `measure`'s).
 */
async function measureInsights(
  store: EventStore,
  before: () => Promise<void> = async () => {},
): Promise<Record<string, InsightFigure>> {
  const out: Record<string, InsightFigure> = {};
  for (const [name, run] of insightRuns(store, PROPERTY, CTX)) {
    const times: number[] = [];
    let last: { answer: unknown; rows: number } | undefined;
    try {
      for (let i = 0; i <= INSIGHT_RUNS; i++) {
        await before();
        const t = performance.now();
        last = await run();
        if (i > 0) times.push(performance.now() - t);
      }
      out[name] = { p50_ms: r1(pct(times, 50)), p95_ms: r1(pct(times, 95)), rows: last?.rows ?? 0, answer: last?.answer };
    } catch (err) {
      out[name] = { error: err instanceof Error ? err.message : String(err) };
    }
  }
  return out;
}

let own: ClickHouseServer | undefined;
const base = process.env.CLICKHOUSE_URL ? new URL(process.env.CLICKHOUSE_URL).origin : (own = await startClickHouse()).url;
const tmp = mkdtempSync(join(tmpdir(), "lookout-chbench-"));
const results: Record<string, unknown> = {};
try {
  for (const n of sizes) {
    const database = `bench_${n}`;
    await fetch(base, { method: "POST", body: `DROP DATABASE IF EXISTS ${database}` });
    // The timelines' clock at the data's end, as a server would run: the last two days are the
    // fresh part every funnel and grid reads again.
    const ch = await openClickHouseEventStore(`${base}/${database}`, {
      queryTimeoutMs: 120_000,
      settleEveryMs: 0,
      now: () => CTX.now.getTime(),
    });
    const duckPath = join(tmp, `events-${n}.duckdb`);
    const duck = await openDuckDbEventStore(duckPath, { rollupDelayMs: 2_000_000_000 });
    const load = { clickhouse: 0, duckdb: 0 };
    let done = 0;
    let lastRow: EventRow | undefined;
    for (const batch of generateEvents({
      property: PROPERTY,
      days: 90,
      visitors: Math.ceil(n / EVENTS_PER_VISITOR),
      seed: SEED,
      end: END,
      maxEvents: n,
      batchSize: 50_000,
    })) {
      let t = performance.now();
      await ch.append(batch);
      load.clickhouse += performance.now() - t;
      t = performance.now();
      await duck.append(batch);
      load.duckdb += performance.now() - t;
      done += batch.length;
      lastRow = batch[batch.length - 1] ?? lastRow;
      if (done % 1_000_000 < batch.length) process.stdout.write(`  loaded ${fmt(done)} events\r`);
    }
    // ClickHouse settles the visits of days that are over (its store does it every few minutes;
    // all 90 days here at once), as DuckDB rebuilds its rollups.
    let t = performance.now();
    const settledDays = await ch.settle();
    const settleMs = performance.now() - t;
    console.log(`  ClickHouse settled ${settledDays} days in ${fmt(Math.round(settleMs))} ms`);
    t = performance.now();
    await duck.rebuildRollups();
    load.duckdb += performance.now() - t;
    // Each engine's day rows for the dashboard's property and timezone (a server asks for every
    // property's at startup; ClickHouse then fills each settled batch as it settles it).
    const dayRowsMs = { clickhouse: 0, duckdb: 0 };
    for (const [name, store] of [
      ["clickhouse", ch],
      ["duckdb", duck],
    ] as const) {
      const t1 = performance.now();
      await store.buildDayRollups(PROPERTY, CTX.timezone);
      dayRowsMs[name] = Math.round(performance.now() - t1);
    }
    console.log(`  day rows filled in ${JSON.stringify(dayRowsMs)} ms`);
    process.stdout.write("\n");
    t = performance.now();
    const chm = await measure(ch);
    const duckm = await measure(duck);
    const insights: Record<string, unknown> = {};
    const timelines: Record<string, number> = {};
    if (!args["no-insights"]) {
      // The visitor timelines funnels and grids read (a server builds them when first asked).
      for (const [name, store] of [
        ["clickhouse", ch],
        ["duckdb", duck],
      ] as const) {
        const t1 = performance.now();
        if (!(await store.buildTimeline(PROPERTY))) throw new Error(`${name}: no visitor timeline`);
        timelines[`${name}_build_ms`] = Math.round(performance.now() - t1);
      }
      console.log(`  visitor timelines built: ${JSON.stringify(timelines)}`);
      const chi = await measureInsights(ch);
      const duci = await measureInsights(duck);
      for (const [name, c] of Object.entries(chi)) {
        const k = duci[name] as InsightFigure;
        const figure = (f: InsightFigure) => ("error" in f ? f : { p50_ms: f.p50_ms, p95_ms: f.p95_ms, rows: f.rows });
        const both = !("error" in c) && !("error" in k);
        insights[name] = {
          clickhouse: figure(c),
          duckdb: figure(k),
          same_answers: both ? same(c.answer, k.answer) : null,
          within_budget: n >= JUDGED_FROM ? !("error" in c) && c.p95_ms < BUDGET_MS : null,
        };
        console.log(
          `${fmt(n)} events: ${name} ClickHouse ${"error" in c ? c.error : `${c.p50_ms}/${c.p95_ms} ms`}, ` +
            `DuckDB ${"error" in k ? k.error : `${k.p50_ms}/${k.p95_ms} ms`}; same answers: ${both ? same(c.answer, k.answer) : "-"}`,
        );
      }
    }
    const judged = n >= JUDGED_FROM;
    let live: Record<string, unknown> | null = null;
    if (LIVE_DAYS > 0 && lastRow) {
      // One late event of a new visit, as a backlog delivered after an outage brings: its day and
      // every later one are read from visit states until the next settle run (clickhouse-settle.ts).
      // A running server has one such day (today), two in the first 35 minutes after midnight.
      const lastDay = Math.floor((END.getTime() - 1) / 86_400_000);
      const ts = new Date((lastDay - (LIVE_DAYS - 1)) * 86_400_000 + 12 * 3_600_000);
      const ids = { session_id: "bench-late", visitor_id: "bench-late", client_id: "bench-late" };
      await ch.append([{ ...lastRow, ...ids, ts }]);
      // Before each timed run, a new visit's event on the last day: the live parts run again.
      let k = 0;
      const arrive = async () => {
        k++;
        const id = `bench-live-${k}`;
        const at = new Date(Math.min(END.getTime() - 1, ts.getTime() + k * 1000));
        await ch.append([{ ...(lastRow as EventRow), session_id: id, visitor_id: id, client_id: id, ts: at }]);
      };
      const m = await measure(ch, arrive);
      live = { live_days: LIVE_DAYS, ...m, within_budget: judged ? m.p95_ms < BUDGET_MS : null };
      console.log(`  ClickHouse with the last ${LIVE_DAYS} days live: dashboard p50/p95 ${m.p50_ms}/${m.p95_ms} ms`);
      if (!args["no-insights"]) {
        // Each insight kind as a running server answers it: the live days from visit states and
        // events, a new visit before each run. No DuckDB answer to compare (it has not the new events).
        const kinds: Record<string, unknown> = {};
        for (const [name, f] of Object.entries(await measureInsights(ch, arrive))) {
          const ok = !("error" in f);
          kinds[name] = ok ? { p50_ms: f.p50_ms, p95_ms: f.p95_ms, rows: f.rows } : f;
          if (judged) (kinds[name] as Record<string, unknown>).within_budget = ok && f.p95_ms < BUDGET_MS;
          console.log(
            `  ClickHouse with the last ${LIVE_DAYS} days live: ${name} ${ok ? `${f.p50_ms}/${f.p95_ms} ms` : f.error}`,
          );
        }
        live.insights = kinds;
      }
    }
    const r = {
      events: done,
      clickhouse_settle_ms: Math.round(settleMs),
      day_rows_fill_ms: dayRowsMs,
      clickhouse_live: live,
      timelines,
      load_events_per_second: {
        clickhouse: Math.round(done / (load.clickhouse / 1000)),
        duckdb_bulk_with_rollup_rebuild: Math.round(done / (load.duckdb / 1000)),
      },
      clickhouse: chm,
      duckdb: duckm,
      insights,
      budget_ms: BUDGET_MS,
      within_budget: judged ? chm.p95_ms < BUDGET_MS : null,
      same_numbers: chm.visitors === duckm.visitors && chm.visits === duckm.visits && chm.pageviews === duckm.pageviews,
      load_average: loadavg().map(r1),
    };
    results[String(n)] = r;
    console.log(
      `${fmt(done)} events: dashboard p50/p95 ClickHouse ${chm.p50_ms}/${chm.p95_ms} ms, DuckDB ${duckm.p50_ms}/${duckm.p95_ms} ms ` +
        `(ClickHouse budget ${BUDGET_MS} ms ${judged ? (r.within_budget ? "pass" : "MISS") : "judged from 10M"}); ` +
        `same top numbers: ${r.same_numbers}; load ${fmt(r.load_events_per_second.clickhouse)} ev/s ClickHouse, ` +
        `${fmt(r.load_events_per_second.duckdb_bulk_with_rollup_rebuild)} ev/s DuckDB`,
    );
    await ch.close();
    await duck.close();
    rmSync(duckPath, { force: true });
    rmSync(`${duckPath}.wal`, { force: true });
  }
} finally {
  await own?.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const out = join(BENCH, "results", "clickhouse.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? "", node: process.version },
      clickhouse: own ? "own clickhouse-server (Debian 18.16)" : "CLICKHOUSE_URL",
      budget_rule:
        "p95 of the whole dashboard set fired in parallel, and of each insight kind alone, ClickHouse under 1 s at 10M events",
      sizes: results,
    },
    null,
    2,
  )}\n`,
);
console.log(`-> ${out}`);
