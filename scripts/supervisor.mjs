// `npm start`'s supervisor: runs the server as a child and starts it again when it crashes (the
// server exits with CRASH_EXIT_CODE after logging an uncaught exception, see
// apps/server/src/process-guard.ts, or a signal it did not ask for ends it, such as the kernel's
// OOM kill). A start that fails (bad configuration, a busy data directory: exit code 1 or 2) is
// not retried, and a server that keeps crashing soon after starting is given up on, so a fault
// that comes back at once does not loop forever.
import { spawn } from "node:child_process";

/** apps/server/src/process-guard.ts CRASH_EXIT_CODE. */
export const CRASH_EXIT_CODE = 70;

/**
 * Runs `command args` until it exits for good; resolves with the exit code to leave with.
 * `restartDelayMs` doubles after each crash up to 30 s and resets once a run lasted `stableMs`.
 */
export function supervise({
  command,
  args,
  env = process.env,
  cwd = process.cwd(),
  stdio = "inherit",
  log = (m) => process.stderr.write(`[lookout] ${m}\n`),
  restartDelayMs = 1000,
  stableMs = 60_000,
  maxQuickCrashes = 5,
  onChild = () => {},
}) {
  return new Promise((resolve) => {
    let stopping = null;
    let child = null;
    let delay = restartDelayMs;
    let quickCrashes = 0;
    const forward = (sig) => {
      stopping = sig;
      if (child) child.kill(sig);
      else resolve(0);
    };
    const onSignal = { SIGINT: () => forward("SIGINT"), SIGTERM: () => forward("SIGTERM") };
    for (const [sig, fn] of Object.entries(onSignal)) process.on(sig, fn);
    const finish = (code) => {
      for (const [sig, fn] of Object.entries(onSignal)) process.off(sig, fn);
      resolve(code);
    };

    const start = () => {
      const startedAt = Date.now();
      child = spawn(command, args, { cwd, env, stdio });
      onChild(child);
      child.on("exit", (code, signal) => {
        child = null;
        if (stopping) return finish(code ?? 0);
        const crashed = code === CRASH_EXIT_CODE || (code === null && signal !== null);
        if (!crashed) return finish(code ?? 1);
        const ranMs = Date.now() - startedAt;
        if (ranMs >= stableMs) {
          delay = restartDelayMs;
          quickCrashes = 0;
        } else if (++quickCrashes >= maxQuickCrashes) {
          log(`the server crashed ${quickCrashes} times within ${Math.round(stableMs / 1000)} s of starting; giving up`);
          return finish(1);
        }
        const cause = signal ? `was ended by ${signal}` : `crashed (exit code ${code}; its log above says why)`;
        log(`the server ${cause}; starting it again in ${Math.round(delay / 100) / 10} s`);
        setTimeout(() => (stopping ? finish(0) : start()), delay);
        delay = Math.min(delay * 2, 30_000);
      });
    };
    start();
  });
}
