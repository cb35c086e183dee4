// Live benchmark (DESIGN.md §8): 10 000 live visitors on one property and 200 dashboard sockets
// watching its account; measures the time from an event to its add_customer arriving on
// every socket, timed from the moment the event is sent (p50/p99 over all sockets and probes). Writes bench/results/live.json.
//   tsx bench/live.bench.ts [--visitors 10000] [--sockets 200] [--probes 40]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openMetaStore } from "@lookout/storage";
import WebSocket from "ws";
import { createUserWithAccount } from "../apps/server/src/accounts/provision.js";
import { MAX_SOCKETS_PER_USER } from "../apps/server/src/live/socket.js";
import { login, startServer } from "../e2e/harness.js";

const { values: args } = parseArgs({
  options: {
    visitors: { type: "string", default: "10000" },
    sockets: { type: "string", default: "200" },
    probes: { type: "string", default: "40" },
  },
  allowPositionals: true,
  strict: false,
});
const VISITORS = Number(args.visitors);
const SOCKETS = Number(args.sockets);
const PROBES = Number(args.probes);
const BUDGET_P99_MS = 200;
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const PASSWORD = "correct-horse-battery-staple";

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

// Users enough for the sockets (each user may hold MAX_SOCKETS_PER_USER), all in one account.
const dataDir = mkdtempSync(join(tmpdir(), "lookout-bench-live-"));
const users = Math.ceil(SOCKETS / MAX_SOCKETS_PER_USER);
const meta = await openMetaStore({ kind: "pglite", dir: join(dataDir, "meta") });
const owner = await createUserWithAccount(meta, { email: "owner@example.com", password: PASSWORD });
for (let i = 1; i < users; i++) {
  const u = await createUserWithAccount(meta, { email: `viewer${i}@example.com`, password: PASSWORD });
  await meta.accounts.addMember(owner.accountId, u.user.id, "viewer");
}
const property = (
  await meta.properties.create({ accountId: owner.accountId, websiteUrl: "https://live.test", name: "Live", timezone: "UTC" })
).unique_id;
await meta.close();

const server = await startServer({
  dataDir,
  env: { LOOKOUT_RATE_PER_IP: "100000000", LOOKOUT_RATE_PER_PROPERTY: "100000000", LOOKOUT_TRUSTED_PROXIES: "127.0.0.1" },
});

async function post(clientId: string, path: string, ip: string): Promise<void> {
  const r = await fetch(`${server.url}/api/event`, {
    method: "POST",
    headers: { "content-type": "text/plain", "user-agent": UA, "x-forwarded-for": ip },
    body: JSON.stringify({ p: property, n: "pageview", u: `https://live.test${path}`, c: clientId }),
  });
  if (r.status !== 202) throw new Error(`event answered ${r.status}`);
}

try {
  // A country for every visitor: 8.8.8.8 is in the US in the bundled database.
  const ip = "8.8.8.8";
  const tokens: string[] = [];
  for (let i = 0; i < users; i++) {
    tokens.push((await login(server, i === 0 ? "owner@example.com" : `viewer${i}@example.com`, PASSWORD)).token);
  }
  // Arrivals per socket: clientid -> time received.
  const seen: Map<string, number>[] = [];
  const sockets: WebSocket[] = [];
  await Promise.all(
    Array.from({ length: SOCKETS }, (_, i) => {
      const received = new Map<string, number>();
      seen.push(received);
      const ws = new WebSocket(`${server.url.replace("http", "ws")}/api`, {
        headers: { authorization: `Bearer ${tokens[i % users]}` },
      });
      sockets.push(ws);
      return new Promise<void>((resolve, reject) => {
        ws.on("open", () => ws.send(JSON.stringify({ type: "agentInfo", data: { customerId: owner.accountId } })));
        ws.on("message", (data) => {
          const at = performance.now();
          const m = JSON.parse(String(data)) as { type: string; data?: { clientid: string } };
          if (m.type === "initial_customers") resolve();
          if (m.type === "add_customer" && m.data) received.set(m.data.clientid, at);
        });
        ws.on("close", (code) => reject(new Error(`socket closed ${code}`)));
        ws.on("error", reject);
      });
    }),
  );

  // Bring the property to VISITORS live visitors, 64 requests at a time.
  const rampStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < VISITORS) {
        const i = next++;
        await post(`visitor-${i.toString().padStart(6, "0")}`, `/page-${i % 50}`, ip);
      }
    }),
  );
  const rampMs = Math.round(performance.now() - rampStart);
  // Let the fan-out of the ramp finish before probing.
  const waitStart = performance.now();
  while (seen.some((m) => m.size < VISITORS) && performance.now() - waitStart < 30_000)
    await new Promise((r) => setTimeout(r, 100));
  const delivered = Math.min(...seen.map((m) => m.size));

  const latencies: number[] = [];
  let missing = 0;
  for (let p = 0; p < PROBES; p++) {
    const id = `probe-${p.toString().padStart(6, "0")}`;
    // From sending the event: the server announces presence right after the event is durable,
    // so sockets usually hear of it before the sender has read its 202.
    const acked = performance.now();
    await post(id, "/probe", ip);
    const deadline = acked + 5000;
    while (seen.some((m) => !m.has(id)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    for (const m of seen) {
      const at = m.get(id);
      if (at === undefined) missing++;
      else latencies.push(Math.max(0, at - acked));
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const ws of sockets) ws.close();
  const result = {
    visitors: VISITORS,
    sockets: SOCKETS,
    probes: PROBES,
    ramp_ms: rampMs,
    ramp_delivered_per_socket: delivered,
    latency_ms: {
      p50: Math.round(pct(latencies, 50) * 10) / 10,
      p99: Math.round(pct(latencies, 99) * 10) / 10,
      max: Math.round(Math.max(...latencies)),
    },
    missing,
    budget_p99_ms: BUDGET_P99_MS,
    within_budget: pct(latencies, 99) < BUDGET_P99_MS && missing === 0,
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  const out = join(dirname(fileURLToPath(import.meta.url)), "results", "live.json");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `live: event -> ${SOCKETS} sockets p50 ${result.latency_ms.p50} ms, p99 ${result.latency_ms.p99} ms with ${VISITORS} live visitors -> ${out}`,
  );
} finally {
  await server.stop({ keepData: true });
  rmSync(dataDir, { recursive: true, force: true });
}
