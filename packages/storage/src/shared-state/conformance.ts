// The SharedState conformance suite: the in-process and the Redis adapter run exactly these tests.
// With `shared`, `open` is called twice and the two handles stand for two servers: what one
// records, the other must see, and their races must resolve as one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SharedState } from "./shared-state.js";

const MIN = 60_000;
const T0 = Date.UTC(2025, 2, 1, 12);

export function sharedStateConformance(name: string, open: () => Promise<SharedState>, shared: boolean) {
  describe(`SharedState conformance: ${name}`, () => {
    let a: SharedState;
    let b: SharedState;
    beforeAll(async () => {
      a = await open();
      b = shared ? await open() : a;
    });
    afterAll(async () => {
      await a?.close();
      if (b !== a) await b?.close();
    });
    // A fresh key per test: adapters share nothing between tests but the store.
    const key = (label: string) => `${label}-${randomUUID()}`;

    describe("sliding windows", () => {
      const rule = { limit: 3, windowMs: 10 * MIN };
      it("allows `limit` hits per window, then answers the wait until the oldest leaves it", async () => {
        const k = key("w");
        expect(await a.hit(k, rule, T0)).toBe(0);
        expect(await b.hit(k, rule, T0 + 1000)).toBe(0);
        expect(await a.hit(k, rule, T0 + 2000)).toBe(0);
        expect(await b.hit(k, rule, T0 + 3000)).toBe(rule.windowMs - 3000);
        // A refused hit is not recorded.
        expect(await a.count(k, rule, T0 + 3000)).toBe(3);
        // The first hit leaves the window: one more is allowed.
        expect(await a.hit(k, rule, T0 + rule.windowMs + 1)).toBe(0);
        expect(await b.hit(k, rule, T0 + rule.windowMs + 2)).toBeGreaterThan(0);
      });

      it("takes back the latest hit, and forgets a key on reset", async () => {
        const k = key("w");
        for (let i = 0; i < 3; i++) await a.hit(k, rule, T0 + i);
        await b.undo(k);
        expect(await a.count(k, rule, T0 + 10)).toBe(2);
        expect(await b.hit(k, rule, T0 + 10)).toBe(0);
        await a.reset(k);
        expect(await b.count(k, rule, T0 + 10)).toBe(0);
        // Undoing a key with no hits is harmless.
        await a.undo(k);
        expect(await a.count(k, rule, T0 + 10)).toBe(0);
      });

      it("counts parallel hits from both handles exactly: never more than the limit pass", async () => {
        const k = key("w");
        const many = { limit: 25, windowMs: 10 * MIN };
        const waits = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).hit(k, many, T0 + i)));
        expect(waits.filter((w) => w === 0)).toHaveLength(25);
        expect(await a.count(k, many, T0 + 60)).toBe(25);
      });

      it("keeps keys apart", async () => {
        const [k1, k2] = [key("w"), key("w")];
        for (let i = 0; i < 3; i++) await a.hit(k1, rule, T0);
        expect(await b.hit(k2, rule, T0)).toBe(0);
      });
    });

    describe("token buckets", () => {
      const rule = { perSecond: 2, burst: 4 };
      it("allows a burst, then refills at the rate, and answers the wait", async () => {
        const k = key("b");
        for (let i = 0; i < 4; i++) expect(await (i % 2 ? a : b).take(k, rule, T0)).toBe(0);
        expect(await a.take(k, rule, T0)).toBe(500);
        expect(await b.take(k, rule, T0 + 250)).toBe(250);
        expect(await a.take(k, rule, T0 + 500)).toBe(0);
        expect(await b.take(k, rule, T0 + 500)).toBe(500);
        // Refills up to the burst, never past it.
        for (let i = 0; i < 4; i++) expect(await a.take(k, rule, T0 + 60_000)).toBe(0);
        expect(await b.take(k, rule, T0 + 60_000)).toBeGreaterThan(0);
      });

      it("a clock behind the bucket's (another server's) refills nothing", async () => {
        const k = key("b");
        for (let i = 0; i < 4; i++) await a.take(k, rule, T0 + 10_000);
        expect(await b.take(k, rule, T0)).toBeGreaterThan(0);
        expect(await a.take(k, rule, T0 + 10_500)).toBe(0);
      });

      it("hands out exactly the burst to parallel takers", async () => {
        const k = key("b");
        const burst = { perSecond: 1, burst: 30 };
        const waits = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).take(k, burst, T0)));
        expect(waits.filter((w) => w === 0)).toHaveLength(30);
      });
    });

    describe("marks", () => {
      it("holds a mark for its lifetime, on every handle", async () => {
        const k = key("m");
        const now = Date.now();
        expect(await b.marked(k, now)).toBe(false);
        await a.mark(k, 60 * MIN, now);
        expect(await b.marked(k, now + 1)).toBe(true);
        expect(await a.marked(key("m"), now)).toBe(false);
      });

      it("forgets a mark once its lifetime is over", async () => {
        const k = key("m");
        await a.mark(k, 40, Date.now());
        await new Promise((r) => setTimeout(r, 80));
        expect(await b.marked(k, Date.now())).toBe(false);
      });
    });

    describe("visits", () => {
      const TIMEOUT = 30 * MIN;
      const at = (minutes: number) => T0 + minutes * MIN;
      it("keeps a visit across gaps under the time-out, from either handle, and starts a new one after", async () => {
        const k = key("v");
        const v1 = await a.visit(k, at(0), TIMEOUT, randomUUID);
        expect(await b.visit(k, at(29), TIMEOUT, randomUUID)).toBe(v1);
        expect(await a.visit(k, at(58), TIMEOUT, randomUUID)).toBe(v1);
        const v2 = await b.visit(k, at(88), TIMEOUT, randomUUID);
        expect(v2).not.toBe(v1);
        // Exactly the time-out: a new visit.
        expect(await a.visit(k, at(118), TIMEOUT, randomUUID)).not.toBe(v2);
      });

      it("puts a slightly late event into the visit and does not let a very late one rewind it", async () => {
        const k = key("v");
        const v = await a.visit(k, at(10), TIMEOUT, randomUUID);
        expect(await b.visit(k, at(5), TIMEOUT, randomUUID)).toBe(v);
        expect(await a.visit(k, at(-60), TIMEOUT, randomUUID)).not.toBe(v);
        expect(await b.visit(k, at(20), TIMEOUT, randomUUID)).toBe(v);
      });

      it("assigns one visit to events racing from both handles", async () => {
        const k = key("v");
        const ids = await Promise.all(
          Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).visit(k, at(i % 5), TIMEOUT, randomUUID)),
        );
        expect(new Set(ids).size).toBe(1);
      });

      it("seeds a visit unless a newer one is known", async () => {
        const [k, old] = [key("v"), key("v")];
        await a.seedVisit(k, "warm-1", at(0), TIMEOUT);
        expect(await b.visit(k, at(10), TIMEOUT, randomUUID)).toBe("warm-1");
        await b.seedVisit(k, "stale", at(-5), TIMEOUT);
        expect(await a.visit(k, at(12), TIMEOUT, randomUUID)).toBe("warm-1");
        await a.seedVisit(old, "warm-2", at(-40), TIMEOUT);
        expect(await b.visit(old, at(0), TIMEOUT, randomUUID)).not.toBe("warm-2");
      });

      it("keeps visitors apart", async () => {
        const ids = await Promise.all([key("v"), key("v"), key("v")].map((k) => a.visit(k, at(0), TIMEOUT, randomUUID)));
        expect(new Set(ids).size).toBe(3);
      });
    });
  });
}
