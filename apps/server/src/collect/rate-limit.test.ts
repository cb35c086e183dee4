// The collector's buckets over the shared state (the bucket rules are the SharedState conformance
// suite's): synchronous in-process, names kept apart, and a failing Redis lets events through.
import { memorySharedState, type SharedState } from "@lookout/storage";
import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./rate-limit.js";

describe("TokenBuckets", () => {
  it("allows a burst, then refills at the sustained rate, answering synchronously in-process", () => {
    const b = new TokenBuckets(memorySharedState(), "ip", { perSecond: 10, burst: 3 });
    expect([b.take("k", 0), b.take("k", 0), b.take("k", 0)]).toEqual([0, 0, 0]);
    expect(b.take("k", 0)).toBe(100);
    expect(b.take("k", 100)).toBe(0);
    expect(b.take("other", 100)).toBe(0);
  });

  it("bounds the number of keys it remembers", () => {
    const b = new TokenBuckets(memorySharedState({ maxKeys: 2 }), "ip", { perSecond: 1, burst: 1 });
    b.take("a", 0);
    b.take("b", 0);
    b.take("c", 0);
    expect(b.take("a", 0)).toBe(0);
  });

  it("keeps buckets of different names apart", () => {
    const state = memorySharedState();
    const ip = new TokenBuckets(state, "ip", { perSecond: 1, burst: 1 });
    const property = new TokenBuckets(state, "property", { perSecond: 1, burst: 1 });
    expect([ip.take("k", 0), property.take("k", 0), ip.take("k", 0)]).toEqual([0, 0, 1000]);
  });

  it("lets events through while the shared state fails (collection never depends on Redis)", async () => {
    const broken = { ...memorySharedState(), take: () => Promise.reject(new Error("Connection is closed.")) } as SharedState;
    expect(await new TokenBuckets(broken, "ip", { perSecond: 1, burst: 1 }).take("k", 0)).toBe(0);
  });
});
