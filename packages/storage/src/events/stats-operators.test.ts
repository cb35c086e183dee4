// Every filter operator on every dimension the Stats API filters by (each BASE_DIMENSION and a
// custom prop) runs on DuckDB and agrees with itself: a filter and its negation split the visits
// between them (a visit either has a matching value, or row, or it has none), `matches ^X$` is
// `is X`, `contains` ignores case, and several values of `is` add up (for a session dimension,
// a visit has one value). The exact numbers of each level are pinned in stats.test.ts and by the
// reference model (stats-model.test.ts); this sweep is about breadth.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE_DIMENSIONS, type Dimension, type EventRow, type Filter, type QuerySpecInput } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import { at, event } from "./fixtures.js";
import { type AggregateResult, type BreakdownRow, runStats, type StatsContext } from "./stats.js";

const P = "operators.example";
const CTX: StatsContext = { timezone: "UTC", now: at("2024-05-15 12:00:00") };
const RANGE = { preset: "custom", from: "2024-05-10", to: "2024-05-14" } as const;

/** Session columns of EventRow by dimension (source is stored as referrer_source). */
const SESSION_COLUMNS = {
  hostname: "hostname",
  source: "referrer_source",
  referrer: "referrer",
  channel: "channel",
  utm_source: "utm_source",
  utm_medium: "utm_medium",
  utm_campaign: "utm_campaign",
  utm_term: "utm_term",
  utm_content: "utm_content",
  country: "country",
  region: "region",
  city: "city",
  browser: "browser",
  browser_version: "browser_version",
  os: "os",
  os_version: "os_version",
  device: "device",
  screen: "screen",
} as const satisfies Partial<Record<Dimension, keyof EventRow>>;

const WORDS = ["Alpha", "beta", "Gamma", "", "alphaBeta", "Beta"];
const PATHS = [["/"], ["/Blog/a", "/pricing"], ["/pricing"], ["/", "/Blog/b", "/blog/c"], ["/docs"], ["/Blog/a"]];

/** Six visits on different days, each with its own word in every session column, pages, and maybe a custom event. */
const FIXTURE: EventRow[] = WORDS.flatMap((word, i) => {
  const attrs: Partial<EventRow> = {};
  for (const [dim, col] of Object.entries(SESSION_COLUMNS)) {
    (attrs as Record<string, string>)[col] = word === "" ? "" : `${word}-${dim}`;
  }
  const base = { property: P, visitor_id: `v${i}`, session_id: `s${i}`, client_id: `v${i}`, ...attrs };
  const day = 10 + (i % 5);
  const rows = (PATHS[i] ?? ["/"]).map((path, j) =>
    event({ ...base, ts: at(`2024-05-${day} 0${i}:0${j}:00`), name: "pageview", path }),
  );
  if (i % 2 === 0) {
    rows.push(
      event({
        ...base,
        ts: at(`2024-05-${day} 0${i}:09:00`),
        name: i === 2 ? "Purchase" : "signup",
        path: "/",
        props: i === 4 ? {} : { plan: i === 0 ? "Pro" : "team" },
      }),
    );
  }
  return rows;
});

let store: DuckDbEventStore;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lookout-operators-"));
  store = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0 });
  await store.append(FIXTURE);
  await store.sync();
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const visits = async (filters: Filter[]) =>
  (
    (await runStats(
      store,
      { kind: "aggregate", property: P, date_range: RANGE, metrics: ["visits"], filters },
      CTX,
    )) as AggregateResult
  ).visits?.value as number;
const valuesOf = async (dimension: Dimension) =>
  (
    (await runStats(
      store,
      { kind: "breakdown", property: P, date_range: RANGE, dimensions: [dimension], metrics: ["visits"] } as QuerySpecInput,
      CTX,
    )) as BreakdownRow[]
  ).map((r) => String(r[dimension] ?? ""));
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("every operator on every dimension", () => {
  it("the fixture is what the sweep needs", async () => {
    expect(await visits([])).toBe(6);
    expect(await valuesOf("prop:plan")).toEqual(expect.arrayContaining(["Pro", "team"]));
  });

  for (const dimension of [...BASE_DIMENSIONS, "prop:plan"] as Dimension[]) {
    it(dimension, async () => {
      const total = await visits([]);
      const found = (await valuesOf(dimension)).filter((v) => v !== "");
      expect(found.length, `${dimension} has values`).toBeGreaterThan(0);
      const [x, y] = found as [string, string | undefined];
      const f = (op: Filter["op"], ...values: string[]): Filter[] => [{ dimension, op, values }];

      const isX = await visits(f("is", x));
      expect(isX, `${dimension} is ${x}`).toBeGreaterThan(0);
      expect(isX + (await visits(f("is_not", x))), `${dimension} is / is not`).toBe(total);

      // Part of the value in the other case: contains ignores case.
      const part = x.length > 2 ? x.slice(1, -1) : x;
      const swapped = part === part.toUpperCase() ? part.toLowerCase() : part.toUpperCase();
      const containsX = await visits(f("contains", swapped));
      expect(containsX, `${dimension} contains ${swapped}`).toBeGreaterThanOrEqual(isX);
      expect(containsX + (await visits(f("not_contains", swapped))), `${dimension} contains / does not contain`).toBe(total);

      expect(await visits(f("matches", `^${escapeRegex(x)}$`)), `${dimension} matches ^x$`).toBe(isX);
      expect(await visits(f("matches", "^no such value$")), `${dimension} matches nothing`).toBe(0);

      if (y !== undefined) {
        const isY = await visits(f("is", y));
        const both = await visits(f("is", x, y));
        expect(both).toBeGreaterThanOrEqual(Math.max(isX, isY));
        expect(both + (await visits(f("is_not", x, y))), `${dimension} is / is not x|y`).toBe(total);
        if (dimension in SESSION_COLUMNS) expect(both, `${dimension} is x|y`).toBe(isX + isY);
      }
    });
  }
});
