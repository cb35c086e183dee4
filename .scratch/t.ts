import { DuckDBInstance } from "@duckdb/node-api";
const inst = await DuckDBInstance.create(":memory:");
const a = await inst.connect(); const b = await inst.connect();
try { await a.run("SET SESSION threads = 1"); console.log("session ok"); } catch (e) { console.log(String(e)); }
console.log((await a.runAndReadAll("SELECT current_setting('threads')")).getRows(), (await b.runAndReadAll("SELECT current_setting('threads')")).getRows());
