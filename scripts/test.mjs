// `npm test`: bootstraps (deps, builds, Chromium, services), type-checks, lints, runs the whole
// Vitest suite, and closes with one line "N passed, N failed" counting every check.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureBuilds, ensureChromium, ensureClickHouse, ensureDependencies, ROOT } from "./bootstrap.mjs";
import { ensureServices } from "./services.mjs";

ensureDependencies();
ensureBuilds();
ensureChromium();
ensureClickHouse();
await ensureServices();

let passed = 0;
let failed = 0;
const bin = (name) => join(ROOT, "node_modules/.bin", name);

function check(name, cmd, args) {
  process.stdout.write(`\n── ${name}\n`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit" });
  if (r.status === 0) passed++;
  else {
    failed++;
    process.stdout.write(`✗ ${name} failed\n`);
  }
}

check("typecheck", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
check("typecheck web", bin("tsc"), ["-p", "apps/web/tsconfig.json", "--noEmit"]);
check("lint", bin("biome"), ["lint", "."]);

const report = join(ROOT, ".vitest-report.json");
rmSync(report, { force: true });
process.stdout.write("\n── vitest\n");
const extra = process.argv.slice(2);
const v = spawnSync(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra], {
  cwd: ROOT,
  stdio: "inherit",
});
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A file that fails to load counts as a failure even though it ran no test.
  failed += r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
} else {
  failed++;
}
if (v.status !== 0 && failed === 0) failed++;
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
