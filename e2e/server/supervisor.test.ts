// `npm start`'s supervisor (scripts/supervisor.mjs): a crashed server is started again with the
// cause logged, a start that fails is not retried, a crash loop is given up on; and the real
// `npm start` brings the server back after it is killed, then stops cleanly on SIGTERM.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CRASH_EXIT_CODE as SERVER_CRASH_CODE } from "../../apps/server/src/process-guard.js";
// @ts-expect-error plain ESM script without types
import { CRASH_EXIT_CODE, supervise } from "../../scripts/supervisor.mjs";
import { freePort, ROOT } from "../harness";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "lookout-supervisor-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A child that crashes (or exits with `code`) on its first run and exits 0 on its second. */
const onceThen = (marker: string, code: number) =>
  `const fs=require("fs");if(fs.existsSync(${JSON.stringify(marker)}))process.exit(0);fs.writeFileSync(${JSON.stringify(marker)},"");process.exit(${code});`;

describe("supervisor", () => {
  it("uses the server's crash exit code", () => {
    expect(CRASH_EXIT_CODE).toBe(SERVER_CRASH_CODE);
  });

  it("starts a crashed server again and says why", async () => {
    const lines: string[] = [];
    let runs = 0;
    const code = await supervise({
      command: process.execPath,
      args: ["-e", onceThen(join(tmp(), "m"), CRASH_EXIT_CODE)],
      stdio: "ignore",
      log: (m: string) => lines.push(m),
      restartDelayMs: 10,
      onChild: () => runs++,
    });
    expect(code).toBe(0);
    expect(runs).toBe(2);
    expect(lines.join("\n")).toMatch(/crashed \(exit code 70/);
  });

  it("does not retry a start that failed, and gives up on a crash loop", async () => {
    let runs = 0;
    const failed = await supervise({
      command: process.execPath,
      args: ["-e", "process.exit(1)"],
      stdio: "ignore",
      log: () => {},
      onChild: () => runs++,
    });
    expect([failed, runs]).toEqual([1, 1]);

    runs = 0;
    const lines: string[] = [];
    const looping = await supervise({
      command: process.execPath,
      args: ["-e", `process.exit(${CRASH_EXIT_CODE})`],
      stdio: "ignore",
      log: (m: string) => lines.push(m),
      restartDelayMs: 5,
      maxQuickCrashes: 3,
      onChild: () => runs++,
    });
    expect([looping, runs]).toEqual([1, 3]);
    expect(lines.at(-1)).toMatch(/giving up/);
  });

  it("npm start brings a killed server back, then stops on SIGTERM", async () => {
    const port = await freePort();
    const dataDir = tmp();
    let out = "";
    const start = spawn(process.execPath, [join(ROOT, "scripts/start.mjs")], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOOKOUT_DATA_DIR: dataDir,
        LOOKOUT_ADMIN_EMAIL: "owner@example.com",
        LOOKOUT_ADMIN_PASSWORD: "correct-horse-battery-staple",
        LOOKOUT_DEMO: "0",
        LOOKOUT_LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    start.stdout?.on("data", (d) => (out += d));
    start.stderr?.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((r) => start.once("exit", (c) => r(c)));
    const healthy = async () => {
      for (let i = 0; i < 600; i++) {
        if (start.exitCode !== null) throw new Error(`npm start exited (${start.exitCode}):\n${out}`);
        try {
          if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
        } catch {}
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`not healthy:\n${out}`);
    };
    const serverPid = () =>
      Number(
        execFileSync("pgrep", ["-P", String(start.pid)], { encoding: "utf8" })
          .trim()
          .split("\n")[0],
      );
    try {
      await healthy();
      const first = serverPid();
      process.kill(first, "SIGKILL");
      await new Promise((r) => setTimeout(r, 200));
      await healthy();
      const second = serverPid();
      expect(second).not.toBe(first);
      expect(out).toMatch(/the server was ended by SIGKILL; starting it again/);
      start.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(existsSync(join(dataDir, "events.duckdb"))).toBe(true);
    } finally {
      if (start.exitCode === null) start.kill("SIGKILL");
    }
  }, 120_000);
});
