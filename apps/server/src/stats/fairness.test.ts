// Sharing the event store fairly (event-reads/) and the read time limit, through the Stats API.
// One account fires several of its costliest allowed regex filters at once; another account's
// plain dashboard query must not wait behind all of them. Ordering only, never a wall-clock
// budget: with 2 readers (createTestApp) and 2 reads per account at a time, B's query takes the
// first reader either of A's running queries frees, while A's others wait their turn in A's own
// queue; without the per-account queue, B's query waited behind every one of A's in the readers'
// queue. insights/fairness.test.ts does the same for insights, with queue positions as well.
import { formatFilters, regexProblem } from "@lookout/schema";
import type { CompiledQuery, QueryOptions } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READS_PER_ACCOUNT } from "../event-reads/fair-reads.js";
import { A_EVENTS, COSTLY, fairnessFixture } from "../event-reads/fairness-fixture.js";
import type { TestApp } from "../test-support.js";

const RANGE = "period=custom&date=2024-03-01,2024-03-31";

describe("Stats API: one account's costly filters do not stall another's dashboard", () => {
  let t: TestApp;
  let siteA: string;
  let siteB: string;
  let tokenA: string;
  let tokenB: string;
  beforeAll(async () => {
    ({ t, siteA, siteB, tokenA, tokenB } = await fairnessFixture());
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An aggregate, with a page =~ `regex` filter when given (written in the filter grammar). */
  const get = async (site: string, token: string, regex?: string) => {
    const filters = regex ? formatFilters([{ dimension: "page", op: "matches", values: [regex] }]) : "";
    const f = regex ? `&filters=${encodeURIComponent(filters)}` : "";
    const r = await t.app.inject({
      method: "GET",
      url: `/api/v1/stats/aggregate?property_id=${site}&${RANGE}&metrics=visitors,pageviews${f}`,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: r.statusCode, body: r.json() };
  };

  it("the costly filters are allowed, and costlier ones refused with the reason", async () => {
    for (const re of COSTLY) expect(regexProblem(re), re).toBeNull();
    const r = await get(siteA, tokenA, "\\p{L}{20}Q");
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/regex too complex/);
  });

  it("B's plain query answers while A's costly ones are still queued", async () => {
    const order: string[] = [];
    const a = COSTLY.map((re, i) =>
      get(siteA, tokenA, re).then((r) => {
        order.push(`A${i}`);
        return r;
      }),
    );
    // A's first requests reach the store before B's is sent.
    await new Promise((r) => setTimeout(r, 50));
    const b = await get(siteB, tokenB);
    order.push("B");
    expect(b).toEqual({ status: 200, body: { results: expect.objectContaining({ visitors: expect.anything() }) } });
    expect(b.body.results.pageviews.value).toBe(50);
    const answers = await Promise.all(a);
    for (const r of answers) expect(r.status).toBe(200);
    expect(answers[0]?.body.results.pageviews.value).toBe(0);
    // A's requests past its first two rounds were still waiting when B's answer came.
    const bAt = order.indexOf("B");
    expect(bAt).toBeLessThanOrEqual(2 * READS_PER_ACCOUNT);
    expect(order.slice(bAt + 1).length).toBeGreaterThanOrEqual(COSTLY.length - 2 * READS_PER_ACCOUNT);
  });

  it("a query past the store's time limit answers 503, and the store answers afterwards", async () => {
    const store = t.events;
    const query = store.query.bind(store);
    // The server's limit is 10 s; a tiny one here, on the real store: the reader is interrupted.
    store.query = <T>(q: CompiledQuery, o?: QueryOptions) => query<T>(q, { ...o, timeoutMs: 20 });
    try {
      const slow = await Promise.all([get(siteA, tokenA, COSTLY[0]), get(siteA, tokenA, COSTLY[1])]);
      for (const r of slow) {
        expect(r.status).toBe(503);
        expect(r.body).toEqual({
          code: "query_timeout",
          message: expect.stringMatching(/took too long.*narrow the filters or the date range/),
        });
      }
    } finally {
      store.query = query;
    }
    // Both readers were interrupted; both serve again, for either account.
    const after = await Promise.all([get(siteB, tokenB), get(siteA, tokenA), get(siteA, tokenA, "^/articles/1/")]);
    expect(after.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(after[0]?.body.results.pageviews.value).toBe(50);
    expect(after[1]?.body.results.pageviews.value).toBe(A_EVENTS);
  });
});
