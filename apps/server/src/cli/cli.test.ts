// The CLI as a person runs it: real processes on a real embedded data directory.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../../../e2e/harness.js";

const MAIN = resolve(import.meta.dirname, "main.ts");
const dir = mkdtempSync(join(tmpdir(), "lookout-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], dataDir = dir) {
  const r = spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], {
    env: { ...process.env, LOOKOUT_DATA_DIR: dataDir },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("lookout CLI", () => {
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

  it.each([
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
    const server = await startServer({ dataDir: data });
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
});
