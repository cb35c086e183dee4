import { describe, expect, it } from "vitest";
import { GroupCommitQueue, QueueClosedError, QueueFullError } from "./group-commit.js";

function recorder(delayMs = 5) {
  const batches: number[][] = [];
  let fail = false;
  const write = async (batch: number[]) => {
    await new Promise((r) => setTimeout(r, delayMs));
    if (fail) throw new Error("disk on fire");
    batches.push([...batch]);
  };
  return { batches, write, failNext: (v: boolean) => (fail = v) };
}

describe("GroupCommitQueue", () => {
  it("groups rows that arrive during a write into the next batch", async () => {
    const r = recorder();
    const q = new GroupCommitQueue(r.write, { maxDelayMs: 1 });
    await Promise.all(Array.from({ length: 100 }, (_, i) => q.push([i])));
    expect(r.batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(r.batches.length).toBeLessThan(10);
    expect(q.pending).toBe(0);
  });

  it("resolves a push only after its batch was written", async () => {
    const r = recorder(20);
    const q = new GroupCommitQueue(r.write, { maxDelayMs: 0 });
    let done = false;
    const p = q.push([1]).then(() => (done = true));
    await new Promise((res) => setTimeout(res, 5));
    expect(done).toBe(false);
    await p;
    expect(r.batches).toEqual([[1]]);
  });

  it("caps batch size", async () => {
    const r = recorder(1);
    const q = new GroupCommitQueue(r.write, { maxBatch: 10, maxDelayMs: 1 });
    await Promise.all(Array.from({ length: 35 }, (_, i) => q.push([i])));
    expect(Math.max(...r.batches.map((b) => b.length))).toBeLessThanOrEqual(10);
    expect(r.batches.flat()).toHaveLength(35);
  });

  it("rejects every push of a failed batch and keeps working", async () => {
    const r = recorder();
    const q = new GroupCommitQueue(r.write, { maxDelayMs: 1 });
    r.failNext(true);
    const results = await Promise.allSettled([q.push([1]), q.push([2])]);
    expect(results.every((x) => x.status === "rejected")).toBe(true);
    r.failNext(false);
    await q.push([3]);
    expect(r.batches).toEqual([[3]]);
  });

  it("refuses past maxPending instead of growing", async () => {
    const r = recorder(30);
    const q = new GroupCommitQueue(r.write, { maxPending: 5, maxDelayMs: 0 });
    const ok = q.push([1, 2, 3, 4, 5]);
    await expect(q.push([6])).rejects.toBeInstanceOf(QueueFullError);
    await ok;
    await q.push([7]);
  });

  it("drains everything accepted, then refuses", async () => {
    const r = recorder(3);
    const q = new GroupCommitQueue(r.write, { maxDelayMs: 50 });
    const pushes = Array.from({ length: 20 }, (_, i) => q.push([i]));
    await q.drain();
    await Promise.all(pushes);
    expect(r.batches.flat()).toHaveLength(20);
    await expect(q.push([99])).rejects.toBeInstanceOf(QueueClosedError);
  });
});
