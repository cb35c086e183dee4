import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create("/tmp/stmt-test.duckdb", { threads: process.env.T ?? "2" });
const c = await inst.connect();
await c.run("CREATE TABLE IF NOT EXISTS big AS SELECT range AS a, range % 7 AS b FROM range(1000000)");
for (const [name, sql] of [["create temp", "CREATE OR REPLACE TEMP TABLE x AS SELECT 1 AS a"], ["drop+create", "DROP TABLE IF EXISTS y; CREATE TEMP TABLE y AS SELECT 1 AS a"], ["select", "SELECT 1"], ["agg small", "CREATE OR REPLACE TEMP TABLE z AS SELECT b, count(*) FROM (SELECT * FROM x) GROUP BY b"]] as const) {
  await c.run("BEGIN");
  const cu = process.cpuUsage(); const s = performance.now();
  for (let i = 0; i < 200; i++) await c.run(sql);
  const d = process.cpuUsage(cu);
  console.log(name, ((performance.now() - s) / 200).toFixed(3), "ms wall", ((d.user + d.system) / 1000 / 200).toFixed(3), "ms cpu");
  await c.run("COMMIT");
}
