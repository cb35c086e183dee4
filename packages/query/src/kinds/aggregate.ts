// The aggregate kind: the metrics over the range, one row per period (the range, then the
// comparison's). A comparison of a range still running stops at the same elapsed point of the
// earlier period (ComparisonRange.elapsedTo), so that "today so far" meets "yesterday so far".
import { comparisonRange, resolveDateRange } from "../date-range.js";
import { planQuery } from "../plan.js";
import { printQuery } from "../print.js";
import { type Compiler, commonInput, periodOf } from "./compiler.js";

export const compileAggregate: Compiler<"aggregate"> = (spec, dialect, ctx) => {
  const range = resolveDateRange(spec.date_range, ctx);
  const cmp = spec.comparison ? comparisonRange(spec.date_range, range, spec.comparison, ctx) : null;
  const periods = [periodOf(range.from, range.to), ...(cmp ? [periodOf(cmp.from, cmp.elapsedTo)] : [])];
  const plan = planQuery({
    ...commonInput(spec, dialect, ctx),
    key: { by: "none" },
    periods,
    order: [],
    limit: periods.length,
    offset: 0,
  });
  return {
    ...printQuery(plan, dialect),
    kind: "aggregate",
    dialect,
    metrics: spec.metrics,
    dimension: null,
    range,
    comparison: cmp,
    interval: null,
    buckets: [],
    comparisonBuckets: [],
  };
};
