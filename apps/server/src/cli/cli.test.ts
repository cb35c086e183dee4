// The CLI as a person runs it: real processes on a real embedded data directory.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { login, startServer } from "../../../../e2e/harness.js";

// The built CLI, as `npm run lookout` runs it (the test global setup rebuilds it when stale).
const MAIN = resolve(import.meta.dirname, "../../dist/cli.mjs");
const dir = mkdtempSync(join(tmpdir(), "lookout-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], dataDir = dir, env: Record<string, string> = {}) {
  // The snippet's address comes from these: a test sets them itself, never from its surroundings.
  const { LOOKOUT_PUBLIC_URL: _u, PORT: _p, ...inherited } = process.env;
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...inherited, LOOKOUT_DATA_DIR: dataDir, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// Every CLI call is a fresh process: seconds each when the suite loads both cores.
describe("lookout CLI", { timeout: 120_000 }, () => {
  it("creates a user with a generated password, then refuses a duplicate", () => {
    const r = cli(["user:create", "--email", "cli@example.com"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Created user cli@example\.com/);
    expect(r.out).toMatch(/Password \(shown once\): [\w-]{24}/);
    const dup = cli(["user:create", "--email", "CLI@example.com"]);
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/already exists/);
  });

  it("creates a property and prints its unique_id; resets a password", () => {
    const p = cli([
      "property:create",
      "--email",
      "cli@example.com",
      "--url",
      "https://cli.example.com/",
      "--timezone",
      "Asia/Tokyo",
    ]);
    expect(p.code).toBe(0);
    expect(p.out.trim()).toMatch(/^[\w-]{16}$/);
    expect(p.err).toContain(`data-property="${p.out.trim()}"`);
    const r = cli(["user:reset-password", "--email", "cli@example.com", "--password", "a-chosen-password"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/changed/);
  });

  it("prints the snippet with the address the server is reached at: LOOKOUT_PUBLIC_URL, else PORT", () => {
    const args = ["property:create", "--email", "cli@example.com", "--url", "https://snippet.example"];
    const pub = cli(args, dir, { LOOKOUT_PUBLIC_URL: "https://stats.example.org/" });
    expect(pub.code).toBe(0);
    expect(pub.err).toContain(
      `<script defer src="https://stats.example.org/js/script.js" data-property="${pub.out.trim()}"></script>`,
    );
    const port = cli(args, dir, { PORT: "8123" });
    expect(port.code).toBe(0);
    expect(port.err).toContain(`src="http://localhost:8123/js/script.js"`);
    expect(cli(args).err).toContain(`src="http://localhost:3000/js/script.js"`);
  });

  it("generates history for a property, then deletes the property with its data", () => {
    const id = cli(["property:create", "--email", "cli@example.com", "--url", "https://gen.example.com"]).out.trim();
    const g = cli(["generate", "--property", id, "--days", "3", "--visitors", "50", "--seed", "2"]);
    expect(g.code).toBe(0);
    const written = Number(g.out.match(/Wrote (\d+) events over 3 days/)?.[1]);
    expect(written).toBeGreaterThan(100);
    const d = cli(["property:delete", "--property", id]);
    expect(d.code).toBe(0);
    expect(d.out).toMatch(/Deleted gen\.example\.com/);
    expect(cli(["generate", "--property", id]).err).toMatch(/no property/);
  });

  it.each([
    [["generate", "--property", "x", "--days", "0"], /--days must be a whole number/],
    [["generate"], /--property is required/],
    [["user:create"], /--email is required/],
    [["user:create", "--email", "x@y.z", "--bogus", "1"], /Unknown option '--bogus'/],
    [["property:create", "--email", "cli@example.com", "--url", "ftp://x"], /--url must be an http\(s\) URL/],
    [["property:create", "--email", "cli@example.com", "--url", "https://x.y", "--timezone", "Mars/Base"], /IANA timezone/],
    [["user:create", "--email", "short@example.com", "--password", "123"], /at least 10 characters/],
    [["no:such-command"], /unknown command/],
  ])("rejects %j with a clear error and a non-zero exit", (args, message) => {
    const r = cli(args as string[]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(message as RegExp);
  });

  it("says plainly that a running server holds the embedded store", async () => {
    const data = mkdtempSync(join(tmpdir(), "lookout-cli-busy-"));
    const server = await startServer({ dataDir: data, env: { LOOKOUT_DEMO: "0" } });
    try {
      const r = cli(["user:create", "--email", "busy@example.com"], data);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/in use by another Lookout process \(pid \d+\)/);
    } finally {
      await server.stop();
      rmSync(data, { recursive: true, force: true });
    }
    // Once the server has stopped, the CLI works on the same data.
    expect(cli(["user:create", "--email", "after@example.com"], data).code).toBe(0);
    rmSync(data, { recursive: true, force: true });
  });

  it("prints the snippet with the address the owner signed in from when LOOKOUT_PUBLIC_URL is unset", async () => {
    const data = mkdtempSync(join(tmpdir(), "lookout-cli-recorded-"));
    const owner = { email: "owner@example.com", password: "correct-horse-battery-staple" };
    cli(["user:create", "--email", owner.email, "--password", owner.password], data);
    const server = await startServer({ dataDir: data, env: { LOOKOUT_DEMO: "0" } });
    try {
      // The owner's first sign-in records the address e-mailed links (and now the snippet) use.
      await login(server, owner.email, owner.password);
    } finally {
      await server.stop();
    }
    try {
      const p = cli(["property:create", "--email", owner.email, "--url", "https://rec.example"], data, { PORT: "8123" });
      expect(p.code).toBe(0);
      expect(p.err).toContain(`src="${server.url}/js/script.js"`);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it("generate --live sends simulated visitors through a running server's collector", async () => {
    const data = mkdtempSync(join(tmpdir(), "lookout-cli-live-"));
    cli(["user:create", "--email", "owner@example.com", "--password", "correct-horse-battery-staple"], data);
    const id = cli(["property:create", "--email", "owner@example.com", "--url", "https://live.example.com"], data).out.trim();
    const server = await startServer({ dataDir: data, env: { LOOKOUT_TRUSTED_PROXIES: "127.0.0.1" } });
    try {
      // The data directory is the server's: --live must not need it.
      const sim = spawn(
        process.execPath,
        [MAIN, "generate", "--property", id, "--live", "--url", server.url, "--concurrent", "20"],
        {
          env: { ...process.env, LOOKOUT_DATA_DIR: data },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let out = "";
      sim.stdout.on("data", (d) => (out += d));
      const { token } = await login(server);
      let live = 0;
      // The simulator staggers arrivals, and a loaded machine starts processes slowly: allow 40 s.
      for (let i = 0; i < 160 && live === 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const r = await fetch(`${server.url}/api/v1/stats/realtime/visitors?property_id=${id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        live = (await r.json()) as number;
      }
      const exited = new Promise<number | null>((r) => sim.once("exit", (code) => r(code)));
      sim.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(out).toMatch(/Simulating about 20 visitors/);
      expect(live).toBeGreaterThan(0);
    } finally {
      await server.stop();
      rmSync(data, { recursive: true, force: true });
    }
  });
});
