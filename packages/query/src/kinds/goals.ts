// The goals kind: one row per goal of the spec (custom-event and pageview goals) with its unique
// conversions (visitors), total conversions (events) and conversion rate over the range, ordered
// (by default by visitors, descending; ties by name) and paged. No comparison.
import type { GoalMetric } from "@lookout/schema";
import { resolveDateRange } from "../date-range.js";
import { type GoalsOrderItem, planGoals } from "../goals-plan.js";
import { printGoals } from "../goals-print.js";
import { type Compiler, periodOf } from "./compiler.js";

export const compileGoals: Compiler<"goals"> = (spec, dialect, ctx) => {
  const range = resolveDateRange(spec.date_range, ctx);
  const metrics = spec.metrics as GoalMetric[];
  const by = spec.order?.by ?? (metrics.includes("visitors") ? "visitors" : (metrics[0] as GoalMetric));
  const direction = spec.order?.direction === "asc" ? "ASC" : "DESC";
  const order: GoalsOrderItem[] =
    by === "dimension"
      ? [{ column: "dim", direction }]
      : [
          { column: by as GoalMetric, direction },
          { column: "dim", direction: "ASC" },
        ];
  const plan = planGoals({
    property: spec.property,
    timezone: ctx.timezone,
    metrics,
    filters: spec.filters,
    goals: spec.goals,
    period: periodOf(range.from, range.to),
    order,
    limit: spec.limit,
    offset: spec.offset,
  });
  return {
    ...printGoals(plan, dialect),
    kind: "goals",
    dialect,
    metrics: spec.metrics,
    dimension: "goal",
    range,
    comparison: null,
    interval: null,
    buckets: [],
    comparisonBuckets: [],
  };
};
