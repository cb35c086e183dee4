import { DuckDBInstance } from "@duckdb/node-api";
import { eventRow, type EventRow } from "@lookout/schema";
import { allDdl } from "../packages/storage/src/events/ddl.js";
import { appendEvents } from "../packages/storage/src/events/duckdb-append.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const dir = mkdtempSync(join(tmpdir(), "ab-"));
const inst = await DuckDBInstance.create(join(dir, "e.duckdb"), { checkpoint_threshold: "256MB" });
const c = await inst.connect();
for (const d of allDdl("duckdb")) await c.run(d);
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
const app = await c.createAppender("events");
const ph = { begin: 0, convert: 0, flush: 0, commit: 0 };
const K = 300;
for (let k = 0; k < K; k++) {
  const r = rows();
  let s = performance.now();
  await c.run("BEGIN");
  ph.begin += performance.now() - s; s = performance.now();
  appendEvents(app, r, BigInt(k + 1), () => 1n);
  ph.convert += performance.now() - s; s = performance.now();
  app.flushSync();
  ph.flush += performance.now() - s; s = performance.now();
  await c.run("COMMIT");
  ph.commit += performance.now() - s;
}
for (const [k, v] of Object.entries(ph)) console.log(k, (v / K).toFixed(3), "ms/batch");
