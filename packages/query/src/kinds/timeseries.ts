// The timeseries kind: the metrics per local-time bucket of the interval, one row per period and
// bucket. The comparison spans its whole period so that both lines have the same buckets; the
// caller puts empty buckets in place from `buckets` (buckets.ts labels them as the SQL does), which
// stop at the bucket holding now: future buckets are not drawn.
import { bucketLabels, bucketsUpToNow } from "../buckets.js";
import { comparisonRange, defaultInterval, resolveDateRange } from "../date-range.js";
import { planQuery } from "../plan.js";
import { printQuery } from "../print.js";
import { type Compiler, commonInput, periodOf } from "./compiler.js";

/** The row cap; bucketLabels refuses more buckets than this per period. */
const MAX_TIMESERIES_ROWS = 2 * 1500;

export const compileTimeseries: Compiler<"timeseries"> = (spec, dialect, ctx) => {
  const range = resolveDateRange(spec.date_range, ctx);
  const cmp = spec.comparison ? comparisonRange(spec.date_range, range, spec.comparison, ctx) : null;
  const interval = spec.interval ?? defaultInterval(spec.date_range, range);
  const periods = [periodOf(range.from, range.to), ...(cmp ? [periodOf(cmp.from, cmp.to)] : [])];
  const allBuckets = bucketLabels(range, interval, ctx.timezone);
  // Drawn: up to the bucket holding now. The row limit still counts every bucket of the period,
  // so rows stamped later (a clock ahead) cannot push the comparison's rows out.
  const buckets = bucketsUpToNow(allBuckets, interval, ctx.timezone, ctx.now);
  const comparisonBuckets = cmp ? bucketLabels(cmp, interval, ctx.timezone) : [];
  const plan = planQuery({
    ...commonInput(spec, dialect, ctx),
    key: { by: "bucket", interval },
    periods,
    order: [{ column: "bucket" }],
    limit: Math.min(allBuckets.length + comparisonBuckets.length, MAX_TIMESERIES_ROWS),
    offset: 0,
  });
  return {
    ...printQuery(plan, dialect),
    kind: "timeseries",
    dialect,
    metrics: spec.metrics,
    dimension: null,
    range,
    comparison: cmp,
    interval,
    buckets,
    comparisonBuckets,
  };
};
