// The JobRunner on PGlite and on PostgreSQL, on the database clock with short locks. Nothing here
// asserts how long something took: tests wait for conditions (vi.waitFor), never a time budget.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MetaStore } from "../meta/meta-store.js";
import { type JobQueue, PermanentJobError } from "./job-queue.js";
import { type JobHandlers, type JobLogger, JobRunner } from "./job-runner.js";
import { createJobQueue } from "./sql-job-queue.js";
import { type TestDatabase, testEngines } from "./test-engines.js";

// The handler registry is checked by the compiler: one handler per job name, payloads typed.
type ReportJobs = { "report.send": { propertyId: string; period: string }; "usage.check": { accountId: string } };
// @ts-expect-error a job name without a handler
const _missing: JobHandlers<ReportJobs> = { "report.send": async () => {} };
const _typed: JobHandlers<ReportJobs> = {
  "report.send": async (job) => void job.payload.period.toUpperCase(),
  // @ts-expect-error usage.check has no propertyId
  "usage.check": async (job) => void job.payload.propertyId,
};
void _missing;
void _typed;

type Jobs = Record<string, { n: number }>;
const WAIT = { timeout: 20_000, interval: 20 };

function memoryLogger() {
  const entries: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (obj: object, msg: string): void => {
      entries.push({ level, msg, obj: obj as Record<string, unknown> });
    };
  const logger: JobLogger = { info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, entries };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

/** A queue whose calls can be frozen (never answer), like a process that hangs or is killed. */
function freezable<J extends object>(inner: JobQueue<J>) {
  let frozen = false;
  const hung: ((e: Error) => void)[] = [];
  const queue = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        frozen ? new Promise((_, reject) => hung.push(reject)) : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  return {
    queue,
    freeze: () => void (frozen = true),
    thaw() {
      frozen = false;
      for (const reject of hung.splice(0)) reject(new Error("process was killed"));
    },
  };
}

for (const engine of testEngines()) {
  describe(`JobRunner on ${engine.name}`, () => {
    let db: TestDatabase;
    let store: MetaStore;
    let second: MetaStore; // PostgreSQL: another server's connections; PGlite: the same store
    const runners: JobRunner<Jobs>[] = [];
    beforeAll(async () => {
      db = await engine.fresh();
      store = await db.open();
      second = db.multiServer ? await db.open() : store;
    });
    afterAll(async () => {
      await Promise.all(runners.map((r) => r.stop()));
      if (second !== store) await second?.close();
      await store?.close();
    });
    const runner = (opts: Omit<ConstructorParameters<typeof JobRunner<Jobs>>[0], "logger"> & { logger?: JobLogger }) => {
      const r = new JobRunner<Jobs>({ logger: memoryLogger().logger, pollMs: 20, ...opts });
      runners.push(r);
      return r;
    };
    const dbNow = async (s: MetaStore) => (await sql<{ now: Date }>`select now() as now`.execute(s.db)).rows[0]!.now;

    it("runs jobs with bounded concurrency, and stop() waits for running jobs", async () => {
      const queue = createJobQueue<Jobs>(store.db);
      const release = gate();
      let active = 0;
      let peak = 0;
      const ran: number[] = [];
      const r = runner({
        queue,
        concurrency: 2,
        handlers: {
          "bounded.work": async (job) => {
            peak = Math.max(peak, ++active);
            await release.opened;
            ran.push(job.payload.n);
            active--;
          },
        },
      });
      for (let n = 0; n < 6; n++) await queue.enqueue({ name: "bounded.work", payload: { n } });
      r.start();
      await vi.waitFor(() => expect(r.active).toBe(2), WAIT);
      let stopped = false;
      const stopping = r.stop().then(() => (stopped = true));
      await new Promise((res) => setTimeout(res, 100));
      expect(stopped).toBe(false); // still waiting for the two running jobs
      release.open();
      await stopping;
      expect(ran).toHaveLength(2);
      expect(peak).toBe(2);
      const left = await store.db
        .withTables<{ lookout_jobs: { name: string; state: string } }>()
        .selectFrom("lookout_jobs")
        .select(({ fn }) => ["state", fn.countAll<number>().as("n")])
        .where("name", "=", "bounded.work")
        .groupBy("state")
        .execute();
      expect(Object.fromEntries(left.map((x) => [x.state, Number(x.n)]))).toEqual({ done: 2, queued: 4 });

      const again = runner({ queue, concurrency: 3, handlers: { "bounded.work": async (job) => void ran.push(job.payload.n) } });
      again.start();
      await vi.waitFor(() => expect(ran).toHaveLength(6), WAIT);
      await again.stop();
      expect([...ran].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it("logs and records every handler error, retries, and keeps running other jobs", async () => {
      const queue = createJobQueue<Jobs>(store.db, { backoff: { baseMs: 20, maxMs: 40 } });
      const { logger, entries } = memoryLogger();
      const ok: number[] = [];
      const r = runner({
        queue,
        logger,
        concurrency: 2,
        handlers: {
          "errors.async": async () => {
            throw new Error("async boom");
          },
          // a handler that throws before returning a promise
          "errors.sync": (() => {
            throw "not even an Error";
          }) as unknown as () => Promise<void>,
          "errors.permanent": async () => {
            throw new PermanentJobError("property deleted");
          },
          "errors.ok": async (job) => void ok.push(job.payload.n),
        },
      });
      const a = await queue.enqueue({ name: "errors.async", payload: { n: 1 }, maxAttempts: 3 });
      const s = await queue.enqueue({ name: "errors.sync", payload: { n: 2 }, maxAttempts: 2 });
      const p = await queue.enqueue({ name: "errors.permanent", payload: { n: 3 }, maxAttempts: 5 });
      for (let n = 0; n < 5; n++) await queue.enqueue({ name: "errors.ok", payload: { n } });
      r.start();
      await vi.waitFor(async () => {
        expect((await queue.get(a.id))?.state).toBe("failed");
        expect((await queue.get(s.id))?.state).toBe("failed");
        expect((await queue.get(p.id))?.state).toBe("failed");
        expect(ok).toHaveLength(5);
      }, WAIT);
      await r.stop();
      expect(await queue.get(a.id)).toMatchObject({ attempts: 3 });
      expect((await queue.get(a.id))?.lastError).toContain("async boom");
      expect(await queue.get(s.id)).toMatchObject({ attempts: 2, lastError: "not even an Error" });
      expect(await queue.get(p.id)).toMatchObject({ attempts: 1 });
      const errors = entries.filter((e) => e.level === "error");
      expect(errors.filter((e) => e.msg === "job failed; will retry")).toHaveLength(2 + 1);
      expect(errors.filter((e) => e.msg === "job failed for good").map((e) => e.obj.job)).toEqual(
        expect.arrayContaining(["errors.async", "errors.sync", "errors.permanent"]),
      );
    });

    it("calls the schedule each tick; idempotent keys make N servers enqueue once", async () => {
      const qa = createJobQueue<Jobs>(store.db);
      const qb = createJobQueue<Jobs>(second.db);
      const runs: string[] = [];
      let calls = 0;
      const schedule = async (q: JobQueue<Jobs>, now: Date) => {
        calls++;
        if (calls === 1) throw new Error("schedule hiccup"); // logged, the runner goes on
        await q.enqueue({ name: "sched.report", payload: { n: 1 }, key: `sched.report:${now.toISOString().slice(0, 7)}` });
      };
      const handlers = { "sched.report": async (job: { id: string }) => void runs.push(job.id) };
      const { logger, entries } = memoryLogger();
      const a = runner({ queue: qa, handlers, schedule, scheduleEveryMs: 10, logger });
      const b = runner({ queue: qb, handlers, schedule, scheduleEveryMs: 10, logger });
      a.start();
      b.start();
      await vi.waitFor(() => expect(runs).toHaveLength(1), WAIT);
      const after = calls;
      await vi.waitFor(() => expect(calls).toBeGreaterThan(after + 4), WAIT);
      await Promise.all([a.stop(), b.stop()]);
      expect(runs).toHaveLength(1);
      expect(entries.some((e) => e.msg === "job schedule failed")).toBe(true);
    });

    it("two runners with many jobs never run one job twice", async () => {
      const qa = createJobQueue<Jobs>(store.db);
      const qb = createJobQueue<Jobs>(second.db);
      const total = db.multiServer ? 150 : 60; // PGlite: one process, two runners on one store
      const ids: string[] = [];
      for (let n = 0; n < total; n++) ids.push((await qa.enqueue({ name: "many.work", payload: { n } })).id);
      const runs = new Map<string, number>();
      const by = { a: 0, b: 0 };
      const work = (who: "a" | "b") => async (job: { id: string }) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        by[who]++;
        await new Promise((res) => setTimeout(res, 2));
      };
      const a = runner({ queue: qa, concurrency: 4, pollMs: 5, handlers: { "many.work": work("a") } });
      const b = runner({ queue: qb, concurrency: 4, pollMs: 5, handlers: { "many.work": work("b") } });
      a.start();
      b.start();
      await vi.waitFor(() => expect(runs.size).toBe(total), WAIT);
      await Promise.all([a.stop(), b.stop()]);
      expect([...runs.keys()].sort()).toEqual([...ids].sort());
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(by.a + by.b).toBe(total);
      expect(by.a).toBeGreaterThan(0);
      expect(by.b).toBeGreaterThan(0);
    });

    it("hands a killed runner's job to another runner once its lock expires", async () => {
      const lockMs = 500;
      const inner = createJobQueue<Jobs>(store.db);
      const killable = freezable(inner);
      const stuck = gate();
      const ranBy: string[] = [];
      const a = runner({
        queue: killable.queue,
        workerId: "runner-a",
        lockMs,
        heartbeatMs: 50,
        handlers: {
          "killed.work": async () => {
            ranBy.push("a");
            await stuck.opened; // mid-job when the process dies
          },
        },
      });
      const { id } = await inner.enqueue({ name: "killed.work", payload: { n: 1 } });
      a.start();
      await vi.waitFor(() => expect(ranBy).toEqual(["a"]), WAIT);
      killable.freeze(); // no more heartbeats, no completion
      const lockedUntil = (await inner.get(id))!.lockedUntil!;

      const qb = createJobQueue<Jobs>(second.db);
      let sawExpiredLock = false;
      let seen: { attempts: number; lastError: string | null } | undefined;
      const b = runner({
        queue: qb,
        workerId: "runner-b",
        lockMs,
        handlers: {
          "killed.work": async (job) => {
            ranBy.push("b");
            sawExpiredLock = (await dbNow(second)).getTime() > lockedUntil.getTime();
            seen = { attempts: job.attempts, lastError: job.lastError };
          },
        },
      });
      b.start();
      await vi.waitFor(async () => expect((await inner.get(id))?.state).toBe("done"), WAIT);
      await b.stop();
      expect(ranBy).toEqual(["a", "b"]);
      expect(sawExpiredLock).toBe(true);
      expect(seen?.attempts).toBe(2);
      expect(seen?.lastError).toContain("lock of runner-a expired");
      expect(await inner.get(id)).toMatchObject({ lockedBy: "runner-b", attempts: 2 });

      // The "dead" runner wakes up: its late completion is fenced out and does not touch the job.
      killable.thaw();
      stuck.open();
      await a.stop();
      expect(await inner.get(id)).toMatchObject({ state: "done", lockedBy: "runner-b", attempts: 2 });
    });

    it("heartbeats keep a long job's lock, so no other runner takes it", async () => {
      const lockMs = 1000;
      const qa = createJobQueue<Jobs>(store.db);
      let bPolls = 0;
      const qb = new Proxy(createJobQueue<Jobs>(second.db), {
        get(target, prop, receiver) {
          if (prop === "claim") bPolls++;
          return Reflect.get(target, prop, receiver);
        },
      });
      const long = gate();
      const ranBy: string[] = [];
      const a = runner({
        queue: qa,
        lockMs,
        heartbeatMs: 100,
        handlers: {
          "long.work": async (_job, ctx) => {
            ranBy.push(ctx.signal.aborted ? "a (lock lost)" : "a");
            await long.opened;
            if (ctx.signal.aborted) ranBy.push("a lost its lock");
          },
        },
      });
      const { id } = await qa.enqueue({ name: "long.work", payload: { n: 1 } });
      a.start();
      await vi.waitFor(() => expect(ranBy).toEqual(["a"]), WAIT);
      const firstLock = (await qa.get(id))!.lockedUntil!;
      const b = runner({ queue: qb, lockMs, handlers: { "long.work": async () => void ranBy.push("b") } });
      b.start();
      // Past the first lock's end by a whole lock period, and B has polled since.
      await vi.waitFor(async () => expect((await dbNow(store)).getTime()).toBeGreaterThan(firstLock.getTime() + lockMs), WAIT);
      const polls = bPolls;
      await vi.waitFor(() => expect(bPolls).toBeGreaterThan(polls + 2), WAIT);
      expect(ranBy).toEqual(["a"]);
      expect((await qa.get(id))!.lockedUntil!.getTime()).toBeGreaterThan(firstLock.getTime());
      long.open();
      await vi.waitFor(async () => expect((await qa.get(id))?.state).toBe("done"), WAIT);
      await Promise.all([a.stop(), b.stop()]);
      expect(ranBy).toEqual(["a"]);
    });
  });
}
