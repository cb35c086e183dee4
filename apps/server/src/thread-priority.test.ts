// Real threads of this process, their priorities read back from the kernel.
import { readdirSync } from "node:fs";
import { getPriority } from "node:os";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { BACKGROUND_NICE, lowerBackgroundThreads } from "./thread-priority.js";

describe.runIf(process.platform === "linux")("background thread priority", () => {
  // A worker that stays alive until terminated, started by the main thread (so at its priority).
  const worker = new Worker("setInterval(() => {}, 1000)", { eval: true });
  afterAll(() => worker.terminate());

  it("lowers every thread but the main one, and leaves the main thread as it was", async () => {
    await new Promise((r) => worker.once("online", r));
    const before = getPriority(process.pid);
    expect(lowerBackgroundThreads()).toBeGreaterThan(0);
    const tids = readdirSync("/proc/self/task").map(Number);
    expect(tids.length).toBeGreaterThan(2);
    for (const tid of tids) {
      if (tid === process.pid) expect(getPriority(tid)).toBe(before);
      else expect(getPriority(tid), `thread ${tid}`).toBeGreaterThanOrEqual(Math.min(19, before + BACKGROUND_NICE));
    }
    // Already low: nothing left to change.
    expect(lowerBackgroundThreads()).toBe(0);
  });
});
