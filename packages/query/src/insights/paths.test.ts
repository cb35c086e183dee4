// The paths compiler: the planner's decisions (no SQL printed), the printed SQL for both dialects
// (file snapshots under __snapshots__/sql/<dialect>/paths-*.sql) with the safety rules of
// DESIGN.md §6, and the pure finishing functions on hand-built visits (each test names the rule it
// pins). The numbers on real engines: packages/storage paths-model.test.ts.
import { type PathsSpecInput, PathsSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { dayRowsKey } from "../clickhouse-day-rows.js";
import { pathRowsThrough } from "../clickhouse-path-days.js";
import { SETTLED_PARAMS } from "../clickhouse-visits.js";
import type { SqlDialect } from "../dialects.js";
import { CTX, MARK, PROPERTY, v } from "../sql-cases.js";
import { prettySql, sqlProblems } from "../sql-checks.js";
import {
  type CompiledPaths,
  compilePaths,
  PATHS_MAX_VISITS,
  type PathsPlan,
  type PathsRow,
  pathsActorIds,
  planPaths,
  shapePaths,
  visitPath,
} from "./paths.js";
import { pathsRollupTo } from "./paths-rollup.js";

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
const parse = (s: Omit<PathsSpecInput, "kind">) => PathsSpecSchema.parse({ kind: "paths", ...s });
const compile = (s: Omit<PathsSpecInput, "kind">, dialect: SqlDialect): CompiledPaths =>
  compilePaths(parse(s), PROPERTY, dialect, CTX);

const CASES: Record<string, Omit<PathsSpecInput, "kind">> = {
  "paths-pageviews-from-start": { period: "last_30_days", type: "pageview", start: "/", steps: 5, filters: "country==DE" },
  "paths-events-to-end": { period: "last_7_days", type: "event", end: "purchase", steps: 4 },
  "paths-all-between": { period: "last_90_days", type: "all", start: "/pricing", end: "signup", steps: 10 },
};

function snapshotText(c: CompiledPaths): string {
  const head = Object.entries(c.params)
    .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`)
    .join("\n");
  return `${head}\n${prettySql(c.sql)}\n`;
}

describe("paths planner", () => {
  it("reads the paths rollups for pages without a start, an end or a filter, from a local midnight before the mark", () => {
    const range = { from: Date.parse("2024-03-04T23:00:00Z"), to: Date.parse("2024-04-03T22:00:00Z") };
    const o = { rollups: true, range, through: Date.parse("2024-04-01T22:00:00Z"), timezone: "Europe/Berlin" };
    const pages = parse({ type: "pageview" });
    expect(pathsRollupTo(pages, o)).toBe(o.through);
    // The range's end when the mark is past it, its last midnight when the range ends mid-day.
    expect(pathsRollupTo(pages, { ...o, through: Date.parse("2024-05-01T22:00:00Z") })).toBe(range.to);
    const midDay = { ...o, through: Date.parse("2024-05-01T22:00:00Z"), range: { ...range, to: range.to - 3_600_000 } };
    expect(pathsRollupTo(pages, midDay)).toBe(Date.parse("2024-04-02T22:00:00Z"));
    expect(pathsRollupTo(parse({ type: "event" }), o)).toBeNull();
    expect(pathsRollupTo(parse({ type: "all" }), o)).toBeNull();
    expect(pathsRollupTo(parse({ start: "/" }), o)).toBeNull();
    expect(pathsRollupTo(parse({ end: "/" }), o)).toBeNull();
    expect(pathsRollupTo(parse({ filters: "country==DE" }), o)).toBeNull();
    expect(pathsRollupTo(pages, { ...o, rollups: false })).toBeNull();
    expect(pathsRollupTo(pages, { ...o, through: undefined })).toBeNull();
    // Not from a local midnight (an hour into the day in Berlin), or no whole day before the mark.
    expect(pathsRollupTo(pages, { ...o, range: { ...range, from: range.from + 3_600_000 } })).toBeNull();
    expect(pathsRollupTo(pages, { ...o, through: range.from })).toBeNull();
  });
  it("reads only the visits that hold the anchor points", () => {
    expect(planPaths(parse({ start: "/a" }))).toEqual({ items: "pageview", start: "/a", end: null, steps: 5, required: ["/a"] });
    expect(planPaths(parse({ type: "event", start: "x", end: "y", steps: 3 })).required).toEqual(["x", "y"]);
    expect(planPaths(parse({ type: "all" })).required).toEqual([]);
  });
  it("refuses steps outside 3–10 and an end equal to the start, field by field", () => {
    const issues = (s: object) =>
      PathsSpecSchema.safeParse({ kind: "paths", ...s }).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ steps: 11 })).toEqual([["steps", "too many steps (at most 10)"]]);
    expect(issues({ steps: 2 })).toEqual([["steps", "too few steps (at least 3)"]]);
    expect(issues({ start: "/a", end: "/a" })).toEqual([["end", "the end point must differ from the start point"]]);
    expect(issues({ type: "screens" })?.[0]?.[0]).toBe("type");
  });
});

describe("paths SQL", () => {
  for (const dialect of DIALECTS) {
    for (const [name, spec] of Object.entries(CASES)) {
      it(`${dialect}: ${name}`, async () => {
        const c = compile(spec, dialect);
        expect(sqlProblems(c, dialect, PROPERTY, PATHS_MAX_VISITS)).toEqual([]);
        expect(sqlProblems(c.actors, dialect, PROPERTY, PATHS_MAX_VISITS)).toEqual([]);
        await expect(snapshotText(c)).toMatchFileSnapshot(`../__snapshots__/sql/${dialect}/${name}.sql`);
      });
    }
  }
  it("clickhouse: every visit is walked once (18.16 computes each subquery reference again)", () => {
    for (const spec of Object.values(CASES)) {
      const c = compile(spec, "clickhouse");
      expect(c.sql.match(/FROM events WHERE/g)?.length).toBe(1);
      expect(c.sql.match(/arraySort\(groupArray\(/g)?.length).toBe(1);
    }
  });
  it("duckdb: paths-rollup (pages without anchors: the days before the mark from the paths rollups, S's share swapped from events)", async () => {
    const c = compilePaths(parse({ period: "last_30_days", type: "pageview", steps: 5 }), PROPERTY, "duckdb", {
      ...CTX,
      dayRollupThrough: Date.parse("2024-04-02T22:00:00Z"),
    });
    expect(c.rollupTo).toBe(Date.parse("2024-04-02T22:00:00Z"));
    expect(c.sql).toContain("paths_rollup");
    expect(sqlProblems(c, "duckdb", PROPERTY, PATHS_MAX_VISITS)).toEqual([]);
    await expect(snapshotText(c)).toMatchFileSnapshot("../__snapshots__/sql/duckdb/paths-rollup.sql");
  });
  it("clickhouse: paths-days (pages without anchors: the days whose batches have path rows, S's share swapped from events)", async () => {
    const through = Date.parse("2024-04-02T00:00:00Z");
    const settled = {
      firstLiveDay: through / 86_400_000 + 1,
      // A batch id is a base (a multiple of 2^16) plus its UTC day: 2024-04-01 and 1970-04-11.
      batches: [String(7 * 65536 + 19814), String(7 * 65536 + 100)],
      pathRows: { [dayRowsKey(PROPERTY, CTX.timezone)]: through / 86_400_000 },
    };
    const pages = parse({ period: "last_30_days", type: "pageview", steps: 5 });
    const c = compilePaths(pages, PROPERTY, "clickhouse", { ...CTX, settledVisits: settled });
    // The UTC midnight of the first day without rows, though inside a local day: its rows hold its visits up to there.
    expect(c.rollupTo).toBe(pathRowsThrough(settled, PROPERTY, CTX.timezone));
    expect(c.rollupTo).toBe(through);
    expect(c.sql).toContain("FROM visit_paths WHERE");
    // The batches the bound was read with, those of the days read, are printed now, not bound when
    // the statement runs.
    expect(c.params[SETTLED_PARAMS.batches]).toBeUndefined();
    expect(c.sql).toContain(`batch IN (${7 * 65536 + 19814}, 0)`);
    expect(c.sql).not.toContain(String(7 * 65536 + 100));
    // The rows once; S's settled visits twice (theirs, and those the events must not give again);
    // the events only over windows: who is in S (a pageview after R) at each of its three uses, and
    // their visits' events in the range's first two days and its last.
    expect(c.sql.match(/FROM visit_path_visits WHERE/g)?.length).toBe(2);
    expect(c.sql.match(/FROM events WHERE/g)?.length).toBe(4);
    expect(c.sql.match(/FROM visit_paths WHERE/g)?.length).toBe(1);
    expect(sqlProblems(c, "clickhouse", PROPERTY, PATHS_MAX_VISITS)).toEqual([]);
    await expect(snapshotText(c)).toMatchFileSnapshot("../__snapshots__/sql/clickhouse/paths-days.sql");
    // Not without the pair's rows, nor for a spec they do not answer.
    const ctx = { ...CTX, settledVisits: settled };
    expect(
      compilePaths(pages, PROPERTY, "clickhouse", { ...ctx, settledVisits: { ...settled, pathRows: {} } }).rollupTo,
    ).toBeNull();
    expect(compilePaths(pages, PROPERTY, "clickhouse", CTX).rollupTo).toBeNull();
    for (const other of [{ start: "/" }, { filters: "country==DE" }, { type: "all" as const }])
      expect(compilePaths(parse({ ...pages, ...other }), PROPERTY, "clickhouse", ctx).sql).not.toContain("visit_paths");
  });
  it("never prints a start, end or filter value into SQL text", () => {
    for (const dialect of DIALECTS) {
      const c = compile({ type: "all", start: v("s"), end: v("e"), filters: `page==${v("p")};prop:${MARK}k~${v("x")}` }, dialect);
      expect(c.sql).not.toContain(MARK);
      expect(c.actors.sql).not.toContain(MARK);
      expect(sqlProblems(c, dialect, PROPERTY, PATHS_MAX_VISITS)).toEqual([]);
      expect(sqlProblems(c.actors, dialect, PROPERTY, PATHS_MAX_VISITS)).toEqual([]);
    }
  });
});

const plan = (over: Partial<PathsPlan>): PathsPlan => ({
  items: "pageview",
  start: null,
  end: null,
  steps: 5,
  required: [],
  ...over,
});
const row = (vis: string, items: string[], client = `c-${vis}`): PathsRow => ({ v: vis, c: client, items });

describe("visitPath", () => {
  it("collapses consecutive repeats only (a page seen again later stays): peers.md §1.6 /a /b /b /c -> a b c", () => {
    expect(visitPath(["/a", "/b", "/b", "/c"], plan({}))).toEqual(["/a", "/b", "/c"]);
    expect(visitPath(["/a", "/b", "/a", "/a", "/b"], plan({}))).toEqual(["/a", "/b", "/a", "/b"]);
  });
  it("keeps the first `steps` items without anchors", () => {
    expect(visitPath(["1", "2", "3", "4", "5"], plan({ steps: 3 }))).toEqual(["1", "2", "3"]);
  });
  it("starts at the first occurrence of the start point; visits without it have no path", () => {
    expect(visitPath(["/x", "/a", "/b", "/a", "/c"], plan({ start: "/a", steps: 3 }))).toEqual(["/a", "/b", "/a"]);
    expect(visitPath(["/x", "/y"], plan({ start: "/a" }))).toBeNull();
  });
  it("ends at the first occurrence of the end point, keeping the last `steps` items", () => {
    expect(visitPath(["1", "2", "3", "4", "end", "5", "end"], plan({ end: "end", steps: 3 }))).toEqual(["3", "4", "end"]);
    expect(visitPath(["end"], plan({ end: "end" }))).toEqual(["end"]);
    expect(visitPath(["1"], plan({ end: "end" }))).toBeNull();
  });
  it("with both anchors, counts a visit that reaches the end (after the start) within `steps` items", () => {
    const p = plan({ start: "s", end: "e", steps: 3 });
    expect(visitPath(["e", "s", "x", "e"], p)).toEqual(["s", "x", "e"]);
    expect(visitPath(["s", "x", "y", "e"], p)).toBeNull();
    expect(visitPath(["e", "s"], p)).toBeNull();
  });
  it("has no path for a visit without items", () => {
    expect(visitPath([], plan({}))).toBeNull();
  });
});

describe("shapePaths", () => {
  it("weighs an edge by distinct visitors, not by visits or repeats (DESIGN.md §4)", () => {
    const rows = [row("v1", ["/a", "/b"]), row("v1", ["/a", "/b", "/a", "/b"]), row("v2", ["/a", "/a", "/b"])];
    const a = shapePaths({ plan: plan({}) }, rows);
    expect(a.results.edges).toEqual([
      { step: 1, source: "/a", target: "/b", visitors: 2 },
      { step: 2, source: "/b", target: "/a", visitors: 1 },
      { step: 3, source: "/a", target: "/b", visitors: 1 },
    ]);
    expect(a.results.nodes).toEqual([
      { step: 1, node: "/a", visitors: 2 },
      { step: 2, node: "/b", visitors: 2 },
      { step: 3, node: "/a", visitors: 1 },
      { step: 4, node: "/b", visitors: 1 },
    ]);
    expect(a.results.paths).toBe(3);
  });
  it("keeps the top 50 edges, ties by step, then source, then target", () => {
    // 60 one-visitor edges at step 1 from "/s" and one two-visitor edge: the latter first, then
    // the ties by target in code-unit order, cut at 50.
    const rows = Array.from({ length: 60 }, (_, i) => row(`v${i}`, ["/s", `/t${String(i).padStart(2, "0")}`]));
    rows.push(row("w", ["/r", "/q"]), row("w2", ["/r", "/q"]));
    const edges = shapePaths({ plan: plan({}) }, rows).results.edges;
    expect(edges).toHaveLength(50);
    expect(edges[0]).toEqual({ step: 1, source: "/r", target: "/q", visitors: 2 });
    expect(edges[1]).toEqual({ step: 1, source: "/s", target: "/t00", visitors: 1 });
    expect(edges[49]?.target).toBe("/t48");
  });
  it("lists the sorted, distinct client ids at a node", () => {
    const rows = [
      row("v2", ["/a", "/b"], "z"),
      row("v1", ["/b", "/a"], "y"),
      row("v1", ["/x", "/b"], "y"),
      row("v3", ["/a", "/b"], "a"),
    ];
    expect(pathsActorIds({ plan: plan({}) }, rows, { step: 2, node: "/b" })).toEqual(["a", "y", "z"]);
    expect(pathsActorIds({ plan: plan({}) }, rows, { step: 3, node: "/b" })).toEqual([]);
  });
});
