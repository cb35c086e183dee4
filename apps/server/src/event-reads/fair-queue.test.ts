import { describe, expect, it } from "vitest";
import { FairQueue, QueueFullError } from "./fair-queue.js";

/** A call whose end the test decides. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("FairQueue", () => {
  it("refuses a call past maxWaiting for its key, not for other keys", async () => {
    const q = new FairQueue(1, 2);
    const g = gate();
    const running = [q.run("a", () => g.opened), q.run("a", () => g.opened), q.run("a", () => g.opened)];
    await expect(q.run("a", async () => 1)).rejects.toBeInstanceOf(QueueFullError);
    expect(await q.run("b", async () => 2)).toBe(2);
    g.open();
    await Promise.all(running);
    expect(await q.run("a", async () => 3)).toBe(3);
  });

  it("runs at most perKey calls of a key at once, the rest in call order", async () => {
    const q = new FairQueue(2);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const done = gates.map((g, i) =>
      q.run("a", async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(q.load("a")).toEqual({ running: 2, waiting: 3 });
    gates[1]?.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.open();
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3, 4]);
    expect(q.load("a")).toEqual({ running: 0, waiting: 0 });
  });

  it("never holds up another key", async () => {
    const q = new FairQueue(1);
    const a = gate();
    const busy = q.run("a", () => a.opened);
    const queued = q.run("a", async () => "a2");
    expect(await q.run("b", async () => "b")).toBe("b");
    expect(q.load("a")).toEqual({ running: 1, waiting: 1 });
    a.open();
    await busy;
    expect(await queued).toBe("a2");
  });

  it("a failing call frees its slot", async () => {
    const q = new FairQueue(1);
    await expect(q.run("a", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(
      q.run("a", () => {
        throw new Error("sync boom");
      }),
    ).rejects.toThrow("sync boom");
    expect(await q.run("a", async () => 1)).toBe(1);
    expect(q.load("a")).toEqual({ running: 0, waiting: 0 });
  });
});
