import { describe, expect, it } from "vitest";
import { Remembered, Throttle } from "./throttle.js";

describe("Throttle", () => {
  it("allows `limit` hits per sliding window, then answers the wait until the oldest one leaves it", () => {
    const t = new Throttle({ limit: 2, windowMs: 1000 });
    expect(t.hit("a", 0)).toBe(0);
    expect(t.hit("a", 400)).toBe(0);
    expect(t.hit("a", 500)).toBe(500);
    expect(t.count("a", 500)).toBe(2);
    expect(t.hit("a", 1000)).toBe(0); // the hit at 0 has left the window
    expect(t.hit("b", 1000)).toBe(0);
  });

  it("takes back the latest hit and forgets a key on reset", () => {
    const t = new Throttle({ limit: 1, windowMs: 1000 });
    t.hit("a", 0);
    t.undo("a");
    expect(t.hit("a", 1)).toBe(0);
    t.reset("a");
    expect(t.count("a", 2)).toBe(0);
  });

  it("keeps at most maxKeys keys, forgetting the least recently hit", () => {
    const t = new Throttle({ limit: 1, windowMs: 60_000 }, 2);
    t.hit("a", 0);
    t.hit("b", 1);
    t.hit("a", 2); // refused: "a" is not hit again, so it stays the least recent
    t.hit("c", 3);
    expect(t.count("a", 4)).toBe(0);
    expect(t.count("b", 4)).toBe(1);
    expect(t.count("c", 4)).toBe(1);
  });
});

describe("Remembered", () => {
  it("remembers a key for its time to live", async () => {
    const r = new Remembered(30);
    r.add("pair");
    expect(r.has("pair")).toBe(true);
    expect(r.has("other")).toBe(false);
    await new Promise((done) => setTimeout(done, 60));
    expect(r.has("pair")).toBe(false);
  });

  it("keeps at most maxKeys keys", () => {
    const r = new Remembered(60_000, 2);
    r.add("a");
    r.add("b");
    r.add("c");
    expect([r.has("a"), r.has("b"), r.has("c")]).toEqual([false, true, true]);
  });
});
