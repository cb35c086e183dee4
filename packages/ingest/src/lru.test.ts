import { describe, expect, it } from "vitest";
import { LruMap } from "./lru.js";

describe("LruMap", () => {
  it("evicts the least recently used, where get and set count as use and peek does not", () => {
    const m = new LruMap<string, number>(3);
    m.set("a", 1);
    m.set("b", 2);
    m.set("c", 3);
    expect(m.get("a")).toBe(1);
    expect(m.peek("b")).toBe(2);
    m.set("d", 4);
    expect([...m.values()]).toEqual([3, 1, 4]);
    expect(m.peek("b")).toBeUndefined();
    m.set("c", 30);
    expect(m.oldest()).toBe(1);
    expect([...m.values()]).toEqual([1, 4, 30]);
    expect(m.delete("d")).toBe(true);
    expect(m.delete("d")).toBe(false);
    expect([...m.values()]).toEqual([1, 30]);
    expect(m.size).toBe(2);
    m.clear();
    expect(m.oldest()).toBeUndefined();
    expect([...m.values()]).toEqual([]);
  });
});
