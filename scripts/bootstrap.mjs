// Brings a checkout to a runnable state, doing only what is missing or stale: `npm ci` when the
// lock file changed, the tracker and web builds when their sources changed, and (for browser
// tests) Debian's Chromium and (for the ClickHouse suites) Debian's clickhouse-server. `npm start`,
// `npm test` and the CLI call it first.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
const quiet = process.argv.includes("--quiet");
const log = (m) => quiet || process.stderr.write(`[bootstrap] ${m}\n`);

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of readdirSync(path)) {
    if (e === "node_modules" || e === "dist") continue;
    max = Math.max(max, newest(join(path, e)));
  }
  return max;
}

const oldest = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

function run(cmd, args, opts = {}) {
  execFileSync(cmd, args, { cwd: ROOT, stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit", ...opts });
}

export function ensureDependencies() {
  const marker = join(ROOT, "node_modules/.package-lock.json");
  if (!existsSync(marker) || oldest(marker) < oldest(join(ROOT, "package-lock.json"))) {
    log("installing dependencies (npm ci)");
    run("npm", ["ci", "--no-audit", "--no-fund"]);
  }
}

/** The server and CLI bundles that apps/server/build.mjs writes (what `npm start` and `npm run lookout` run). */
export const SERVER_BUNDLE = join(ROOT, "apps/server/dist/main.mjs");
export const CLI_BUNDLE = join(ROOT, "apps/server/dist/cli.mjs");

/**
 * How the server process starts (`npm start`, and e2e/harness.ts the same way):
 * - a larger young generation than V8's default: the collector allocates a few kilobytes per event
 *   at thousands of events per second, and with the default every scavenge (every ~80 ms under
 *   load) copies the sessions and presence kept in memory;
 * - --expose-gc lets the server collect once when it is ready (see main.ts);
 * - two glibc malloc arenas instead of one per thread (up to 8 per core): a first start hashes the
 *   owner's password (argon2id, 19 MiB) and runs PGlite's initdb, and the arenas that served them
 *   kept the memory, so a new install idled at 345-365 MB resident against 290-304 MB with two
 *   (DESIGN.md §8: under 300 MB). Collector throughput was the same either way (DuckDB allocates
 *   through its own jemalloc).
 */
export const SERVER_NODE_ARGS = ["--max-semi-space-size=64", "--expose-gc", SERVER_BUNDLE];
export const serverEnv = (env = process.env) => ({ MALLOC_ARENA_MAX: "2", ...env });

// The web build is a production build whoever calls it: vitest's global setup runs with NODE_ENV=test,
// under which Vite would bundle React's development runtime (321 KB against the 250 KB budget).
const buildEnv = () => ({ env: { ...process.env, NODE_ENV: "production" } });

export function ensureBuilds() {
  const tracker = join(ROOT, "packages/tracker");
  if (existsSync(join(tracker, "build.mjs")) && oldest(join(tracker, "dist/script.js")) < newest(join(tracker, "src"))) {
    log("building the tracker");
    run("npm", ["run", "build", "-w", "@lookout/tracker", "--silent"]);
  }
  const server = join(ROOT, "apps/server");
  const packages = join(ROOT, "packages");
  const serverInputs = Math.max(
    newest(join(server, "src")),
    oldest(join(server, "build.mjs")),
    ...readdirSync(packages).map((p) => newest(join(packages, p, "src"))),
  );
  if (Math.min(oldest(SERVER_BUNDLE), oldest(CLI_BUNDLE)) < serverInputs) {
    log("building the server");
    run("npm", ["run", "build", "-w", "@lookout/server", "--silent"]);
  }
  const web = join(ROOT, "apps/web");
  const webInputs = Math.max(
    newest(join(web, "src")),
    newest(join(web, "public")),
    oldest(join(web, "index.html")),
    oldest(join(web, "vite.config.ts")),
    newest(join(ROOT, "packages/schema/src")),
  );
  if (existsSync(join(web, "vite.config.ts")) && oldest(join(web, "dist/index.html")) < webInputs) {
    log("building the web app");
    run("npm", ["run", "build", "-w", "@lookout/web", "--silent"], buildEnv());
  }
}

export function ensureChromium() {
  const bin = process.env.LOOKOUT_CHROMIUM ?? "/usr/bin/chromium";
  if (existsSync(bin)) return;
  log("installing Debian's chromium for the browser tests (apt-get)");
  try {
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  } catch (err) {
    throw new Error(`could not install chromium with apt-get: ${err.message}`);
  }
  if (!existsSync(bin)) throw new Error(`chromium is still missing at ${bin}`);
}

/**
 * Debian's clickhouse-server (18.16) for the ClickHouse suites: the test run starts one of its own
 * (scripts/test-global-setup.ts). Under CI=true a failed install is an error; locally the suites
 * then skip, saying why.
 */
export function ensureClickHouse() {
  const bin = process.env.LOOKOUT_CLICKHOUSE_SERVER ?? "/usr/sbin/clickhouse-server";
  if (existsSync(bin)) return;
  log("installing Debian's clickhouse-server for the ClickHouse suites (apt-get)");
  try {
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "clickhouse-server", "clickhouse-client"], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  } catch (err) {
    if (process.env.CI === "true") throw new Error(`could not install clickhouse-server with apt-get: ${err.message}`);
    log(`could not install clickhouse-server (${err.message}): the ClickHouse suites will skip`);
    return;
  }
  if (!existsSync(bin)) {
    if (process.env.CI === "true") throw new Error(`clickhouse-server is still missing at ${bin}`);
    log(`clickhouse-server is still missing at ${bin}: the ClickHouse suites will skip`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureDependencies();
  ensureBuilds();
  if (process.argv.includes("--browser")) ensureChromium();
}
