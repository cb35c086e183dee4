import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { eventRow, type EventRow } from "@lookout/schema";
import { allDdl } from "../packages/storage/src/events/ddl.js";
import { appendEvents } from "../packages/storage/src/events/duckdb-append.js";
import { rollupBatches } from "../packages/storage/src/events/duckdb-rollup.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const dir = mkdtempSync(join(tmpdir(), "ab-"));
const inst = await DuckDBInstance.create(join(dir, "e.duckdb"), { checkpoint_threshold: "256MB", ...(process.env.T ? { threads: process.env.T } : {}) });
const c = await inst.connect();
for (const d of allDdl("duckdb")) await c.run(d);
let n = 0;
function rows(B: number): EventRow[] {
  const out: EventRow[] = [];
  for (let i = 0; i < B; i++) {
    n++;
    out.push(eventRow({ property: "prop1", ts: new Date(), visitor_id: `v${n}`, session_id: `s${n}`, client_id: `c${n}`, hostname: "bench.test", path: ["/", "/a", "/b"][n % 3]!, url: "https://bench.test/", browser: "Chrome", os: "Windows", device: "desktop", country: "US" }));
  }
  return out;
}
const app = await c.createAppender("events");
const times = new Map<string, number>();
const timed = new Proxy(c, { get(t, k) {
  if (k === "run") return async (sql: string, p?: unknown) => {
    for (const st of sql.split(";\n")) { const s = performance.now(); await t.run(st); const key = st.slice(0, 60); times.set(key, (times.get(key) ?? 0) + performance.now() - s); }
  };
  const v = (t as any)[k]; return typeof v === "function" ? v.bind(t) : v;
} }) as DuckDBConnection;
const PRE = Number(process.env.PRE ?? 200000), B = Number(process.env.B ?? 2300), K = Number(process.env.K ?? 10);
let b = 0n;
for (let i = 0; i < PRE; i += 10000) { await c.run("BEGIN"); appendEvents(app, rows(10000), ++b, () => 1n); app.flushSync(); await c.run("COMMIT"); }
await c.run("BEGIN"); await rollupBatches(c, 0n, b); await c.run("COMMIT");
let total = 0; let cpu = 0;
for (let k = 0; k < K; k++) {
  const from = b;
  await c.run("BEGIN"); appendEvents(app, rows(B), ++b, () => 1n); app.flushSync(); await c.run("COMMIT");
  const s = performance.now(); const cu = process.cpuUsage();
  await c.run("BEGIN"); await rollupBatches(process.env.NOTIME ? c : timed, from, b); await c.run("COMMIT");
  total += performance.now() - s; const d = process.cpuUsage(cu); cpu += (d.user + d.system) / 1000;
}
console.log(`rollup of ${B} events over ${PRE}: ${(total / K).toFixed(1)} ms each, cpu ${(cpu / K).toFixed(1)} ms`);
for (const [k, v] of [...times].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / K).toFixed(2).padStart(7), k);
