// The breakdown kind: the metrics per value of its one dimension over the range, ordered (by
// default by visitors, else the first metric, descending; ties by value) and paged.
import type { Metric } from "@lookout/schema";
import { resolveDateRange } from "../date-range.js";
import { type OrderItem, planQuery } from "../plan.js";
import { printQuery } from "../print.js";
import { type Compiler, commonInput, periodOf } from "./compiler.js";

export const compileBreakdown: Compiler<"breakdown"> = (spec, dialect, ctx) => {
  const dimension = spec.dimensions[0];
  // The schema refuses a breakdown without one; this guards callers that skip it.
  if (dimension === undefined) throw new Error("a breakdown needs exactly one dimension");
  const range = resolveDateRange(spec.date_range, ctx);
  const by = spec.order?.by ?? (spec.metrics.includes("visitors") ? "visitors" : (spec.metrics[0] as Metric));
  const direction = spec.order?.direction === "asc" ? "ASC" : "DESC";
  const order: OrderItem[] =
    by === "dimension"
      ? [{ column: "dim", direction }]
      : [
          { column: by, direction },
          { column: "dim", direction: "ASC" },
        ];
  const plan = planQuery({
    ...commonInput(spec, dialect, ctx),
    key: { by: "dimension", dimension },
    periods: [periodOf(range.from, range.to)],
    order,
    limit: spec.limit,
    offset: spec.offset,
  });
  return {
    ...printQuery(plan, dialect),
    kind: "breakdown",
    dialect,
    metrics: spec.metrics,
    dimension,
    range,
    comparison: null,
    interval: null,
    buckets: [],
    comparisonBuckets: [],
  };
};
