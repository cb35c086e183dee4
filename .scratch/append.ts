import { openDuckDbEventStore } from "@lookout/storage";
import { eventRow, type EventRow } from "@lookout/schema";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const dir = mkdtempSync(join(tmpdir(), "ab-"));
const store = await openDuckDbEventStore(join(dir, "e.duckdb"), { rollupDelayMs: Number(process.env.RD ?? 250) });
await store.migrate();
const B = Number(process.env.B ?? 256);
let n = 0;
function rows(): EventRow[] {
  const out: EventRow[] = [];
  for (let i = 0; i < B; i++) {
    n++;
    out.push(eventRow({ property: "prop1", ts: new Date(), visitor_id: `v${n}`, session_id: `s${n}`, client_id: `c${n}`, hostname: "bench.test", path: ["/", "/a", "/b"][n % 3]!, url: "https://bench.test/", browser: "Chrome", os: "Windows", device: "desktop", country: "US" }));
  }
  return out;
}
const times: number[] = [];
const t0 = performance.now();
for (let k = 0; k < Number(process.env.K ?? 400); k++) {
  const r = rows();
  const s = performance.now();
  await store.append(r);
  times.push(performance.now() - s);
}
const total = performance.now() - t0;
times.sort((a, b) => a - b);
console.log(`batches ${times.length} x ${B}: p50 ${times[times.length >> 1]!.toFixed(2)} p90 ${times[Math.floor(times.length * 0.9)]!.toFixed(2)} p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(2)} ms; ${(n / total * 1000).toFixed(0)} rows/s`);
await store.close();
