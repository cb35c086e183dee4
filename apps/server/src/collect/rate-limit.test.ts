import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./rate-limit.js";

describe("TokenBuckets", () => {
  it("allows a burst, then refills at the sustained rate", () => {
    const b = new TokenBuckets({ perSecond: 10, burst: 3 });
    expect([b.take("k", 0), b.take("k", 0), b.take("k", 0)]).toEqual([0, 0, 0]);
    expect(b.take("k", 0)).toBe(100);
    expect(b.take("k", 100)).toBe(0);
    expect(b.take("other", 100)).toBe(0);
  });

  it("bounds the number of keys it remembers", () => {
    const b = new TokenBuckets({ perSecond: 1, burst: 1 }, 2);
    b.take("a", 0);
    b.take("b", 0);
    b.take("c", 0);
    expect(b.take("a", 0)).toBe(0);
  });
});
