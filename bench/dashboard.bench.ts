// Dashboard benchmark (DESIGN.md §8): loads N generated events (90 days, one property) into a
// file DuckDB through EventStore.append — rollups and all, as the collector would — then times the
// whole dashboard set (bench/dashboard-set.ts) fired in parallel, and prints p50/p95 of the total.
// Results merge into bench/results/dashboard.json keyed by event count.
//
//   npx tsx bench/dashboard.bench.ts --events 1000000 [--runs 30] [--db /path/to.duckdb] [--keep]
//
// --db reuses a database already loaded with the same --events (loading 10M takes minutes).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openDuckDbEventStore, runStats } from "@lookout/storage";
import { dashboardSpecs } from "./dashboard-set.js";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";

const BUDGET_MS: [number, number][] = [
  [1_000_000, 100],
  [10_000_000, 300],
  [100_000_000, 2000],
];

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "1000000" },
    runs: { type: "string", default: "30" },
    db: { type: "string" },
    keep: { type: "boolean", default: false },
    seed: { type: "string", default: "42" },
  },
});
const N = Number(args.events);
const RUNS = Number(args.runs);
const PROPERTY = "bench.example";
const END = new Date("2024-06-01T00:00:00Z");
const ctx = { timezone: "America/New_York", now: new Date(END.getTime() - 1) };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

const dir = args.db ? dirname(args.db) : mkdtempSync(join(tmpdir(), "lookout-bench-"));
const dbPath = args.db ?? join(dir, "events.duckdb");
const reuse = args.db !== undefined && existsSync(dbPath);
mkdirSync(dir, { recursive: true });

let store = await openDuckDbEventStore(dbPath);
let load: { seconds: number; eventsPerSecond: number } | null = null;
if (!reuse) {
  const t0 = performance.now();
  let n = 0;
  const visitors = Math.ceil(N / EVENTS_PER_VISITOR);
  for (const batch of generateEvents({
    property: PROPERTY,
    days: 90,
    visitors,
    seed: Number(args.seed),
    end: END,
    maxEvents: N,
    batchSize: 20_000,
  })) {
    await store.append(batch);
    n += batch.length;
    if (n % 1_000_000 < batch.length) process.stdout.write(`  loaded ${n.toLocaleString("en")} events\r`);
  }
  const seconds = (performance.now() - t0) / 1000;
  load = { seconds: r1(seconds), eventsPerSecond: Math.round(n / seconds) };
  console.log(
    `loaded ${n.toLocaleString("en")} events in ${r1(seconds)} s (${load.eventsPerSecond.toLocaleString("en")} events/s, rollups included)`,
  );
  // Measure what a long-running server sees: data checkpointed, a fresh process.
  await store.close();
  store = await openDuckDbEventStore(dbPath);
}

const specs = dashboardSpecs(PROPERTY);
const entries = Object.entries(specs);
const dashboard = () => Promise.all(entries.map(([, spec]) => runStats(store, spec, ctx)));

// Warm-up: the first run pays for loading column segments from disk.
await dashboard();
await dashboard();

// One query at a time, to see where the time goes.
const perQuery: Record<string, number> = {};
for (const [name, spec] of entries) {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await runStats(store, spec, ctx);
    times.push(performance.now() - t);
  }
  perQuery[name] = r1(pct(times, 50));
}

const totals: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  await dashboard();
  totals.push(performance.now() - t);
}
const top = (await runStats(store, specs.top_stats as never, ctx)) as Record<string, { value: number }>;
const budget = BUDGET_MS.find(([n]) => N <= n)?.[1] ?? null;
const result = {
  events: N,
  queries: entries.length,
  runs: RUNS,
  p50_ms: r1(pct(totals, 50)),
  p95_ms: r1(pct(totals, 95)),
  budget_ms: budget,
  within_budget: budget === null ? null : pct(totals, 95) < budget,
  sequential_ms: r1(Object.values(perQuery).reduce((a, b) => a + b, 0)),
  per_query_p50_ms: perQuery,
  load,
  visitors: top.visitors?.value,
  visits: top.visits?.value,
  rss_mb: Math.round(process.memoryUsage().rss / 1e6),
  at: new Date().toISOString(),
};
console.log(JSON.stringify(result, null, 2));

const out = join(dirname(fileURLToPath(import.meta.url)), "results", "dashboard.json");
mkdirSync(dirname(out), { recursive: true });
const previous = existsSync(out) ? (JSON.parse(readFileSync(out, "utf8")) as { runs?: Record<string, unknown> }) : {};
writeFileSync(out, `${JSON.stringify({ runs: { ...(previous.runs ?? {}), [String(N)]: result } }, null, 2)}\n`);
console.log(`dashboard total: p50 ${result.p50_ms} ms, p95 ${result.p95_ms} ms (budget ${budget ?? "-"} ms) -> ${out}`);

await store.close();
if (!args.keep && !args.db) rmSync(dir, { recursive: true, force: true });
