// The throttles over the in-process shared state (the rules themselves are the SharedState
// conformance suite's, which Redis passes too); here: names keep throttles apart, and a shared
// state that fails answers 503, never an unthrottled pass.
import { memorySharedState, type SharedState } from "@lookout/storage";
import { describe, expect, it } from "vitest";
import { DomainError } from "../http/domain-errors.js";
import { Remembered, Throttle } from "./throttle.js";

describe("Throttle", () => {
  it("allows `limit` hits per sliding window, then answers the wait until the oldest one leaves it", async () => {
    const t = new Throttle(memorySharedState(), "t", { limit: 2, windowMs: 1000 });
    expect(await t.hit("a", 0)).toBe(0);
    expect(await t.hit("a", 400)).toBe(0);
    expect(await t.hit("a", 500)).toBe(500);
    expect(await t.count("a", 500)).toBe(2);
    expect(await t.hit("a", 1000)).toBe(0); // the hit at 0 has left the window
    expect(await t.hit("b", 1000)).toBe(0);
  });

  it("takes back the latest hit and forgets a key on reset", async () => {
    const t = new Throttle(memorySharedState(), "t", { limit: 1, windowMs: 1000 });
    await t.hit("a", 0);
    await t.undo("a");
    expect(await t.hit("a", 1)).toBe(0);
    await t.reset("a");
    expect(await t.count("a", 2)).toBe(0);
  });

  it("keeps throttles of different names apart on one shared state", async () => {
    const state = memorySharedState();
    const login = new Throttle(state, "login", { limit: 1, windowMs: 1000 });
    const recover = new Throttle(state, "recover", { limit: 1, windowMs: 1000 });
    expect(await login.hit("x", 0)).toBe(0);
    expect(await recover.hit("x", 0)).toBe(0);
    expect(await login.hit("x", 1)).toBeGreaterThan(0);
  });

  it("answers service_unavailable when the shared state fails", async () => {
    const broken = { ...memorySharedState(), hit: () => Promise.reject(new Error("Connection is closed.")) } as SharedState;
    const err = await new Throttle(broken, "t", { limit: 1, windowMs: 1000 }).hit("a").catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe("service_unavailable");
  });
});

describe("Remembered", () => {
  it("remembers a key for its time to live", async () => {
    const r = new Remembered(memorySharedState(), "r", 30);
    await r.add("pair", 0);
    expect(await r.has("pair", 10)).toBe(true);
    expect(await r.has("other", 10)).toBe(false);
    expect(await r.has("pair", 40)).toBe(false);
  });
});
