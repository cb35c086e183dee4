// Collector benchmark (DESIGN.md §8): the real server on the embedded stores, loaded over loopback
// by wrk (Debian's, installed when missing) from a second process. Reports sustained events/s,
// latency percentiles of acknowledged events, the time from a 202 to the event showing in the
// Stats API, and the server's idle and peak memory. For scale it also measures the floor under the
// same wrk load: an endpoint that parses the JSON body and answers 202, nothing else, on Fastify
// and on bare node:http.
// Also `POST /api/batch` (500 events a request) under wrk, in events/s.
// Writes bench/results/collector.json.
//   tsx bench/collector.bench.ts [--duration 20] [--connections 256] [--paced-rate 5000] [--fresh-visitors]
// Scale-out (issue #22): `--clickhouse` runs the server as DESIGN.md §1's scale-out mode: events on
// ClickHouse (CLICKHOUSE_URL's server when set, else a private clickhouse-server started for the
// run), metadata on PostgreSQL (a database of its own on the test server, dropped after), the
// Redis shared state and bus (REDIS_URL, default the local one), and writes
// bench/results/collector-clickhouse.json; the engine-independent 202-only floors are skipped.
import { execFile, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { type ClickHouseServer, REDIS_TEST_URL, startClickHouse } from "@lookout/storage/test-services";
import { freePort, login, ROOT, runCli, startServer } from "../e2e/harness.js";
import { createPostgresDatabase } from "../e2e/server/scale-support.js";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "20" },
    connections: { type: "string", default: "256" },
    "paced-rate": { type: "string", default: "5000" },
    "fresh-visitors": { type: "boolean", default: false },
    clickhouse: { type: "boolean", default: false },
  },
  allowPositionals: true,
  strict: false,
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const PACED_RATE = Number(args["paced-rate"]);
const PACED_CONNECTIONS = 1024;
const FRESH = Boolean(args["fresh-visitors"]);
const CLICKHOUSE = Boolean(args.clickhouse);
const BATCH_SIZE = 500;
const BATCH_CONNECTIONS = 8;
const BUDGET = { eventsPerSecond: 20_000, p99Ms: 50, visibleMs: 1000, batchEventsPerSecond: 100_000 };
const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ensureWrk(): void {
  if (spawnSync("sh", ["-c", "command -v wrk"]).status === 0) return;
  console.log("[bench] installing wrk (apt-get)");
  execFileSync("apt-get", ["install", "-y", "wrk"], { stdio: "inherit" });
}

function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+) kB`));
  return m ? Math.round(Number(m[1]) / 1024) : -1;
}

/** CPU seconds used so far by each thread of `pid`, by thread name (same-named threads summed). */
function threadCpu(pid: number): Map<string, number> {
  const tick = 100; // USER_HZ on Linux
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = tid === String(pid) ? "main" : (stat.match(/\((.*)\)/)?.[1] ?? "?");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / tick);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return out;
}

/** Microseconds of CPU per event, by thread name, between two threadCpu() readings. */
function cpuPerEvent(before: Map<string, number>, after: Map<string, number>, events: number): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [name, s] of after) {
    const used = s - (before.get(name) ?? 0);
    if (used <= 0) continue;
    total += used;
    out[name] = Math.round((used * 1e6) / events);
  }
  out.total = Math.round((total * 1e6) / events);
  return out;
}

/**
 * wrk's Lua. Visitors browse as DESIGN.md §8 has it, in visits of several events: 10 000 visitors
 * are active at once, each request comes from one of them at random, and a visitor leaves after
 * 1 to 7 events (a landing pageview with an outside referrer, then pageviews, engagement pings,
 * now and then a custom event) for a new one to take their place; five real-looking browsers.
 * `freshVisitors` makes every request a first pageview of a new visitor instead. With `pauseMs`,
 * each connection waits that long on average (uniformly up to twice as long, so that the
 * connections do not fall into step and arrive in waves) before each request: a steady offered
 * rate rather than as fast as the server answers.
 */
function luaScript(property: string, opts: { pauseMs?: number; freshVisitors?: boolean } = {}): string {
  const pauseMs = opts.pauseMs ?? 0;
  return `
${pauseMs > 0 ? `delay = function() return math.random(0, ${2 * pauseMs}) end` : ""}
local pages = {"/", "/", "/", "/pricing", "/pricing", "/blog/launch", "/docs/setup", "/about", "/signup", "/blog/changelog"}
local refs = {"", "", "https://www.google.com/", "https://www.google.com/", "https://news.ycombinator.com/", "https://t.co/x", "https://duckduckgo.com/"}
local uas = {
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
}
local fresh_visitors = ${opts.freshVisitors ? "true" : "false"}
local active = {}
local made = 0
function setup(thread) thread:set("id", math.random(1, 1000000)) end
local function new_visitor()
  made = made + 1
  return { cid = "bench-" .. id .. "-" .. made, left = fresh_visitors and 1 or math.random(1, 7), ua = uas[math.random(#uas)], page = nil }
end
request = function()
  local slot = math.random(10000)
  local v = active[slot]
  if v == nil or v.left == 0 then
    v = new_visitor()
    active[slot] = v
  end
  v.left = v.left - 1
  local name, ref, extra = "pageview", "https://bench.test/", ""
  if v.page == nil then
    ref = refs[math.random(#refs)]
    v.page = pages[math.random(#pages)]
  elseif math.random() < 0.35 then
    name, ref, extra = "engagement", "", ',"g":' .. math.random(1000, 20000)
  elseif math.random() < 0.08 then
    name, ref = "signup", ""
  else
    v.page = pages[math.random(#pages)]
  end
  local body = '{"p":"${property}","n":"' .. name .. '","u":"https://bench.test' .. v.page .. '","r":"' .. ref .. '","w":1440,"c":"' .. v.cid .. '"' .. extra .. '}'
  return wrk.format("POST", "/api/event", { ["Content-Type"] = "text/plain", ["User-Agent"] = v.ua }, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d %.3f %.3f %.3f %.3f\\n", summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write, summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
`;
}

interface WrkResult {
  requests: number;
  non2xx: number;
  socketErrors: number;
  timeouts: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** POST /api/batch with the same `BATCH_SIZE` events each time: 50 visitors of 10 events. */
function batchScript(property: string): string {
  const events = Array.from({ length: BATCH_SIZE }, (_, i) => ({
    p: property,
    n: i % 10 === 9 ? "signup" : "pageview",
    u: `https://bench.test/${["", "pricing", "blog/launch", "docs/setup"][i % 4]}`,
    c: `batch-${i % 50}`,
  }));
  const body = JSON.stringify(JSON.stringify({ events }));
  return `
local body = ${body}
request = function()
  return wrk.format("POST", "/api/batch", { ["Content-Type"] = "application/json", ["User-Agent"] = "bench-batch/1.0 (server-side sender)" }, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d %.3f %.3f %.3f %.3f\\n", summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write, summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
`;
}

async function runWrk(url: string, script: string, seconds: number, connections = CONNECTIONS): Promise<WrkResult> {
  // wrk drives one connection per in-flight request; 1 thread leaves a core for the server.
  const { stdout: out } = await execFileAsync(
    "wrk",
    ["-t1", `-c${connections}`, `-d${seconds}s`, "--timeout", "5s", "-s", script, url],
    {
      encoding: "utf8",
    },
  );
  const m = out.match(/RESULT (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)/);
  if (!m) throw new Error(`could not read wrk's output:\n${out}`);
  const [requests, non2xx, socketErrors, timeouts, p50, p90, p99, max] = m.slice(1).map(Number) as number[];
  return { requests, non2xx, socketErrors, timeouts, p50, p90, p99, max } as WrkResult;
}

/**
 * The floors under the same load: requests/s of an endpoint that only parses the body and answers
 * 202, on Fastify (as the collector runs) and on bare node:http (no framework at all). Everything
 * else the collector does per event comes on top of these.
 */
const FLOOR_SERVERS = {
  fastify: `
import Fastify from "fastify";
const app = Fastify({ logger: false });
app.addContentTypeParser("text/plain", { parseAs: "string" }, (_r, body, done) => {
  try { done(null, JSON.parse(body)); } catch (err) { done(err); }
});
app.post("/api/event", async (_req, reply) => reply.code(202).send());
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
console.log("ready");
`,
  node: `
import { createServer } from "node:http";
createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    JSON.parse(body);
    res.writeHead(202, { "access-control-allow-origin": "*" });
    res.end();
  });
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
`,
};

async function httpFloor(script: string, server: keyof typeof FLOOR_SERVERS): Promise<number> {
  const port = await freePort();
  const proc = spawn(process.execPath, ["--input-type=module", "-e", FLOOR_SERVERS[server]], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((res, rej) => {
      proc.stdout.once("data", () => res());
      proc.once("exit", (code) => rej(new Error(`the floor server exited (${code})`)));
    });
    const r = await runWrk(`http://127.0.0.1:${port}`, script, 10);
    return Math.round((r.requests - r.non2xx) / 10);
  } finally {
    proc.kill("SIGKILL");
  }
}

/**
 * Visibility: from a 202 to the event counted by the Stats API, for `count` probe pageviews one
 * after another (each polled every `pollMs` until it shows).
 */
async function probeVisible(
  url: string,
  property: string,
  token: string,
  tag: string,
  count: number,
  pollMs = 20,
): Promise<number[]> {
  const visible: number[] = [];
  for (let i = 0; i < count; i++) {
    const path = `/probe-${tag}-${i}`;
    const r = await fetch(`${url}/api/event`, {
      method: "POST",
      headers: {
        "content-type": "text/plain",
        "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      },
      body: JSON.stringify({ p: property, n: "pageview", u: `https://bench.test${path}`, c: `probe-${tag}-000${i}` }),
    });
    if (r.status !== 202) throw new Error(`probe answered ${r.status}`);
    const acked = performance.now();
    for (;;) {
      const q = await fetch(
        `${url}/api/v1/stats/aggregate?property_id=${property}&period=today&metrics=pageviews&filters=${encodeURIComponent(`page==${path}`)}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const body = (await q.json()) as { results: { pageviews: { value: number } } };
      if (body.results.pageviews.value === 1) break;
      if (performance.now() - acked > 10_000) throw new Error("probe never became visible");
      await sleep(pollMs);
    }
    visible.push(Math.round(performance.now() - acked));
  }
  return visible;
}

ensureWrk();
let ownClickHouse: ClickHouseServer | undefined;
let metadata: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
const scaleOutEnv: Record<string, string> = {};
if (CLICKHOUSE) {
  metadata = await createPostgresDatabase();
  // The CLI below (owner and property) writes to the same metadata as the server.
  process.env.DATABASE_URL = metadata.url;
  scaleOutEnv.DATABASE_URL = metadata.url;
  const base = process.env.CLICKHOUSE_URL
    ? new URL(process.env.CLICKHOUSE_URL).origin
    : (ownClickHouse = await startClickHouse()).url;
  scaleOutEnv.CLICKHOUSE_URL = `${base}/bench_collector_${Date.now()}`;
  scaleOutEnv.REDIS_URL = process.env.REDIS_URL ?? REDIS_TEST_URL;
  scaleOutEnv.LOOKOUT_REDIS_PREFIX = `lookout-bench-${process.pid}:`;
}
const dataDir = mkdtempSync(join(tmpdir(), "lookout-bench-collector-"));
runCli(dataDir, ["user:create", "--email", "owner@example.com", "--password", "correct-horse-battery-staple"]);
const property = runCli(dataDir, ["property:create", "--email", "owner@example.com", "--url", "https://bench.test"]);
const server = await startServer({
  dataDir,
  env: { LOOKOUT_RATE_PER_IP: "100000000", LOOKOUT_RATE_PER_PROPERTY: "100000000", LOOKOUT_LOG_LEVEL: "warn", ...scaleOutEnv },
});
try {
  const pid = server.proc.pid as number;
  await new Promise((r) => setTimeout(r, 1000));
  const idleRss = rssMb(pid, "VmRSS");
  const script = join(dataDir, "post.lua");
  writeFileSync(script, luaScript(property, { freshVisitors: FRESH }));
  const cpuBefore = threadCpu(pid);
  const { token } = await login(server);
  // Probes during the load too: under load the rollups run less often (DESIGN.md §8 still wants 1 s).
  const [{ requests, non2xx, socketErrors, timeouts, p50, p90, p99, max }, visibleUnderLoad] = await Promise.all([
    runWrk(server.url, script, DURATION),
    sleep((DURATION * 1000) / 4).then(() => probeVisible(server.url, property, token, "load", 3, 50)),
  ]);
  const cpuUs = cpuPerEvent(cpuBefore, threadCpu(pid), requests - non2xx);
  const eventsPerSecond = Math.round((requests - non2xx) / DURATION);
  // Latency at a steady rate below saturation, where it measures the work rather than the queue:
  // many connections, each pausing long enough between requests that its own wait barely slows it.
  // After the burst above, the rollups have seconds of events to catch up on first.
  await sleep(5000);
  const pacedScript = join(dataDir, "paced.lua");
  writeFileSync(
    pacedScript,
    luaScript(property, { pauseMs: Math.round((1000 * PACED_CONNECTIONS) / PACED_RATE), freshVisitors: FRESH }),
  );
  const paced = await runWrk(server.url, pacedScript, 10, PACED_CONNECTIONS);
  const batchFile = join(dataDir, "batch.lua");
  writeFileSync(batchFile, batchScript(property));
  const batch = await runWrk(server.url, batchFile, 10, BATCH_CONNECTIONS);
  const batchEventsPerSecond = Math.round(((batch.requests - batch.non2xx) * BATCH_SIZE) / 10);
  const peakRss = rssMb(pid, "VmHWM");
  // The floors do not depend on the event store: measured in the embedded run only.
  const floorRps = CLICKHOUSE ? null : await httpFloor(script, "fastify");
  const nodeFloorRps = CLICKHOUSE ? null : await httpFloor(script, "node");

  const visible = await probeVisible(server.url, property, token, "idle", 5);
  const result = {
    mode: CLICKHOUSE ? "scale-out: ClickHouse events, PostgreSQL metadata, Redis shared state and bus" : "embedded",
    duration_s: DURATION,
    traffic: FRESH ? "every event a new visitor" : "visits of 1 to 7 events, 10 000 visitors at a time",
    connections: CONNECTIONS,
    requests,
    non_2xx: non2xx,
    socket_errors: socketErrors,
    timeouts,
    events_per_second: eventsPerSecond,
    latency_ms: { p50, p90, p99, max },
    paced: {
      offered_per_second: PACED_RATE,
      events_per_second: Math.round((paced.requests - paced.non2xx) / 10),
      latency_ms: { p50: paced.p50, p90: paced.p90, p99: paced.p99, max: paced.max },
    },
    batch: {
      events_per_request: BATCH_SIZE,
      connections: BATCH_CONNECTIONS,
      requests: batch.requests,
      non_2xx: batch.non2xx,
      events_per_second: batchEventsPerSecond,
      latency_ms: { p50: batch.p50, p90: batch.p90, p99: batch.p99, max: batch.max },
    },
    visible_after_ack_ms: { max: Math.max(...visible), each: visible },
    visible_after_ack_under_load_ms: { max: Math.max(...visibleUnderLoad), each: visibleUnderLoad },
    rss_mb: { idle: idleRss, peak: peakRss },
    server_cpu_us_per_event: cpuUs,
    http_floor_requests_per_second: { fastify: floorRps, node_http: nodeFloorRps },
    budgets: BUDGET,
    within_budget: {
      events_per_second: eventsPerSecond >= BUDGET.eventsPerSecond,
      p99: p99 < BUDGET.p99Ms,
      visible: Math.max(...visible, ...visibleUnderLoad) < BUDGET.visibleMs,
      batch_events_per_second: batchEventsPerSecond >= BUDGET.batchEventsPerSecond,
      idle_rss: idleRss < 300,
      peak_rss: peakRss < 2048,
    },
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  const outFile = join(
    dirname(fileURLToPath(import.meta.url)),
    "results",
    CLICKHOUSE ? "collector-clickhouse.json" : "collector.json",
  );
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `collector: ${eventsPerSecond} events/s, p99 ${p99} ms (at ${Math.round((paced.requests - paced.non2xx) / 10)} events/s: p99 ${paced.p99} ms), visible within ${Math.max(...visible)} ms (${Math.max(...visibleUnderLoad)} ms under load), rss idle ${idleRss} MB / peak ${peakRss} MB; batch ${batchEventsPerSecond} events/s (p99 ${batch.p99} ms a request); 202-only floor ${floorRps} requests/s on Fastify, ${nodeFloorRps} on bare node:http -> ${outFile}`,
  );
} finally {
  await server.stop({ keepData: true });
  if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  await ownClickHouse?.stop();
  await metadata?.drop();
}
