// `npm run bench`: runs every bench/*.bench.ts (DESIGN.md §8), each in a process of its own, one
// after the other (they measure the machine; running two at once would measure each other), then
// prints a summary from the bench/results/<name>.json each one writes.
//
//   npm run bench                                   every benchmark, default sizes
//   npm run bench -- --only dashboard               only these (repeat or comma-separate)
//   npm run bench -- --only dashboard --events 1000000 --big
//
// Every other argument is passed through to each benchmark, which ignores what it does not know.
// Exit status: 0 when every benchmark ran and met its budgets, 1 otherwise.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const SUFFIX = ".bench.ts";

function parse(argv: string[]): { only: string[]; list: boolean; rest: string[] } {
  const only: string[] = [];
  const rest: string[] = [];
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--only") only.push(...(argv[++i] ?? "").split(","));
    else if (a.startsWith("--only=")) only.push(...a.slice(7).split(","));
    else if (a === "--list") list = true;
    else rest.push(a);
  }
  return { only: only.map((s) => s.trim().replace(/\.bench\.ts$/, "")).filter(Boolean), list, rest };
}

/** Every `within_budget` in a result (a boolean, or an object of booleans), with its path. */
function verdicts(value: unknown, path: string[] = []): [string, boolean][] {
  if (!value || typeof value !== "object") return [];
  const out: [string, boolean][] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k === "within_budget") {
      if (typeof v === "boolean") out.push([path.join("."), v]);
      else if (v && typeof v === "object")
        for (const [kk, vv] of Object.entries(v)) if (typeof vv === "boolean") out.push([[...path, kk].join("."), vv]);
    } else out.push(...verdicts(v, [...path, k]));
  }
  return out;
}

function run(file: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", file, ...args], { stdio: "inherit", cwd: join(BENCH_DIR, "..") });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

const { only, list, rest } = parse(process.argv.slice(2));
const all = readdirSync(BENCH_DIR)
  .filter((f) => f.endsWith(SUFFIX))
  .map((f) => f.slice(0, -SUFFIX.length))
  .sort();
if (list) {
  console.log(all.join("\n"));
  process.exit(0);
}
const unknown = only.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")} (have: ${all.join(", ")})`);
  process.exit(1);
}
const selected = only.length > 0 ? all.filter((n) => only.includes(n)) : all;

interface Outcome {
  name: string;
  exit: number;
  seconds: number;
  verdicts: [string, boolean][];
  resultFile: string | null;
}
const outcomes: Outcome[] = [];
for (const name of selected) {
  const started = Date.now();
  console.log(`\n=== bench: ${name} ${rest.join(" ")}`.trimEnd());
  const exit = await run(join(BENCH_DIR, `${name}${SUFFIX}`), rest);
  const resultFile = join(BENCH_DIR, "results", `${name}.json`);
  const fresh = existsSync(resultFile) && statSync(resultFile).mtimeMs >= started;
  let v: [string, boolean][] = [];
  if (fresh) {
    try {
      v = verdicts(JSON.parse(readFileSync(resultFile, "utf8")));
    } catch {
      v = [["results file unreadable", false]];
    }
  }
  outcomes.push({ name, exit, seconds: (Date.now() - started) / 1000, verdicts: v, resultFile: fresh ? resultFile : null });
}

console.log("\n=== summary");
let ok = true;
for (const o of outcomes) {
  const failed = o.verdicts.filter(([, pass]) => !pass).map(([k]) => k || "budget");
  const status =
    o.exit !== 0 ? `FAILED (exit ${o.exit})` : failed.length > 0 ? "OVER BUDGET" : o.resultFile ? "ok" : "ran (no results file)";
  if (o.exit !== 0 || failed.length > 0) ok = false;
  console.log(`${o.name.padEnd(12)} ${status.padEnd(22)} ${o.seconds.toFixed(0).padStart(5)} s`);
  for (const [k, pass] of o.verdicts) console.log(`  ${pass ? "pass" : "MISS"}  ${k || "budget"}`);
  if (o.resultFile) console.log(`  -> ${o.resultFile}`);
}
process.exit(ok ? 0 : 1);
