// The planner of the goals kind: one result row per goal of the spec (DESIGN.md §4 conversions).
// It decides, as plain data that goals-print.ts prints and plan.test.ts checks without SQL:
// - which visit rollup answers each goal: a custom-event goal reads `session_events` (its rows are
//   per visit and event name), a pageview goal `session_pages` (per visit and path);
// - how its match is tested: equality for an event name or a page pattern without wildcards, an
//   anchored regular expression (goals.ts pagePatternRegex, RE2 in both engines) otherwise;
// - whether the statement needs the range's visitors under the filters (conversion_rate's base).
// Like every kind, a visit and all it did count in the period where the visit started, and the
// filters keep or drop whole visits (filters.ts), so a goal row counts the conversions of the
// visits the dashboard's other numbers count.
import { type Filter, type GoalMetric, hasWildcard, pagePatternRegex, type SpecGoal } from "@lookout/schema";
import { type SortedFilters, sortFilters } from "./filters.js";
import type { Period } from "./parts.js";

export type GoalTest = { op: "equals"; value: string } | { op: "regex"; value: string };

export interface PlannedGoal {
  /** The row's label (the goal's display name). */
  label: string;
  table: "session_events" | "session_pages";
  /** The rollup's column the test reads, and the column that counts its events. */
  column: "name" | "path";
  countColumn: "events" | "pageviews";
  test: GoalTest;
}

export interface GoalsOrderItem {
  column: "dim" | GoalMetric;
  direction: "ASC" | "DESC";
}

export interface GoalsPlanInput {
  property: string;
  timezone: string;
  metrics: readonly GoalMetric[];
  filters: readonly Filter[];
  goals: readonly SpecGoal[];
  period: Period;
  order: GoalsOrderItem[];
  limit: number;
  offset: number;
}

export interface GoalsPlan {
  property: string;
  timezone: string;
  metrics: GoalMetric[];
  filters: SortedFilters;
  goals: PlannedGoal[];
  period: Period;
  /** conversion_rate is asked: the statement counts the range's visitors under the filters once. */
  totalVisitors: boolean;
  order: GoalsOrderItem[];
  limit: number;
  offset: number;
}

export function planGoal(goal: SpecGoal): PlannedGoal {
  if (goal.kind === "event") {
    return {
      label: goal.name,
      table: "session_events",
      column: "name",
      countColumn: "events",
      test: { op: "equals", value: goal.match },
    };
  }
  return {
    label: goal.name,
    table: "session_pages",
    column: "path",
    countColumn: "pageviews",
    test: hasWildcard(goal.match) ? { op: "regex", value: pagePatternRegex(goal.match) } : { op: "equals", value: goal.match },
  };
}

export function planGoals(input: GoalsPlanInput): GoalsPlan {
  if (input.goals.length === 0) throw new Error("a goals query needs at least one goal");
  return {
    property: input.property,
    timezone: input.timezone,
    metrics: [...input.metrics],
    filters: sortFilters(input.filters),
    goals: input.goals.map(planGoal),
    period: input.period,
    totalVisitors: input.metrics.includes("conversion_rate"),
    order: input.order,
    limit: input.limit,
    offset: input.offset,
  };
}
