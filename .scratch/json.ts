import { DuckDBInstance } from "@duckdb/node-api";
import { eventRow, type EventRow, EVENT_COLUMN_NAMES, EVENT_COLUMNS } from "@lookout/schema";
import { allDdl } from "../packages/storage/src/events/ddl.js";
import { idKey } from "../packages/storage/src/events/hash.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const dir = mkdtempSync(join(tmpdir(), "ab-"));
const inst = await DuckDBInstance.create(join(dir, "e.duckdb"), { checkpoint_threshold: "256MB", threads: process.env.T ?? "2" });
const c = await inst.connect();
for (const d of allDdl("duckdb")) await c.run(d);
const B = Number(process.env.B ?? 256);
let n = 0;
function rows(): EventRow[] {
  const out: EventRow[] = [];
  for (let i = 0; i < B; i++) {
    n++;
    out.push(eventRow({ property: "prop1", ts: new Date(), visitor_id: `v${n}`, session_id: `s${n}`, client_id: `c${n}`, hostname: "bench.test", path: ["/", "/a", "/b"][n % 3]!, url: "https://bench.test/", browser: "Chrome", os: "Windows", device: "desktop", country: "US", props: n % 5 ? {} : { plan: "pro" } }));
  }
  return out;
}
const JT: Record<string, string> = { string: "VARCHAR", timestamp: "BIGINT", uint16: "USMALLINT", float64: "DOUBLE", map: "MAP(VARCHAR, VARCHAR)" };
const struct = `{${EVENT_COLUMN_NAMES.map((c) => `"${c}":"${JT[EVENT_COLUMNS[c]]}"`).join(",")},"vkey":"BIGINT","skey":"BIGINT","pkey":"BIGINT"}`;
const sel = [...EVENT_COLUMN_NAMES.map((c) => EVENT_COLUMNS[c] === "timestamp" ? `make_timestamp(r.${c} * 1000)` : `r.${c}`), "r.vkey", "r.skey", "$b", "r.pkey"].join(", ");
const sql = `INSERT INTO events SELECT ${sel} FROM (SELECT unnest(from_json($j, '[${struct}]')) AS r)`;
const ph = { stringify: 0, run: 0 };
const K = 300; let cpu = 0;
for (let k = 0; k < K; k++) {
  const r = rows();
  const cu = process.cpuUsage();
  let s = performance.now();
  const j = JSON.stringify(r.map((e) => ({ ...e, ts: e.ts.getTime(), vkey: String(idKey(e.property, e.visitor_id)), skey: String(idKey(e.property, e.session_id)), pkey: 1 })));
  ph.stringify += performance.now() - s; s = performance.now();
  await c.run("BEGIN");
  await c.run(sql, { j, b: k + 1 });
  await c.run("COMMIT");
  ph.run += performance.now() - s;
  const d = process.cpuUsage(cu); cpu += (d.user + d.system) / 1000;
}
for (const [k, v] of Object.entries(ph)) console.log(k, (v / K).toFixed(3), "ms/batch");
console.log("cpu", (cpu / K).toFixed(3), "ms/batch");
console.log((await c.runAndReadAll("SELECT count(*), count(DISTINCT vkey), max(ts), any_value(props) FILTER (WHERE cardinality(props) > 0) FROM events")).getRows());
