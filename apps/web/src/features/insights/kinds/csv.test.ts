// The CSV rows of every insight kind but trends (whose rows list-params.test.ts pins): each kind's
// toCsv is a pure function of its answer; tracked text (step labels, breakdown values, paths) goes
// into cells as is and the shared cell rule (csvLine) escapes what would run as a formula.
import { csvLine, type InsightKind } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { funnelCsv } from "./funnel/view";
import { KIND_VIEWS } from "./index";
import { lifecycleCsv } from "./lifecycle/view";
import { pathsCsv } from "./paths/view";
import { retentionCsv } from "./retention/view";
import { stickinessCsv } from "./stickiness/view";

describe("insight CSV", () => {
  it("every kind offers a CSV", () => {
    for (const kind of Object.keys(KIND_VIEWS) as InsightKind[]) expect(KIND_VIEWS[kind].toCsv, kind).toBeTypeOf("function");
  });

  it("funnel: one row per step, the funnel's own first, then each breakdown value's", () => {
    const step = (step: number, label: string, visitors: number, conversion: number, fromPrev: number, dropped: number) => ({
      step,
      label,
      visitors,
      conversion,
      conversion_from_previous: fromPrev,
      dropped,
      median_seconds: step === 1 ? null : 30,
      average_seconds: step === 1 ? null : 45.5,
    });
    const rows = funnelCsv({
      kind: "funnel",
      results: {
        steps: [step(1, "1: pageview", 4, 100, 100, 0), step(2, "2: signup", 1, 25, 25, 3)],
        breakdowns: [
          {
            breakdown_value: "=HYPERLINK()",
            steps: [step(1, "1: pageview", 2, 100, 100, 0), step(2, "2: signup", 1, 50, 50, 1)],
          },
        ],
        time_to_convert: { bins: [], median_seconds: null, average_seconds: null },
        over_time: [],
      },
    });
    expect(rows).toEqual([
      [
        "breakdown_value",
        "step",
        "label",
        "visitors",
        "conversion_pct",
        "conversion_from_previous_pct",
        "dropped",
        "median_seconds",
        "average_seconds",
      ],
      ["", 1, "1: pageview", 4, 100, 100, 0, null, null],
      ["", 2, "2: signup", 1, 25, 25, 3, 30, 45.5],
      ["=HYPERLINK()", 1, "1: pageview", 2, 100, 100, 0, null, null],
      ["=HYPERLINK()", 2, "2: signup", 1, 50, 50, 1, 30, 45.5],
    ]);
    expect(csvLine(rows[3] ?? [])).toBe("'=HYPERLINK(),1,1: pageview,2,100,100,0,,\r\n");
  });

  it("retention: one row per cohort, a column per period, empty where a period has not begun", () => {
    const rows = retentionCsv({
      kind: "retention",
      period_unit: "day",
      periods: 3,
      results: {
        cohorts: [
          { date: "2024-03-04", size: 5, values: [5, 2, 1], incomplete: false },
          { date: "2024-03-05", size: 2, values: [2, 1], incomplete: true },
          { date: "2024-03-06", size: 0, values: [0], incomplete: true },
        ],
      },
    });
    expect(rows).toEqual([
      ["cohort", "size", "incomplete", "period_0", "period_1", "period_2"],
      ["2024-03-04", 5, "no", 5, 2, 1],
      ["2024-03-05", 2, "yes", 2, 1, null],
      ["2024-03-06", 0, "yes", 0, null, null],
    ]);
  });

  it("stickiness: one row per n, the header naming the interval and whether it is cumulative", () => {
    const answer = {
      kind: "stickiness" as const,
      interval: "week" as const,
      cumulative: false,
      results: [
        { intervals: 1, visitors: 7 },
        { intervals: 2, visitors: 3 },
      ],
    };
    expect(stickinessCsv(answer)).toEqual([
      ["weeks", "visitors_exactly_n"],
      [1, 7],
      [2, 3],
    ]);
    expect(stickinessCsv({ ...answer, cumulative: true })[0]).toEqual(["weeks", "visitors_n_or_more"]);
  });

  it("lifecycle: one row per interval, dormant negative as answered", () => {
    expect(
      lifecycleCsv({
        kind: "lifecycle",
        interval: "day",
        results: [
          { date: "2024-03-04", new: 1, returning: 0, resurrecting: 0, dormant: 0 },
          { date: "2024-03-05", new: 0, returning: 0, resurrecting: 0, dormant: -1 },
        ],
      }),
    ).toEqual([
      ["date", "new", "returning", "resurrecting", "dormant"],
      ["2024-03-04", 1, 0, 0, 0],
      ["2024-03-05", 0, 0, 0, -1],
    ]);
  });

  it("paths: one row per drawn edge; a tracked path that looks like a formula is escaped", () => {
    const rows = pathsCsv({
      kind: "paths",
      results: {
        edges: [
          { step: 1, source: "/", target: "/pricing", visitors: 3 },
          { step: 2, source: "/pricing", target: "+cmd|' /C calc'!A0", visitors: 1 },
        ],
        nodes: [],
        paths: 3,
      },
    });
    expect(rows).toEqual([
      ["step", "source", "target", "visitors"],
      [1, "/", "/pricing", 3],
      [2, "/pricing", "+cmd|' /C calc'!A0", 1],
    ]);
    expect(csvLine(rows[2] ?? [])).toBe("2,/pricing,'+cmd|' /C calc'!A0,1\r\n");
  });
});
