// Rollup benchmark: the cost of keeping the visit rollups up to date (duckdb-rollup.ts) under
// steady traffic whose visits last as long as real ones, on the embedded store in-process (no
// HTTP, no load generator beside it: the step alone, and steadier than the collector bench). The
// collector bench's visits last seconds; here `--active` visitors browse at once, each sending an
// event every `--gap` seconds on average for visits of `--events-per-visit` events on average
// (pageviews over 20 pages, engagement pings, now and then a signup), so a visit lasts minutes and
// each rollup step touches visits that began long before it. One step per simulated second of
// traffic (`--rate` events), after `--warm` seconds of it; reports the step's time and its cost
// per event. The collector's budget (DESIGN.md §8: an event on the dashboard within 1 s) needs a
// step of one second of traffic to take well under a second. Writes bench/results/rollup.json.
//   tsx bench/rollup.bench.ts [--rate 2000] [--active 20000] [--events-per-visit 60] [--warm 300] [--measure 20]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type EventRow, eventRow } from "@lookout/schema";
import { openDuckDbEventStore } from "../packages/storage/src/events/duckdb-store.js";
import { prng } from "../packages/traffic/src/history.js";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string", default: "2000" },
    active: { type: "string", default: "20000" },
    "events-per-visit": { type: "string", default: "60" },
    warm: { type: "string", default: "300" },
    measure: { type: "string", default: "20" },
  },
  allowPositionals: true,
  strict: false,
});
const RATE = Number(args.rate);
const ACTIVE = Number(args.active);
const PER_VISIT = Number(args["events-per-visit"]);
const WARM = Number(args.warm);
const MEASURE = Number(args.measure);
const property = "bench-rollup";
const r = prng(11);

interface Visitor {
  id: string;
  left: number;
  page: string;
}
let made = 0;
const newVisitor = (): Visitor => ({ id: `v${made++}`, left: 1 + Math.floor(r() * 2 * PER_VISIT), page: "" });
const visitors = Array.from({ length: ACTIVE }, newVisitor);
const UAS = [
  ["Chrome", "Windows", "desktop"],
  ["Safari", "iOS", "mobile"],
  ["Firefox", "Linux", "desktop"],
];

/** The next event of a random active visitor; a visitor whose visit ends makes room for a new one. */
function nextEvent(ts: number): EventRow {
  const slot = Math.floor(r() * ACTIVE);
  let v = visitors[slot] as Visitor;
  if (v.left === 0) visitors[slot] = v = newVisitor();
  v.left--;
  let name = "pageview";
  if (v.page !== "" && r() < 0.5) name = "engagement";
  else if (v.page !== "" && r() < 0.05) name = "signup";
  else v.page = `/page-${Math.floor(r() ** 2 * 20)}`;
  const [browser, os, device] = UAS[made % UAS.length] as string[];
  return eventRow({
    property,
    ts: new Date(ts),
    name,
    path: v.page,
    url: `https://bench.test${v.page}`,
    hostname: "bench.test",
    visitor_id: v.id,
    session_id: `s-${v.id}`,
    client_id: v.id,
    country: "US",
    browser,
    os,
    device,
    engaged_ms: name === "engagement" ? 5000 : 0,
  });
}

const dir = mkdtempSync(join(tmpdir(), "lookout-bench-rollup-"));
// Rollups only when asked (sync), as the server's store does them after its appends.
const store = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 2_000_000_000 });
try {
  let ts = Date.now() - (WARM + MEASURE + 60) * 1000;
  const steps: number[] = [];
  for (let s = 0; s < WARM + MEASURE; s++) {
    const batch: EventRow[] = [];
    for (let i = 0; i < RATE; i++) batch.push(nextEvent(ts + Math.floor((i * 1000) / RATE)));
    ts += 1000;
    await store.append(batch);
    const t = performance.now();
    await store.sync();
    if (s >= WARM) steps.push(performance.now() - t);
  }
  steps.sort((a, b) => a - b);
  const mean = steps.reduce((a, b) => a + b, 0) / steps.length;
  const at = (q: number) => Math.round(steps[Math.min(steps.length - 1, Math.floor(q * steps.length))] as number);
  const result = {
    traffic: {
      events_per_second: RATE,
      active_visitors: ACTIVE,
      events_per_visit: PER_VISIT,
      warm_s: WARM,
      measured_steps: MEASURE,
    },
    events_stored: (WARM + MEASURE) * RATE,
    step_ms: { mean: Math.round(mean), p50: at(0.5), p95: at(0.95), max: Math.round(steps[steps.length - 1] as number) },
    cost_us_per_event: Math.round((mean * 1000) / RATE),
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  const outFile = join(dirname(fileURLToPath(import.meta.url)), "results", "rollup.json");
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `rollup: a step of 1 s of traffic (${RATE} events, ${ACTIVE} visitors browsing) takes ${result.step_ms.p50} ms (p95 ${result.step_ms.p95}), ${result.cost_us_per_event} µs an event -> ${outFile}`,
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
