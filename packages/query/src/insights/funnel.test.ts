// The funnel planner's decisions (without printing SQL), the printed SQL for both dialects (file
// snapshots under __snapshots__/sql/<dialect>/funnel-*.sql) with the safety rules of DESIGN.md §6
// on it, and the pure evaluator on rows. The numbers are checked on both engines against a
// plain-TypeScript model in packages/storage funnel-model.test.ts.
import { type FunnelSpecInput, FunnelSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import type { SqlDialect } from "../dialects.js";
import { CTX, MARK, PROPERTY, v } from "../sql-cases.js";
import { prettySql, sqlProblems } from "../sql-checks.js";
import { type CompiledFunnel, compileFunnel, FUNNEL_MAX_ROWS, planFunnel } from "./funnel.js";
import { funnelOutcome, funnelOutcomesOfPacks } from "./funnel-eval.js";
import { shapeFunnel } from "./funnel-shape.js";

const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
const KEY = `${MARK}k' OR 1 --`;

const CASES: Record<string, Omit<FunnelSpecInput, "kind">> = {
  "funnel-three-steps-exclusion": {
    period: "last_30_days",
    steps: [
      { event: "pageview", filters: "page==/pricing" },
      { event: "signup" },
      { event: "purchase", filters: "prop:plan==pro" },
    ],
    exclusions: [{ event: "cancel", between: [1, 2] }],
    filters: "country==DE|FR",
  },
  "funnel-strict-breakdown": {
    period: "last_7_days",
    steps: [{ event: "pageview" }, { event: "signup" }],
    order: "strict",
    window: { value: 30, unit: "minute" },
    breakdown: "channel",
  },
};

const parse = (s: Omit<FunnelSpecInput, "kind">) => FunnelSpecSchema.parse({ kind: "funnel", ...s });
const compile = (s: Omit<FunnelSpecInput, "kind">, dialect: SqlDialect): CompiledFunnel =>
  compileFunnel(parse(s), PROPERTY, dialect, CTX);

function snapshotText(c: CompiledFunnel): string {
  const head = Object.entries(c.params)
    .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`)
    .join("\n");
  return `${head}\n${prettySql(c.sql)}\n\n-- the visitors' statement (a step's visitors)\n${prettySql(c.actors.sql)}\n`;
}

describe("funnel plan", () => {
  it("defaults to a 14-day window, sequential order, and reads only matching events unless strict", () => {
    const plan = planFunnel(parse({ period: "last_7_days", steps: [{ event: "a" }, { event: "b" }] }), CTX);
    expect(plan.windowMs).toBe(14 * 86_400_000);
    expect(plan.order).toBe("sequential");
    expect(plan.readsEveryEvent).toBe(false);
    expect(plan.labels).toEqual(["1: a", "2: b"]);
    expect(plan.buckets).toHaveLength(7);
    const strict = planFunnel(parse({ period: "today", steps: [{ event: "a" }, { event: "b" }], order: "strict" }), CTX);
    expect(strict.readsEveryEvent).toBe(true);
    expect(
      planFunnel(parse({ steps: [{ event: "a" }, { event: "b" }], window: { value: 1, unit: "month" } }), CTX).windowMs,
    ).toBe(30 * 86_400_000);
  });
});

describe("funnel SQL", () => {
  for (const dialect of DIALECTS) {
    for (const [name, spec] of Object.entries(CASES)) {
      it(`${dialect}: ${name}`, async () => {
        const c = compile(spec, dialect);
        expect(sqlProblems(c, dialect, PROPERTY, FUNNEL_MAX_ROWS)).toEqual([]);
        expect(sqlProblems(c.actors, dialect, PROPERTY, FUNNEL_MAX_ROWS)).toEqual([]);
        await expect(snapshotText(c)).toMatchFileSnapshot(`../__snapshots__/sql/${dialect}/${name}.sql`);
      });
    }
  }

  it("never prints an event name, filter value, prop key or breakdown key into SQL text", () => {
    for (const dialect of DIALECTS) {
      const c = compile(
        {
          steps: [{ event: v("a"), filters: `page==${v("p")};prop:${KEY}~${v("x")}` }, { event: v("b") }],
          exclusions: [{ event: v("x"), between: [1, 2] }],
          breakdown: `prop:${v("bk")}`,
          filters: `country!=${v("c")}`,
        },
        dialect,
      );
      expect(c.sql).not.toContain(MARK);
      expect(c.actors.sql).not.toContain(MARK);
      expect(sqlProblems(c, dialect, PROPERTY, FUNNEL_MAX_ROWS)).toEqual([]);
      expect(sqlProblems(c.actors, dialect, PROPERTY, FUNNEL_MAX_ROWS)).toEqual([]);
    }
  });
});

describe("funnel evaluator (pure)", () => {
  const plan = (order: "sequential" | "strict" | "any", windowMs = 3_600_000) => ({
    ...planFunnel(parse({ steps: [{ event: "a" }, { event: "b" }, { event: "c" }], order }), CTX),
    windowMs,
  });
  const ev = (t: number, m: number, x = 0) => ({ t, m, x, bv: "" });

  it("takes the latest start among chains reaching the furthest step, each step as early as possible", () => {
    const o = funnelOutcome([ev(0, 1), ev(30, 1), ev(45, 2), ev(50, 2), ev(75, 4)], plan("sequential", 60));
    expect(o).toMatchObject({ reached: 3, start: 30, times: [30, 45, 75] });
  });

  it("strict: an event between two steps breaks the chain; one at the same instant may be ordered around it", () => {
    expect(funnelOutcome([ev(0, 1), ev(1, 0), ev(2, 2)], plan("strict"))?.reached).toBe(1);
    expect(funnelOutcome([ev(0, 1), ev(2, 0), ev(2, 2), ev(3, 4)], plan("strict"))?.reached).toBe(2);
    expect(funnelOutcome([ev(0, 1), ev(0, 0), ev(2, 2)], plan("strict"))?.reached).toBe(2);
  });

  it("gives the same answer whatever order the packed visitors arrive in (times summed in whole milliseconds)", () => {
    const p = plan("sequential", 86_400_000);
    // Gaps whose sums in seconds depend on their order as doubles (0.1 + 0.2 + 0.3 is not 0.3 + 0.2 + 0.1).
    const visitors = ["0:1:0:,100:2:0:,400:4:0:", "0:1:0:,200:2:0:,300:4:0:", "0:1:0:,300:2:0:,2300:4:0:", "5:1:0:"];
    const packs = (order: string[]) => [{ evs: order.slice(0, 2).join(";") }, { evs: order.slice(2).join(";") }];
    const answer = (order: string[]) => shapeFunnel(p, funnelOutcomesOfPacks(p, packs(order)));
    const a = answer(visitors);
    expect(answer([...visitors].reverse())).toEqual(a);
    expect(answer([visitors[2], visitors[0], visitors[3], visitors[1]] as string[])).toEqual(a);
    expect(a.results.steps.map((x) => x.visitors)).toEqual([4, 3, 3]);
    expect(a.results.steps[1]?.average_seconds).toBe(0.2);
    expect(a.results.time_to_convert.average_seconds).toBe(1);
  });

  it("reads each event's fields by character code, and a row without separators ends instead of looping", () => {
    const p = plan("sequential", 86_400_000);
    // The visitors' statement: "hex(client id)|" before each visitor's events ("c1", "c2").
    const os = funnelOutcomesOfPacks(p, [{ evs: "6331|1000:1:0:4445,1500:2:0:,1700:4:0:;6332|2000:1:0:" }], true);
    expect([os.count, os.cid[0], os.cid[1]]).toEqual([2, "c1", "c2"]);
    expect(os.at(0)).toMatchObject({ reached: 3, times: [1000, 1500, 1700], bv: "DE" });
    expect(os.at(1)).toMatchObject({ reached: 1, times: [2000] });
    expect(funnelOutcomesOfPacks(p, [{ evs: "12345" }]).count).toBe(0);
    expect(funnelOutcomesOfPacks(p, [{ evs: "6331" }], true).count).toBe(0);
  });

  it("any order: steps matched by distinct events within one window", () => {
    expect(funnelOutcome([ev(0, 4), ev(1, 2), ev(2, 1)], plan("any"))?.reached).toBe(3);
    expect(funnelOutcome([ev(0, 3)], plan("any"))?.reached).toBe(1);
  });
});
