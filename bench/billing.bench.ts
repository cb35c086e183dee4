// Billing usage benchmark (issue #24: usage "exact and cheap"): the billable-event count of one
// property over 13 billing periods (12 complete and the current one: what the billing page reads
// when nothing is stored yet) and over the current period alone (what every later read and the
// hourly check count), on DuckDB with generated traffic. No DESIGN.md §8 line names it; the
// steady state (the current period: complete periods are counted once and stored) is held to the
// dashboard's budget at 1M events (100 ms p95), since the billing page and the lock check must
// never be slower than the dashboard they sit beside. The 13-period first read is reported.
//
//   tsx bench/billing.bench.ts                  1M events
//   tsx bench/billing.bench.ts --events 10M [--runs 20]
//
// Writes bench/results/billing.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { countBillableEvents, openDuckDbEventStore } from "@lookout/storage";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import { periodsAround } from "../apps/server/src/billing/periods.js";

const BENCH = dirname(fileURLToPath(import.meta.url));
const BUDGET_MS = 100;

const { values: args } = parseArgs({
  options: {
    events: { type: "string", multiple: true },
    runs: { type: "string", default: "20" },
    seed: { type: "string", default: "42" },
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
const SEED = Number(args.seed);
const PROPERTY = "bench.example";
const END = new Date("2024-06-01T00:00:00Z");
const ANCHOR = new Date("2023-01-15T00:00:00Z");

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const r1 = (x: number) => Math.round(x * 10) / 10;
const fmt = (n: number) => n.toLocaleString("en");

async function time(f: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await f();
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await f();
    xs.push(performance.now() - t);
  }
  return { p50_ms: r1(pct(xs, 50)), p95_ms: r1(pct(xs, 95)) };
}

const tmp = mkdtempSync(join(tmpdir(), "lookout-billbench-"));
const results: Record<string, unknown> = {};
try {
  for (const n of sizes) {
    const path = join(tmp, `events-${n}.duckdb`);
    const store = await openDuckDbEventStore(path, { rollupDelayMs: 2_000_000_000 });
    let loaded = 0;
    for (const batch of generateEvents({
      property: PROPERTY,
      days: 90,
      visitors: Math.ceil(n / EVENTS_PER_VISITOR),
      seed: SEED,
      end: END,
      maxEvents: n,
      batchSize: 50_000,
    })) {
      await store.append(batch);
      loaded += batch.length;
    }
    const now = new Date(END.getTime() - 1);
    const { boundaries, current } = periodsAround(ANCHOR, now, 12);
    const all = await countBillableEvents(store, PROPERTY, boundaries);
    const thirteen = await time(() => countBillableEvents(store, PROPERTY, boundaries));
    const currentOnly = await time(() => countBillableEvents(store, PROPERTY, [current.start, current.end]));
    const r = {
      events: loaded,
      billable_in_13_periods: all.reduce((s, x) => s + x, 0),
      count_13_periods: thirteen,
      count_current_period: currentOnly,
      budget_ms: BUDGET_MS,
      within_budget: n <= 1_000_000 ? currentOnly.p95_ms < BUDGET_MS : null,
      load_average: loadavg().map(r1),
    };
    results[String(n)] = r;
    console.log(
      `${fmt(loaded)} events (${fmt(r.billable_in_13_periods)} billable): 13 periods p50/p95 ${thirteen.p50_ms}/${thirteen.p95_ms} ms, ` +
        `current period ${currentOnly.p50_ms}/${currentOnly.p95_ms} ms (budget ${BUDGET_MS} ms at 1M: ${r.within_budget === null ? "not judged" : r.within_budget ? "pass" : "MISS"}); load ${r.load_average.join(" ")}`,
    );
    await store.close();
    rmSync(path, { force: true });
    rmSync(`${path}.wal`, { force: true });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const out = join(BENCH, "results", "billing.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ at: new Date().toISOString(), machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? "", node: process.version }, sizes: results }, null, 2)}\n`,
);
console.log(`-> ${out}`);
