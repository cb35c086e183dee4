// Profiles the server's main thread under the collector bench's load.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, freePort } from "../e2e/harness.js";
import { spawn } from "node:child_process";
const dataDir = mkdtempSync(join(tmpdir(), "lookout-prof-"));
runCli(dataDir, ["user:create", "--email", "owner@example.com", "--password", "correct-horse-battery-staple"]);
const property = runCli(dataDir, ["property:create", "--email", "owner@example.com", "--url", "https://bench.test"]);
rmSync("/tmp/prof", { recursive: true, force: true }); mkdirSync("/tmp/prof");
const port = await freePort();
const proc = spawn(process.execPath, ["--max-semi-space-size=64", "--expose-gc", "--cpu-prof", "--cpu-prof-dir=/tmp/prof", ...(process.env.NODEARGS ? process.env.NODEARGS.split(" ") : []), "apps/server/dist/main.mjs"], { stdio: "inherit", env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOOKOUT_DATA_DIR: dataDir, LOOKOUT_DEMO: "0", LOOKOUT_RATE_PER_IP: "100000000", LOOKOUT_RATE_PER_PROPERTY: "100000000", LOOKOUT_LOG_LEVEL: "warn" } });
const server = { url: `http://127.0.0.1:${port}` };
for (;;) { try { if ((await fetch(server.url + "/healthz")).ok) break; } catch {} await new Promise((r) => setTimeout(r, 100)); }
const lua = readFileSync("bench/collector.bench.ts", "utf8");
const script = join(dataDir, "post.lua");
const src = lua.slice(lua.indexOf("return `", lua.indexOf("function luaScript")) + 8, lua.indexOf("`;", lua.indexOf("function luaScript"))).replace("${property}", property).replaceAll("\\\\n", "\\n");
writeFileSync(script, src);
console.log(execFileSync("wrk", ["-t1", "-c256", "-d10s", "-s", script, server.url], { encoding: "utf8" }).split("\n").filter((l) => /Requests\/sec|RESULT/.test(l)).join("\n"));
const ex = new Promise((r) => proc.once("exit", r)); proc.kill("SIGTERM"); await ex;
rmSync(dataDir, { recursive: true, force: true });
console.log(readdirSync("/tmp/prof"));
