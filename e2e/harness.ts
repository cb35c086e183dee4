// Starts a real Lookout server (the same entry point as `npm start`) on a free port with a fresh
// data directory, for integration and browser tests. Stops it and removes the data afterwards.
// Sets up users and properties on a data directory before the server starts, with the functions
// the CLI's user:create and property:create call (provision), or runs the CLI itself (runCli).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openMetaStore } from "@lookout/storage";
import { pgliteTemplate } from "@lookout/storage/test-services";
import { addProperty, createUserWithAccount } from "../apps/server/src/accounts/provision.js";
// @ts-expect-error plain ESM script without types
import { SERVER_NODE_ARGS, serverEnv } from "../scripts/bootstrap.mjs";

export const ROOT = resolve(import.meta.dirname, "..");
/** What `npm run lookout` runs (scripts/bootstrap.mjs builds it; the test global setup calls it). */
const CLI_BUNDLE = join(ROOT, "apps/server/dist/cli.mjs");

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  logs: () => string;
  /** SIGTERM and wait for exit; `keepData` leaves the data directory for a restart. */
  stop: (opts?: { keepData?: boolean; signal?: NodeJS.Signals }) => Promise<void>;
  proc: ChildProcess;
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => res(port));
    });
  });
}

export async function startServer(
  opts: { env?: Record<string, string>; dataDir?: string; port?: number } = {},
): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "lookout-e2e-"));
  const adminEmail = "owner@example.com";
  const adminPassword = "correct-horse-battery-staple";
  let out = "";
  // Started as `npm start` starts it (why: see SERVER_NODE_ARGS).
  const proc = spawn(process.execPath, SERVER_NODE_ARGS as string[], {
    cwd: ROOT,
    env: {
      ...serverEnv(),
      PORT: String(port),
      HOST: "127.0.0.1",
      LOOKOUT_DATA_DIR: dataDir,
      LOOKOUT_ADMIN_EMAIL: adminEmail,
      LOOKOUT_ADMIN_PASSWORD: adminPassword,
      LOOKOUT_DEMO: "0",
      LOOKOUT_LOG_LEVEL: "warn",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout?.on("data", (d) => (out += d));
  proc.stderr?.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    adminEmail,
    adminPassword,
    proc,
    logs: () => out,
    stop: async ({ keepData = false, signal = "SIGTERM" } = {}) => {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill(signal);
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      }
      if (!keepData && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the public login call and returns the session the client would store. */
export async function login(server: RunningServer, email = server.adminEmail, password = server.adminPassword) {
  const r = await fetch(`${server.url}/wp-json/custom/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: email, password }),
  });
  if (!r.ok) throw new Error(`login failed: ${r.status} ${await r.text()}`);
  const answer = (await r.json()) as { token: string; accountId: string; accountId2: string; email: string };
  return { ...answer, cookies: r.headers.getSetCookie().map(parseSetCookie) };
}

/** The session and XSRF cookies a login sets, as a browser would keep them. */
export interface LoginCookie {
  name: string;
  value: string;
  httpOnly: boolean;
  sameSite: "Strict" | "Lax" | "None";
}

function parseSetCookie(header: string): LoginCookie {
  const [pair = "", ...attrs] = header.split(";").map((s) => s.trim());
  const eq = pair.indexOf("=");
  const same = attrs
    .find((a) => /^samesite=/i.test(a))
    ?.split("=")[1]
    ?.toLowerCase();
  return {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    httpOnly: attrs.some((a) => a.toLowerCase() === "httponly"),
    sameSite: same === "strict" ? "Strict" : same === "none" ? "None" : "Lax",
  };
}

/** Runs `npm run lookout -- <args>` on a data directory and returns what it printed, trimmed. */
export function runCli(dataDir: string, args: string[]): string {
  return execFileSync(process.execPath, [CLI_BUNDLE, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOOKOUT_DATA_DIR: dataDir, LOOKOUT_LOG_LEVEL: "warn" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
}

export interface ProvisionedUser {
  email: string;
  password: string;
  /** Properties of the user's account, in the order given (UTC, as property:create's default). */
  sites?: { url: string; name: string }[];
}

/**
 * What `user:create` and `property:create` would leave in `dataDir` for each user (the same
 * functions, in this process: each CLI run is a Node process that loads the server bundle and opens
 * PGlite, 3-4 s quiet and over 10 s on a loaded machine); the unique_id of each site, per user.
 */
export async function provision(dataDir: string, users: ProvisionedUser[]): Promise<string[][]> {
  const meta = await openMetaStore({ kind: "pglite", dir: join(dataDir, "meta"), ...pgliteTemplate() });
  try {
    const ids: string[][] = [];
    for (const u of users) {
      const { accountId } = await createUserWithAccount(meta, { email: u.email, password: u.password });
      const mine: string[] = [];
      for (const s of u.sites ?? []) mine.push((await addProperty(meta, accountId, s)).unique_id);
      ids.push(mine);
    }
    return ids;
  } finally {
    await meta.close();
  }
}
