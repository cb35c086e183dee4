// The two-account fixture of the fairness tests (stats/ and insights/fairness.test.ts): account A
// owns a site of long paths that its costliest allowed regexes scan slowly, account B a small one.
// Both tests then hold B's plain read against A's costly ones through their own API.
import { type EventRow, eventRow } from "@lookout/schema";
import { createTestApp, type TestApp } from "../test-support.js";

/** Events of A's site: enough long paths for its costly filters to take a while each. */
export const A_EVENTS = 8000;
/**
 * Among the costliest regexes regexProblem allows (measured on DuckDB with 800-character strings
 * that do not match: 80-150 µs a row, against ~15 µs for a plain `blogQ`).
 */
export const COSTLY = ["\\p{L}{9}Q", ".{0,199}Q", "\\p{L}{5}\\p{N}{4}Q", "[\\p{L}\\p{N}]{9}Q", ".{399}Q", "(.{0,10}){19}Q"];

export interface FairnessFixture {
  t: TestApp;
  accountA: string;
  siteA: string;
  siteB: string;
  tokenA: string;
  tokenB: string;
}

/** A test app (PGlite, 2 readers) with A's A_EVENTS long-path events in March 2024 and 50 of B's. */
export async function fairnessFixture(): Promise<FairnessFixture> {
  const t = await createTestApp("pglite");
  const alice = await t.user("alice@example.com");
  const bob = await t.user("bob@example.com");
  const siteA = await t.property(alice.accountId, "https://a.test");
  const siteB = await t.property(bob.accountId, "https://b.test");
  const tokenA = (await t.login(alice.email, alice.password)).token;
  const tokenB = (await t.login(bob.email, bob.password)).token;
  const row = (property: string, i: number, path: string): EventRow =>
    eventRow({
      property,
      ts: new Date(Date.UTC(2024, 2, 1 + (i % 28), i % 24)),
      visitor_id: `v${i % 500}`,
      client_id: `v${i % 500}`,
      session_id: `s${i}`,
      hostname: "a.test",
      url: `https://a.test${path}`,
      path,
    });
  const long = (i: number) => `/articles/${i}/${"a-long-article-title-with-words-and-0123-digits/".repeat(16)}`;
  const rows = Array.from({ length: A_EVENTS }, (_, i) => row(siteA, i, long(i)));
  for (let i = 0; i < rows.length; i += 2000) await t.events.append(rows.slice(i, i + 2000));
  await t.events.append(Array.from({ length: 50 }, (_, i) => row(siteB, i, `/b/${i}`)));
  await t.events.sync();
  return { t, accountA: alice.accountId, siteA, siteB, tokenA, tokenB };
}
