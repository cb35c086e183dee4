// Insights benchmark (DESIGN.md §8): one property, 90 days of generated traffic in a file DuckDB,
// and one insight of each kind (bench/insight-set.ts: trends with a breakdown, and compared, a 4-step funnel, an
// 8-period weekly retention grid, daily stickiness and lifecycle, 5-step paths) run through their
// runners as the API does. Budget on the p95: < 300 ms at 10M events, < 3 s at 100M (1M is
// reported, its budget the 10M one). The same set on ClickHouse beside DuckDB:
// bench/clickhouse.bench.ts.
//
//   tsx bench/insights.bench.ts                    1M and 10M events
//   tsx bench/insights.bench.ts --events 1000000 [--runs 20] [--seed 42] [--fresh]
//   tsx bench/insights.bench.ts --events 100M --runs 5  opt-in: the 10M database's events copied ten times
//
// The databases are loaded with rollups deferred and cached under bench/.cache (keyed by size, seed
// and the generator's source); the visit, day and activity rollups a server keeps are then built
// once (timed) and kept in the file. Kinds that read rollups (FROM_ROLLUPS) are also measured from
// events alone (`<kind>_from_events`: what a store without them, or a filtered spec, costs).
// The funnel reads the store's visitor timelines (built once, timed, before the runs: the server
// builds them at startup) and is also measured by SQL alone (`funnel_4_steps_from_events`).
// Writes bench/results/insights.json.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type DuckDbEventStore, openDuckDbEventStore } from "@lookout/storage";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import { type InsightRun, insightRuns } from "./insight-set.js";
import { replicate } from "./replicate.js";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, "..");
const CACHE = join(BENCH, ".cache");
/** Larger sizes are copies of this one's events (opt-in: --events 100M). */
const REPLICATE_BASE = 10_000_000;
const BUDGET_MS: [number, number][] = [
  [10_000_000, 300],
  [100_000_000, 3000],
];

const { values: args } = parseArgs({
  options: {
    events: { type: "string", multiple: true },
    runs: { type: "string", default: "20" },
    seed: { type: "string", default: "42" },
    fresh: { type: "boolean", default: false },
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
const sizes = (args.events as string[] | undefined)?.flatMap((e) => e.split(",")).map(count) ?? [1_000_000, 10_000_000];
const RUNS = Math.max(5, Number(args.runs));
const SEED = Number(args.seed);
const PROPERTY = "bench.example";
const END = new Date("2024-06-01T00:00:00Z");
const CTX = { timezone: "America/New_York", now: new Date(END.getTime() - 1) };
const GEN_HASH = createHash("sha1")
  .update(readFileSync(join(ROOT, "packages/traffic/src/history.ts")))
  .update(readFileSync(join(ROOT, "packages/schema/src/events.ts")))
  .digest("hex")
  .slice(0, 10);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

async function ensureDb(n: number): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const path = join(CACHE, `insights-${n}-${SEED}-${GEN_HASH}.duckdb`);
  if (existsSync(path) && !args.fresh) return path;
  // Loaded under another name and renamed once whole: a load that stops leaves no database that looks cached.
  const tmp = `${path}.loading`;
  for (const f of [path, `${path}.wal`, tmp, `${tmp}.wal`]) rmSync(f, { force: true });
  if (n > REPLICATE_BASE) {
    // Past 10M: the 10M database's events copied in SQL (bench/replicate.ts: new visitors and
    // visits per copy), its visit rollups rebuilt; the insights' rollups are built after.
    const base = await ensureDb(REPLICATE_BASE);
    const copies = Math.ceil(n / REPLICATE_BASE);
    console.log(`replicating ${base} x${copies} -> ${path}`);
    const t0 = performance.now();
    copyFileSync(base, tmp);
    const store = await openDuckDbEventStore(tmp, { rollupDelayMs: 2_000_000_000 });
    await replicate(store, copies);
    await store.rebuildRollups();
    await store.close();
    renameSync(tmp, path);
    console.log(`  replicated and rolled up in ${r1((performance.now() - t0) / 1000)} s`);
    return path;
  }
  console.log(`generating ${n.toLocaleString("en")} events -> ${path}`);
  const t0 = performance.now();
  const store = await openDuckDbEventStore(tmp, { rollupDelayMs: 2_000_000_000 });
  for (const batch of generateEvents({
    property: PROPERTY,
    days: 90,
    visitors: Math.ceil(n / EVENTS_PER_VISITOR),
    seed: SEED,
    end: END,
    maxEvents: n,
    batchSize: 20_000,
  })) {
    await store.append(batch);
  }
  await store.close();
  renameSync(tmp, path);
  console.log(`  loaded in ${r1((performance.now() - t0) / 1000)} s`);
  return path;
}

/**
 * The visit, day and activity rollups a running server keeps (built once per database, timed; kept
 * in the file, so later runs reuse them: a new rollup version makes opening rebuild or drop them).
 */
async function ensureRollups(store: DuckDbEventStore): Promise<{ build_s: number | null; activity_rows: number }> {
  const activityRows = async () =>
    Number((await store.query<{ n: number }>({ sql: "SELECT count(*) AS n FROM activity_rollup", params: {} }))[0]?.n ?? 0);
  const sessions = Number(
    (await store.query<{ n: number }>({ sql: "SELECT count(*) AS n FROM sessions", params: {} }))[0]?.n ?? 0,
  );
  if (sessions > 0 && store.dayRollupThrough?.(PROPERTY, CTX.timezone) !== undefined) {
    return { build_s: null, activity_rows: await activityRows() };
  }
  const t0 = performance.now();
  if (sessions === 0) await store.rebuildRollups();
  await store.buildDayRollups(PROPERTY, CTX.timezone);
  await store.checkpoint();
  const build_s = r1((performance.now() - t0) / 1000);
  const activity_rows = await activityRows();
  console.log(`  rollups built in ${build_s} s (${activity_rows.toLocaleString("en")} activity rows)`);
  return { build_s, activity_rows };
}

/** Kinds that read rollups where they can: also measured from events alone. */
const FROM_ROLLUPS = new Set([
  "trends_breakdown",
  "trends_compared",
  "trends_plain",
  "retention_8_periods",
  "stickiness",
  "lifecycle",
  "paths_5_steps",
]);

const results: Record<string, unknown> = {};
// The process's resident memory, sampled every 50 ms (DESIGN.md §8: under 2 GB at peak), reset per size.
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
for (const n of sizes) {
  const path = await ensureDb(n);
  const store = await openDuckDbEventStore(path, { rollupDelayMs: 2_000_000_000 });
  const rollups = await ensureRollups(store);
  peakRss = 0;
  const t1 = performance.now();
  const timeline = await store.buildTimeline(PROPERTY);
  const timelines = {
    built: timeline,
    build_s: r1((performance.now() - t1) / 1000),
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
  console.log(
    `  visitor timeline ${timeline ? "built" : "not built"} in ${timelines.build_s} s (process RSS ${timelines.rss_mb} MB)`,
  );
  // The same store without its timelines: funnels by SQL alone.
  const sqlOnly = { ...store, funnelFromTimelines: undefined, retentionFromTimelines: undefined };
  const budget = BUDGET_MS.find(([size]) => n <= size)?.[1] ?? null;
  const raw = insightRuns(sqlOnly, PROPERTY, { ...CTX, dayRollups: false })
    .filter(([name]) => FROM_ROLLUPS.has(name) || name === "funnel_4_steps")
    .map(([name, run]): [string, InsightRun] => [`${name}_from_events`, run]);
  const kinds = [...insightRuns(store, PROPERTY, CTX), ...raw];
  const entry: Record<string, unknown> = { rollups, timelines };
  let within = true;
  for (const [name, run] of kinds) {
    const times: number[] = [];
    let rows = 0;
    let failed: string | null = null;
    for (let i = 0; i < RUNS + 2 && failed === null; i++) {
      const t0 = performance.now();
      try {
        rows = (await run()).rows;
      } catch (err) {
        // A kind over the store's query time limit is a figure too: recorded, and the others still run.
        failed = err instanceof Error ? err.message : String(err);
        break;
      }
      const ms = performance.now() - t0;
      if (i >= 2) times.push(ms); // two warm-up runs
    }
    if (failed !== null) {
      entry[name] = { error: failed, budget_ms: budget };
      // The `_from_events` rows are what a store without rollups or timelines would cost: reported, not judged.
      if (!name.endsWith("_from_events")) within = false;
      console.log(`insights ${n.toLocaleString("en")} events: ${name} failed: ${failed}`);
      continue;
    }
    const p95 = r1(pct(times, 95));
    entry[name] = { p50_ms: r1(pct(times, 50)), p95_ms: p95, results: rows, budget_ms: budget };
    if (!name.endsWith("_from_events")) within &&= budget === null || p95 < budget;
    console.log(
      `insights ${n.toLocaleString("en")} events: ${name} p50 ${r1(pct(times, 50))} ms, p95 ${p95} ms (budget ${budget} ms)`,
    );
  }
  await store.close();
  // From the timeline's read on (the loads and rollup builds before it are the bench's own set-up).
  entry.peak_rss_mb = mib(peakRss);
  console.log(`  peak RSS from the timeline's read on: ${entry.peak_rss_mb} MB`);
  results[String(n)] = { ...entry, within_budget: within };
}
clearInterval(sampler);
mkdirSync(join(BENCH, "results"), { recursive: true });
writeFileSync(
  join(BENCH, "results", "insights.json"),
  `${JSON.stringify({ runs: RUNS, seed: SEED, sizes: results }, null, 2)}\n`,
);
