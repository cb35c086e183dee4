// The job queue on PGlite and on PostgreSQL: the same tests on both engines. Time is a fake clock
// injected into the queue, so backoffs and lock expiries are stepped through, not waited for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaStore } from "../meta/meta-store.js";
import { backoffMs, type JobQueue } from "./job-queue.js";
import { createJobQueue } from "./sql-job-queue.js";
import { fakeClock, type TestDatabase, testEngines } from "./test-engines.js";

type P = { n: number };
const MIN = 60_000;

describe("backoffMs", () => {
  it("doubles from the base, jitters into [half, all], and is capped", () => {
    expect(backoffMs(1, {}, () => 0)).toBe(15_000);
    expect(backoffMs(1, {}, () => 0.999_999)).toBe(30_000);
    expect(backoffMs(3, {}, () => 0)).toBe(60_000);
    expect(backoffMs(30, { maxMs: 3_600_000 }, () => 0)).toBe(1_800_000);
    expect(backoffMs(30, { maxMs: 3_600_000 }, () => 0.999_999)).toBeLessThanOrEqual(3_600_000);
    for (let i = 0; i < 50; i++) {
      const d = backoffMs(2);
      expect(d).toBeGreaterThanOrEqual(30_000);
      expect(d).toBeLessThanOrEqual(60_000);
    }
  });
});

for (const engine of testEngines()) {
  describe(`JobQueue on ${engine.name}`, () => {
    let db: TestDatabase;
    let store: MetaStore;
    beforeAll(async () => {
      db = await engine.fresh();
      store = await db.open();
    });
    afterAll(async () => {
      await store?.close();
    });
    const queue = (clock = fakeClock(), random = () => 0) =>
      ({ clock, q: createJobQueue<Record<string, P>>(store.db, { clock: clock.now, random }) }) as const;

    it("enqueues, claims once, and completes", async () => {
      const { clock, q } = queue();
      const a = await q.enqueue({ name: "basic.a", payload: { n: 1 } });
      const later = await q.enqueue({ name: "basic.a", payload: { n: 2 }, runAt: new Date(clock.now().getTime() + MIN) });
      await q.enqueue({ name: "basic.other", payload: { n: 3 } });
      expect(a.created).toBe(true);

      const [job, ...rest] = await q.claim("w1", ["basic.a"], MIN, 10);
      expect(rest).toEqual([]);
      expect(job).toMatchObject({ id: a.id, name: "basic.a", payload: { n: 1 }, state: "running", attempts: 1, lockedBy: "w1" });
      expect(job?.lockedUntil?.getTime()).toBe(clock.now().getTime() + MIN);
      expect(await q.claim("w2", ["basic.a"], MIN, 10)).toEqual([]);

      expect(await q.complete(a.id, "w1")).toBe(true);
      expect(await q.complete(a.id, "w1")).toBe(false);
      const done = await q.get(a.id);
      expect(done).toMatchObject({ state: "done", lockedUntil: null });
      expect(done?.finishedAt?.getTime()).toBe(clock.now().getTime());

      clock.advance(MIN);
      expect((await q.claim("w2", ["basic.a"], MIN, 10)).map((j) => j.id)).toEqual([later.id]);
    });

    it("enqueues a keyed job once, even concurrently, until it is purged", async () => {
      const { clock, q } = queue();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => q.enqueue({ name: "keyed", payload: { n: i }, key: "report:p1:2026-02" })),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      const [job] = await q.claim("w", ["keyed"], MIN, 10);
      await q.complete(job!.id, "w");
      expect(await q.enqueue({ name: "keyed", payload: { n: 9 }, key: "report:p1:2026-02" })).toEqual({
        id: job!.id,
        created: false,
      });
      expect(await q.claim("w", ["keyed"], MIN, 10)).toEqual([]);

      clock.advance(1);
      expect(await q.purge(clock.now())).toBeGreaterThanOrEqual(1);
      expect((await q.enqueue({ name: "keyed", payload: { n: 10 }, key: "report:p1:2026-02" })).created).toBe(true);
    });

    it("retries with exponential backoff, then fails after the last attempt", async () => {
      const { clock, q } = queue(fakeClock(), () => 0); // jitter 0: exactly half of base * 2^(n-1)
      const { id } = await q.enqueue({ name: "retry", payload: { n: 1 }, maxAttempts: 3 });
      const expected = [15_000, 30_000];
      for (const [i, delay] of expected.entries()) {
        const [job] = await q.claim("w", ["retry"], MIN);
        expect(job?.attempts).toBe(i + 1);
        expect(await q.fail(id, "w", new Error(`boom ${i + 1}`))).toBe("retry");
        const queued = await q.get(id);
        expect(queued).toMatchObject({ state: "queued", lockedBy: null, attempts: i + 1 });
        expect(queued?.lastError).toContain(`boom ${i + 1}`);
        expect(queued?.runAt.getTime()).toBe(clock.now().getTime() + delay);
        clock.advance(delay - 1);
        expect(await q.claim("w", ["retry"], MIN)).toEqual([]);
        clock.advance(1);
      }
      const [last] = await q.claim("w", ["retry"], MIN);
      expect(last?.attempts).toBe(3);
      expect(await q.fail(id, "w", "final")).toBe("failed");
      expect(await q.get(id)).toMatchObject({ state: "failed", lastError: "final", attempts: 3 });
      clock.advance(24 * 60 * MIN);
      expect(await q.claim("w", ["retry"], MIN)).toEqual([]);

      const perm = await q.enqueue({ name: "retry.permanent", payload: { n: 2 } });
      await q.claim("w", ["retry.permanent"], MIN);
      expect(await q.fail(perm.id, "other", "not mine")).toBe("lost");
      expect(await q.fail(perm.id, "w", "gone", { permanent: true })).toBe("failed");
      expect(await q.get(perm.id)).toMatchObject({ state: "failed", attempts: 1 });
    });

    it("hands a job whose lock expired to another worker, and fences the old one out", async () => {
      const { clock, q } = queue();
      const { id } = await q.enqueue({ name: "expiry", payload: { n: 1 } });
      await q.claim("dead", ["expiry"], 1000);
      clock.advance(600);
      expect(await q.extendLock(id, "dead", 1000)).toBe(true); // a heartbeat, then the worker dies
      clock.advance(1000);
      expect(await q.claim("b", ["expiry"], MIN)).toEqual([]); // locked_until not passed yet
      clock.advance(1);
      const [job] = await q.claim("b", ["expiry"], MIN);
      expect(job).toMatchObject({ id, attempts: 2, lockedBy: "b" });
      expect(job?.lastError).toContain("lock of dead expired");
      expect(await q.extendLock(id, "dead", 1000)).toBe(false);
      expect(await q.complete(id, "dead")).toBe(false);
      expect(await q.fail(id, "dead", "late")).toBe("lost");
      expect(await q.complete(id, "b")).toBe(true);

      const last = await q.enqueue({ name: "expiry.last", payload: { n: 2 }, maxAttempts: 1 });
      await q.claim("dead", ["expiry.last"], 1000);
      clock.advance(1001);
      expect(await q.claim("b", ["expiry.last"], MIN)).toEqual([]);
      expect(await q.get(last.id)).toMatchObject({ state: "failed", attempts: 1 });
      expect((await q.get(last.id))?.lastError).toContain("expired on the last attempt");
    });

    it("never hands one job to two concurrent claimers", async () => {
      const other = db.multiServer ? await db.open() : store; // PostgreSQL: a second server
      try {
        const clock = fakeClock();
        const qa = createJobQueue<Record<string, P>>(store.db, { clock: clock.now });
        const qb = createJobQueue<Record<string, P>>(other.db, { clock: clock.now });
        const ids = new Set<string>();
        for (let i = 0; i < 60; i++) ids.add((await qa.enqueue({ name: "race", payload: { n: i } })).id);
        const claimed: string[] = [];
        const claimAll = async (q: JobQueue<Record<string, P>>, w: string) => {
          for (const j of await q.claim(w, ["race"], MIN, 3)) claimed.push(j.id);
        };
        await Promise.all(Array.from({ length: 30 }, (_, i) => claimAll(i % 2 ? qa : qb, `w${i}`)));
        for (;;) {
          const more = await qa.claim("sweeper", ["race"], MIN, 10);
          if (!more.length) break;
          claimed.push(...more.map((j) => j.id));
        }
        expect(claimed).toHaveLength(60);
        expect(new Set(claimed)).toEqual(ids);
      } finally {
        if (other !== store) await other.close();
      }
    });
  });

  describe(`JobQueue restart on ${engine.name}`, () => {
    it("keeps queued and running jobs across closing and reopening the store", async () => {
      const db = await engine.fresh();
      const clock = fakeClock();
      const first = await db.open();
      const q1 = createJobQueue<Record<string, P>>(first.db, { clock: clock.now });
      const early = new Date(clock.now().getTime() - 1000);
      const running = await q1.enqueue({ name: "survive", payload: { n: 1 }, key: "survive:1", runAt: early });
      const waiting = await q1.enqueue({ name: "survive", payload: { n: 2 } });
      await q1.claim("w-before", ["survive"], MIN, 1); // the earlier one; then the process stops
      await first.close();

      const second = await db.open();
      try {
        const q2 = createJobQueue<Record<string, P>>(second.db, { clock: clock.now });
        expect(await q2.get(running.id)).toMatchObject({ state: "running", lockedBy: "w-before", payload: { n: 1 } });
        const [now] = await q2.claim("w-after", ["survive"], MIN, 10);
        expect(now).toMatchObject({ id: waiting.id, payload: { n: 2 }, attempts: 1 });
        clock.advance(MIN + 1);
        const [recovered] = await q2.claim("w-after", ["survive"], MIN, 10);
        expect(recovered).toMatchObject({ id: running.id, attempts: 2, key: "survive:1" });
        expect((await q2.enqueue({ name: "survive", payload: { n: 3 }, key: "survive:1" })).created).toBe(false);
      } finally {
        await second.close();
      }
    });
  });
}
