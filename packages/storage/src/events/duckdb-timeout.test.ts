// Every read has a time limit (DuckDbOptions.queryTimeoutMs, EventStore.query's timeoutMs): past
// it the reader's connection is interrupted, the call rejects with QueryTimeoutError (rebuilt on
// the owner's side when the store runs on a thread), and the connection serves the next query.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import { openDuckDbEventStoreOnThread } from "./duckdb-thread-store.js";
import { QueryTimeoutError } from "./event-store.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-timeout-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Minutes of work in chunks of 2 048 rows: DuckDB checks for an interrupt between them. */
const SLOW = { sql: "SELECT sum(i * i % 7) AS s FROM range(100000000000) t(i)", params: {} };
const QUICK = { sql: "SELECT 42 AS x", params: {} };
/** A call's own limit wins over the store's: a long one for the quick queries (the machine may be busy). */
const LONG = { timeoutMs: 60_000 };

async function expectCancelledAndStillServing(store: DuckDbEventStore): Promise<void> {
  const err = await store.query(SLOW).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(QueryTimeoutError);
  expect(err).toMatchObject({ code: "query_timeout", timeoutMs: 50 });
  // One reader: the interrupted connection is the one that answers now, and more than once.
  expect(await store.query(QUICK, LONG)).toEqual([{ x: 42 }]);
  expect(await store.query(QUICK, LONG)).toEqual([{ x: 42 }]);
  // Reads queued behind a cancelled one get the connection in turn.
  const [a, b, c] = await Promise.allSettled([store.query(SLOW), store.query(QUICK, LONG), store.query(SLOW)]);
  expect(a.status === "rejected" && a.reason).toBeInstanceOf(QueryTimeoutError);
  expect(b).toEqual({ status: "fulfilled", value: [{ x: 42 }] });
  expect(c.status === "rejected" && c.reason).toBeInstanceOf(QueryTimeoutError);
  // A call's own limit applies to it: a shorter one than the store's.
  await expect(store.query(SLOW, { timeoutMs: 10 })).rejects.toMatchObject({ code: "query_timeout", timeoutMs: 10 });
  expect(await store.query(QUICK, LONG)).toEqual([{ x: 42 }]);
}

describe("read time limit", () => {
  it("interrupts a query past its limit and keeps its connection usable (in-process)", async () => {
    const store = await openDuckDbEventStore(":memory:", { readers: 1, queryTimeoutMs: 50, rollupDelayMs: 0 });
    try {
      await expectCancelledAndStillServing(store);
    } finally {
      await store.close();
    }
  });

  it("rebuilds the error on the owner's side when the store runs on a thread", async () => {
    const store = await openDuckDbEventStoreOnThread(join(tempDir(), "events.duckdb"), {
      readers: 1,
      queryTimeoutMs: 50,
      rollupDelayMs: 0,
    });
    try {
      await expectCancelledAndStillServing(store);
    } finally {
      await store.close();
    }
  });

  it("QueryTimeoutError.from recognises a structured-clone copy and nothing else", () => {
    const copy = structuredClone(new QueryTimeoutError(123).toJSON());
    expect(QueryTimeoutError.from(copy)).toMatchObject({ code: "query_timeout", timeoutMs: 123 });
    expect(QueryTimeoutError.from(new Error("x"))).toBeNull();
    expect(QueryTimeoutError.from(null)).toBeNull();
    expect(QueryTimeoutError.from({ code: "other" })).toBeNull();
  });
});
