// Test access to the real services this machine runs. Under CI=true a missing service is a loud
// failure, never a silent skip.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * The suite's empty PGlite metadata database (scripts/test-global-setup.ts builds it once and sets
 * LOOKOUT_PGLITE_TEMPLATE), as MetaConfig's `template`: a new directory starts as a copy of it
 * instead of running initdb (~8 s of CPU). Empty outside the suite, where initdb runs as in production.
 */
export function pgliteTemplate(): { template?: string } {
  const template = process.env.LOOKOUT_PGLITE_TEMPLATE;
  return template ? { template } : {};
}

export const POSTGRES_TEST_URL = process.env.LOOKOUT_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export async function requirePostgres(): Promise<string> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
    return POSTGRES_TEST_URL;
  } catch (err) {
    throw new Error(
      `PostgreSQL is required for this test at ${POSTGRES_TEST_URL} (start it with: pg_ctlcluster $(ls /etc/postgresql) main start): ${String(err)}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

export const REDIS_TEST_URL = process.env.LOOKOUT_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export async function requireRedis(): Promise<string> {
  const { Redis } = await import("ioredis");
  const r = new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await r.connect();
    await r.ping();
    return REDIS_TEST_URL;
  } catch (err) {
    throw new Error(`Redis is required for this test at ${REDIS_TEST_URL}: ${String(err)}`);
  } finally {
    r.disconnect();
  }
}

// ── ClickHouse ──────────────────────────────────────────────────────────────────────────────────
// The test run starts ONE clickhouse-server (Debian's 18.16) of its own: a config, users file and
// data directory in a temporary directory, loopback ports picked free, stopped by PID afterwards.
// scripts/test-global-setup.ts starts it and exports its URL in LOOKOUT_TEST_CLICKHOUSE_URL; a
// test file run without the global setup (vitest.fast.local.ts) starts a private one on first use.
// Each test file works in a database of its own (clickHouseTestDatabase).

export const CLICKHOUSE_SERVER_BIN = process.env.LOOKOUT_CLICKHOUSE_SERVER ?? "/usr/sbin/clickhouse-server";

export interface ClickHouseServer {
  url: string;
  pid: number;
  dir: string;
  http: number;
  tcp: number;
  /** Stops the server; `keep` leaves its directory for a restart on the same data and ports. */
  stop(opts?: { keep?: boolean }): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function clickHouseReachable(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const r = await fetch(new URL("/ping", url), { signal: AbortSignal.timeout(timeoutMs) });
    return r.ok && (await r.text()).startsWith("Ok");
  } catch {
    return false;
  }
}

/**
 * Starts a clickhouse-server in a fresh temporary directory (or again on a stopped one's directory
 * and ports: `again`) and waits for /ping (30 s at most). `opts.ports` fixes the ports (a cluster's
 * configuration names them before its servers start); `opts.extraConfig` is XML added to the
 * server's configuration (a cluster's remote_servers).
 */
export async function startClickHouse(
  again?: Pick<ClickHouseServer, "dir" | "http" | "tcp">,
  opts: { ports?: { http: number; tcp: number }; extraConfig?: string } = {},
): Promise<ClickHouseServer> {
  if (!existsSync(CLICKHOUSE_SERVER_BIN))
    throw new Error(`${CLICKHOUSE_SERVER_BIN} is missing (install it: apt-get install -y clickhouse-server)`);
  const dir = again?.dir ?? mkdtempSync(join(tmpdir(), "lookout-clickhouse-"));
  const [http, tcp] = again
    ? [again.http, again.tcp]
    : opts.ports
      ? [opts.ports.http, opts.ports.tcp]
      : [await freePort(), await freePort()];
  writeFileSync(
    join(dir, "config.xml"),
    `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
${opts.extraConfig ?? ""}
</yandex>
`,
  );
  writeFileSync(
    join(dir, "users.xml"),
    `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`,
  );
  const child = spawn(CLICKHOUSE_SERVER_BIN, [`--config-file=${join(dir, "config.xml")}`], {
    cwd: dir,
    stdio: "ignore",
    detached: false,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${CLICKHOUSE_SERVER_BIN}`);
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  child.unref();
  const url = `http://127.0.0.1:${http}`;
  const deadline = Date.now() + 30_000;
  while (!(await clickHouseReachable(url, 1000))) {
    if (exited || Date.now() > deadline) {
      const log = existsSync(join(dir, "server.err.log")) ? readFileSync(join(dir, "server.err.log"), "utf8").slice(-2000) : "";
      if (!exited) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`clickhouse-server did not answer /ping on ${url}${exited ? " (it exited)" : ""}: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async (opts: { keep?: boolean } = {}) => {
    if (!exited) {
      process.kill(pid, "SIGTERM");
      const until = Date.now() + 10_000;
      while (!exited && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      if (!exited) process.kill(pid, "SIGKILL");
    }
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  };
  return { url, pid, dir, http, tcp, stop };
}

let privateServer: Promise<ClickHouseServer> | undefined;

/**
 * The test ClickHouse's URL, or a reason to skip. Under CI=true a server that cannot be had throws
 * (a loud failure); locally the caller skips its ClickHouse tests with the printed reason.
 */
export async function requireClickHouse(): Promise<{ url: string } | { skip: string }> {
  const given = process.env.LOOKOUT_TEST_CLICKHOUSE_URL;
  const unavailable = process.env.LOOKOUT_TEST_CLICKHOUSE_UNAVAILABLE;
  try {
    // The global setup already tried and failed: no second attempt per file.
    if (unavailable) throw new Error(unavailable);
    if (given) {
      if (await clickHouseReachable(given)) return { url: given };
      throw new Error(`ClickHouse is not answering at ${given} (LOOKOUT_TEST_CLICKHOUSE_URL)`);
    }
    if (!privateServer) {
      privateServer = startClickHouse();
      const s = await privateServer;
      // This process started it: it stops it when it exits (a kill by PID works synchronously).
      process.once("exit", () => {
        try {
          process.kill(s.pid, "SIGKILL");
          rmSync(s.dir, { recursive: true, force: true });
        } catch {}
      });
    }
    return { url: (await privateServer).url };
  } catch (err) {
    if (process.env.CI === "true") throw err;
    const reason = `ClickHouse tests skipped: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${reason}\n`);
    return { skip: reason };
  }
}

/** A database name of its own for one test file (ClickHouse identifiers: [A-Za-z0-9_]). */
export const clickHouseTestDatabase = (label: string) =>
  `lookout_test_${label.replace(/[^A-Za-z0-9_]/g, "_")}_${process.pid}_${randomBytes(4).toString("hex")}`;

// ── A two-shard ClickHouse cluster ──────────────────────────────────────────────────────────────
// Two clickhouse-servers on loopback ports, each configured with the same remote_servers entry
// (`lookout_test`: two shards of one replica). The event store runs on it with Distributed tables
// (clickhouse-store.ts, `cluster` option). Started on first use by the test files that need it and
// stopped when their process exits; under CI=true a cluster that cannot be had fails loudly.

export const TEST_CLUSTER_NAME = "lookout_test";

export interface ClickHouseTestCluster {
  /** The node the store talks to (shard 1); each shard's URL; the remote_servers name. */
  url: string;
  shards: string[];
  name: string;
  servers: ClickHouseServer[];
  stop(): Promise<void>;
}

export async function startClickHouseCluster(shardCount = 2): Promise<ClickHouseTestCluster> {
  const ports: { http: number; tcp: number }[] = [];
  for (let i = 0; i < shardCount; i++) ports.push({ http: await freePort(), tcp: await freePort() });
  const shards = ports.map((p) => `<shard><replica><host>127.0.0.1</host><port>${p.tcp}</port></replica></shard>`).join("");
  const extraConfig = `<remote_servers><${TEST_CLUSTER_NAME}>${shards}</${TEST_CLUSTER_NAME}></remote_servers>`;
  const servers: ClickHouseServer[] = [];
  try {
    for (const p of ports) servers.push(await startClickHouse(undefined, { ports: p, extraConfig }));
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    throw err;
  }
  const first = servers[0] as ClickHouseServer;
  return {
    url: first.url,
    shards: servers.map((s) => s.url),
    name: TEST_CLUSTER_NAME,
    servers,
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}

let privateCluster: Promise<ClickHouseTestCluster> | undefined;

/**
 * The test cluster (started once per test process), or a reason to skip; throws under CI=true.
 * A file that calls this stops the cluster in its afterAll (stopClickHouseCluster): Vitest ends
 * its fork workers with a signal, so the `exit` hook below is only a fallback and would leave two
 * clickhouse-servers behind after every run.
 */
export async function requireClickHouseCluster(): Promise<ClickHouseTestCluster | { skip: string }> {
  try {
    if (process.env.LOOKOUT_TEST_CLICKHOUSE_UNAVAILABLE) throw new Error(process.env.LOOKOUT_TEST_CLICKHOUSE_UNAVAILABLE);
    if (!privateCluster) {
      privateCluster = startClickHouseCluster();
      const c = await privateCluster;
      process.once("exit", () => {
        for (const s of c.servers) {
          try {
            process.kill(s.pid, "SIGKILL");
            rmSync(s.dir, { recursive: true, force: true });
          } catch {}
        }
      });
    }
    return await privateCluster;
  } catch (err) {
    privateCluster = undefined;
    if (process.env.CI === "true") throw err;
    const reason = `ClickHouse cluster tests skipped: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${reason}\n`);
    return { skip: reason };
  }
}

/** Stops this process's test cluster, if it started one (call after closing its stores). */
export async function stopClickHouseCluster(): Promise<void> {
  const started = privateCluster;
  privateCluster = undefined;
  if (!started) return;
  const c = await started.catch(() => undefined);
  await c?.stop();
}
