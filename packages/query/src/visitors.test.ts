// The visitor statements against the compiler's safety rules (sql-checks.ts) in both dialects:
// every `events` read (and every read of the per-visitor tables) has the property predicate, every value (ids, e-mails, searches, event
// names, session ids) is a bound parameter and never SQL text, every statement ends in a LIMIT.
// The `visitors` profile table is keyed by the property's id in both engines, so its reads must
// compare that id (bound as a string), which sql-checks.ts does not know: checked here.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CompiledQuery } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import { sqlProblems } from "./sql-checks.js";
import {
  activeDaysSql,
  facetsSql,
  figuresSql,
  firstSourceSql,
  historyEventsSql,
  historyVisitsSql,
  perClientSql,
  personSql,
  profilesSql,
  spanSql,
  topEventsSql,
  topPagesSql,
  visitorEventsSql,
  visitorListSql,
} from "./visitors.js";
import { historyVisitsFromVisitsSql, perClientFromSummarySql, visitorListFromSummarySql } from "./visitors-digest.js";
import { visitRowsSql } from "./visitors-panels.js";
import { byBytes } from "./visitors-stmt.js";

const P = "site_1";
const HOSTILE = ["x'); DROP TABLE events; --", "a\\'b", "%_*", "{p1:String}", "$p1"];
const IDS = ["user-42", ...HOSTILE];
const NOW = Date.parse("2024-03-31T12:00:00Z");

function statements(d: SqlDialect): [string, CompiledQuery][] {
  return [
    ["profiles", profilesSql(d, P, IDS)],
    ["person", personSql(d, P, HOSTILE[0] as string, 50)],
    ["span", spanSql(d, P, IDS)],
    ["figures", figuresSql(d, P, IDS)],
    ["figures within a span", figuresSql(d, P, { ids: IDS, span: { from: NOW - 86_400_000, to: NOW } })],
    ["facets", facetsSql(d, P, IDS)],
    ["perClient", perClientSql(d, P, IDS)],
    ["firstSource", firstSourceSql(d, P, IDS)],
    ["activeDays", activeDaysSql(d, P, IDS, "Europe/Berlin", NOW - 365 * 86_400_000, NOW)],
    ["topPages", topPagesSql(d, P, IDS, 10)],
    ["topEvents", topEventsSql(d, P, IDS, 10)],
    ["history", historyVisitsSql(d, P, IDS, { limit: 20 })],
    [
      "history filtered after a cursor",
      historyVisitsSql(d, P, IDS, {
        limit: 20,
        event: HOSTILE[0] as string,
        from: NOW - 86_400_000,
        to: NOW,
        after: { ts: NOW, session_id: HOSTILE[1] as string },
      }),
    ],
    ["historyEvents", historyEventsSql(d, P, IDS, HOSTILE, { event: HOSTILE[2] as string }, 200)],
    ["historyEvents in a range", historyEventsSql(d, P, IDS, HOSTILE, { from: NOW - 86_400_000, to: NOW }, 1000)],
    ["list", visitorListSql(d, P, { order: "last_seen", identified: "all", limit: 50 })],
    [
      "list searched, filtered, after a cursor",
      visitorListSql(d, P, {
        order: "events",
        identified: "anonymous",
        search: HOSTILE[0] as string,
        after: { key: 3, client_id: HOSTILE[3] as string },
        limit: 50,
      }),
    ],
    ["export", visitorEventsSql(d, P, HOSTILE[0] as string, 100_001)],
    // The same answers from the per-visitor tables (visitors-digest.ts).
    ["visit rows for the panels", visitRowsSql(d, P, { ids: IDS, span: { from: NOW - 86_400_000, to: NOW } })],
    ["visit rows for the panels, no span", visitRowsSql(d, P, IDS)],
    ["perClient from summaries", perClientFromSummarySql(d, P, IDS)],
    [
      "history from visits after a cursor",
      historyVisitsFromVisitsSql(d, P, IDS, { limit: 20, after: { ts: NOW, session_id: HOSTILE[1] as string } }),
    ],
    [
      "list from summaries searched, filtered, after a cursor",
      visitorListFromSummarySql(d, P, {
        order: "first_seen",
        identified: "identified",
        search: HOSTILE[0] as string,
        after: { key: 3, client_id: HOSTILE[3] as string },
        limit: 50,
      }),
    ],
  ];
}

describe.each<SqlDialect>(["duckdb", "clickhouse"])("visitor statements in %s", (d) => {
  it.each(statements(d))("%s keeps the safety rules", (_name, q) => {
    const readsEvents = /FROM (events|visitor_visits|visitor_summary)\b/.test(q.sql);
    const problems = sqlProblems(q, d, P, 200_000).filter(
      (p) => !/unknown relation visitors/.test(p) && (readsEvents || !/the property is not a parameter/.test(p)),
    );
    expect(problems).toEqual([]);
    // Profile reads compare the property's id, bound as a string parameter.
    const idParam = Object.entries(q.params).find(([n, v]) => v === P && !(q.keyParams ?? []).includes(n))?.[0];
    const predicate = d === "duckdb" ? `property = CAST($${idParam} AS VARCHAR)` : `property = {${idParam}:String}`;
    const reads = q.sql.split(/FROM visitors /).slice(1);
    for (const rest of reads) expect(rest.startsWith(`WHERE ${predicate}`), rest.slice(0, 60)).toBe(true);
    // Values never reach the text (the last two look like placeholders, which the text has anyway).
    for (const h of HOSTILE.slice(0, 3)) expect(q.sql).not.toContain(h);
  });

  it("refuses an unchecked integer in a cursor position", () => {
    expect(() => historyVisitsSql(d, P, IDS, { limit: 20, after: { ts: 1.5, session_id: "s" } })).toThrow(/not an integer/);
    expect(() =>
      visitorListSql(d, P, { order: "visits", identified: "all", limit: 20, after: { key: Number.NaN, client_id: "c" } }),
    ).toThrow(/not an integer/);
    expect(() => historyVisitsFromVisitsSql(d, P, IDS, { limit: 20, after: { ts: 2.5, session_id: "s" } })).toThrow(
      /not an integer/,
    );
    expect(() =>
      visitorListFromSummarySql(d, P, { order: "events", identified: "all", limit: 20, after: { key: 0.5, client_id: "c" } }),
    ).toThrow(/not an integer/);
  });
});

describe("byBytes", () => {
  const utf8 = new TextEncoder();
  /** The reference: both strings encoded, compared byte by byte. */
  const reference = (a: string, b: string) => {
    const [x, y] = [utf8.encode(a), utf8.encode(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x.length - y.length;
  };
  it("orders any two strings as their UTF-8 bytes do (pairs, lone surrogates, U+E000 and up)", () => {
    const tricky = fc.constantFrom(
      "\ud800",
      "\udbff",
      "\udc00",
      "\ud83d\ude00",
      "\ud83d\ude01",
      "\ue000",
      "\uffff",
      "\ufffd",
      "a",
      "\u00e9",
    );
    const str = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.array(tricky, { maxLength: 4 }).map((xs) => xs.join("")),
    );
    fc.assert(
      fc.property(str, str, (a, b) => {
        expect(Math.sign(byBytes(a, b))).toBe(Math.sign(reference(a, b)));
      }),
      // The pair U+10000 against the same high surrogate left lone, then a pair: equal first units, not equal bytes.
      { numRuns: 5000, examples: [["\u{10000}", "\ud800\u{1f600}"]] },
    );
  });
});
