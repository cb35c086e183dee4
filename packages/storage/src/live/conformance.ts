// The LiveBus conformance suite: the in-process and the Redis bus run exactly these tests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveBus } from "./live-bus.js";

const waitFor = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** `open` may be called twice: two handles on the same bus stand for two server processes. */
export function liveBusConformance(name: string, open: () => Promise<LiveBus>, shared: boolean) {
  describe(`LiveBus conformance: ${name}`, () => {
    let a: LiveBus;
    let b: LiveBus;
    beforeAll(async () => {
      a = await open();
      b = shared ? await open() : a;
    });
    afterAll(async () => {
      await a?.close();
      if (b !== a) await b?.close();
    });

    it("delivers JSON messages to every subscriber of a channel, in order", async () => {
      const got1: unknown[] = [];
      const got2: unknown[] = [];
      const ch = `c-${Date.now()}`;
      const u1 = await a.subscribe(ch, (m) => got1.push(m));
      const u2 = await b.subscribe(ch, (m) => got2.push(m));
      for (let i = 0; i < 50; i++) await a.publish(ch, { i, s: "x" });
      await waitFor(() => got1.length === 50 && got2.length === 50);
      expect(got1).toEqual(Array.from({ length: 50 }, (_, i) => ({ i, s: "x" })));
      expect(got2).toEqual(got1);
      u1();
      u2();
    });

    it("keeps channels apart and stops after unsubscribe", async () => {
      const got: unknown[] = [];
      const ch = `k-${Date.now()}`;
      const un = await b.subscribe(ch, (m) => got.push(m));
      await a.publish(`${ch}-other`, 1);
      await a.publish(ch, 2);
      await waitFor(() => got.length === 1);
      un();
      await a.publish(ch, 3);
      await new Promise((r) => setTimeout(r, 50));
      expect(got).toEqual([2]);
    });

    it("delivers a copy, not the publisher's object", async () => {
      const ch = `o-${Date.now()}`;
      let got: { n: number } | undefined;
      const un = await b.subscribe(ch, (m) => (got = m as { n: number }));
      const sent = { n: 1 };
      await a.publish(ch, sent);
      sent.n = 2;
      await waitFor(() => got !== undefined);
      expect(got).toEqual({ n: 1 });
      un();
    });
  });
}
