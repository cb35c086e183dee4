// Sharing the event store fairly (event-reads/) through the insights API, as the Stats API's
// fairness.test.ts does for dashboards. One account runs several of its costliest allowed regex
// filters as insights at once; another account's plain insight must not wait behind all of them.
// Ordering and queue positions only, never a wall-clock budget:
// - held: A's reads are held at the store (a gate in front of store.query), so the test can look at
//   A's queue: at most READS_PER_ACCOUNT of A's reads reach the store, the rest wait in A's own
//   queue, and B's insight reaches the store and answers meanwhile.
// - real: with 2 readers (createTestApp) and the costly filters really running, B's answer comes
//   before most of A's; without the per-account queue it waited behind every one of them.
import { formatFilters, regexProblem } from "@lookout/schema";
import type { CompiledQuery, QueryOptions } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READS_PER_ACCOUNT } from "../event-reads/fair-reads.js";
import { A_EVENTS, COSTLY, fairnessFixture } from "../event-reads/fairness-fixture.js";
import type { TestApp } from "../test-support.js";

describe("insights API: one account's costly filters do not stall another's insights", () => {
  let t: TestApp;
  let siteA: string;
  let siteB: string;
  let accountA: string;
  let tokenA: string;
  let tokenB: string;
  beforeAll(async () => {
    ({ t, accountA, siteA, siteB, tokenA, tokenB } = await fairnessFixture());
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * A daily trends insight of pageviews in March 2024 (or `date`), its pages filtered by `regex`
   * when given. A test's own date range keeps the result cache from answering for an earlier test.
   */
  const insight = async (site: string, token: string, regex?: string, date = "2024-03-01,2024-03-31") => {
    const filters = regex ? formatFilters([{ dimension: "page", op: "matches", values: [regex] }]) : undefined;
    const r = await t.app.inject({
      method: "POST",
      url: `/api/v1/properties/${site}/insights/query`,
      headers: { authorization: `Bearer ${token}` },
      payload: {
        kind: "trends",
        period: "custom",
        date,
        interval: "day",
        series: [{ event: "pageview", ...(filters ? { filters } : {}) }],
      },
    });
    return { status: r.statusCode, body: r.json() };
  };
  const total = (body: { results: { total: number }[] }) => body.results[0]?.total;

  it("the costly filters are allowed in insights, and costlier ones refused with the reason", async () => {
    for (const re of COSTLY) expect(regexProblem(re), re).toBeNull();
    const r = await insight(siteA, tokenA, "\\p{L}{20}Q");
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/regex too complex/);
  });

  it("held: A's reads wait in A's own queue, B's insight reaches the store and answers", async () => {
    const store = t.events;
    const query = store.query.bind(store);
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let atStore = 0;
    let mostAtStore = 0;
    // A's reads are held at the store, as a costly query holds a reader; everyone else's pass.
    store.query = async <T>(q: CompiledQuery, o?: QueryOptions) => {
      if (!JSON.stringify(q.params).includes(siteA)) return query<T>(q, o);
      mostAtStore = Math.max(mostAtStore, ++atStore);
      try {
        await held;
        return await query<T>(q, o);
      } finally {
        atStore--;
      }
    };
    try {
      const a = COSTLY.map((re) => insight(siteA, tokenA, re));
      // Until all of A's insights have reached A's queue (each is one read), however long that takes.
      while (t.reads.load(accountA).running + t.reads.load(accountA).waiting < COSTLY.length) {
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(t.reads.load(accountA)).toEqual({ running: READS_PER_ACCOUNT, waiting: COSTLY.length - READS_PER_ACCOUNT });
      const b = await insight(siteB, tokenB);
      expect(b.status).toBe(200);
      expect(total(b.body)).toBe(50);
      // B answered while A's reads were still held: no more of A's than its share reached the store.
      expect(atStore).toBe(READS_PER_ACCOUNT);
      expect(t.reads.load(accountA).waiting).toBe(COSTLY.length - READS_PER_ACCOUNT);
      release();
      const answers = await Promise.all(a);
      for (const r of answers) expect(r.status).toBe(200);
      expect(mostAtStore).toBe(READS_PER_ACCOUNT);
      expect(t.reads.load(accountA)).toEqual({ running: 0, waiting: 0 });
    } finally {
      release();
      store.query = query;
    }
  });

  it("real: B's plain insight answers while A's costly ones are still queued", async () => {
    const order: string[] = [];
    const a = COSTLY.map((re, i) =>
      insight(siteA, tokenA, re, "2024-03-01,2024-03-30").then((r) => {
        order.push(`A${i}`);
        return r;
      }),
    );
    // A's first requests reach the store before B's is sent.
    while (t.reads.load(accountA).running < READS_PER_ACCOUNT) await new Promise((r) => setTimeout(r, 5));
    const b = await insight(siteB, tokenB, "^/b/", "2024-03-01,2024-03-30");
    order.push("B");
    expect(b.status).toBe(200);
    expect(total(b.body)).toBe(50);
    const answers = await Promise.all(a);
    for (const r of answers) expect(r.status).toBe(200);
    expect(total(answers[0]?.body)).toBe(0);
    // A's requests past its first two rounds were still waiting when B's answer came.
    const bAt = order.indexOf("B");
    expect(bAt).toBeLessThanOrEqual(2 * READS_PER_ACCOUNT);
    expect(order.slice(bAt + 1).length).toBeGreaterThanOrEqual(COSTLY.length - 2 * READS_PER_ACCOUNT);
  });

  it("a read past the store's time limit answers 503 with the reason, and the store answers afterwards", async () => {
    const store = t.events;
    const query = store.query.bind(store);
    store.query = <T>(q: CompiledQuery, o?: QueryOptions) => query<T>(q, { ...o, timeoutMs: 20 });
    try {
      const slow = await insight(siteA, tokenA, COSTLY[0], "2024-03-02,2024-03-31");
      expect(slow.status).toBe(503);
      expect(slow.body).toEqual({ code: "query_timeout", message: expect.stringMatching(/took too long/) });
    } finally {
      store.query = query;
    }
    const after = await insight(siteA, tokenA);
    expect(after.status).toBe(200);
    expect(total(after.body)).toBe(A_EVENTS);
  });
});
