// The Stats API's answers (README "Stats API"), as the server shapes them (storage's
// shapeResults) and clients read them. Every answer but realtime is `{ results }`:
//   aggregate  -> { <metric>: { value, comparison, change } }  (change in %, null without a
//                 comparison or when the comparison is 0)
//   timeseries -> [{ date, <metric>: n, comparison?: { date, <metric>: n } | null }], one per bucket
//   breakdown  -> [{ <dimension>: value as text, <metric>: n }]
//   realtime visitors -> a bare count
import { z } from "zod";
import { METRICS, type Metric } from "./query.js";

/** A metric's number: always finite (zod refuses NaN and Infinity). */
const MetricNumber = z.number();

/** `{ visitors?: n, pageviews?: n, ... }`: the metrics asked for, each a number. */
const metricFields = Object.fromEntries(METRICS.map((m) => [m, MetricNumber.optional()])) as Record<
  Metric,
  z.ZodOptional<typeof MetricNumber>
>;
export const MetricValuesSchema = z.object(metricFields);
export type MetricValues = z.infer<typeof MetricValuesSchema>;

export const AggregateValueSchema = z.object({
  value: MetricNumber,
  comparison: MetricNumber.nullable(),
  change: MetricNumber.nullable(),
});
export type AggregateValue = z.infer<typeof AggregateValueSchema>;

export const AggregateResultSchema = z.partialRecord(z.enum(METRICS), AggregateValueSchema);
export type AggregateResult = z.infer<typeof AggregateResultSchema>;

export const TimeseriesPointSchema = z.object({
  ...metricFields,
  date: z.string(),
  /** Present when a comparison was asked; null where the comparison period has no bucket. */
  comparison: z
    .object({ ...metricFields, date: z.string() })
    .nullable()
    .optional(),
});
export type TimeseriesPoint = z.infer<typeof TimeseriesPointSchema>;
export const TimeseriesResultSchema = z.array(TimeseriesPointSchema);

/** The dimension's value under the dimension's own name (e.g. `page`), metrics beside it. */
export const BreakdownRowSchema = z.record(z.string(), z.union([z.string(), MetricNumber]));
export type BreakdownRow = z.infer<typeof BreakdownRowSchema>;
export const BreakdownResultSchema = z.array(BreakdownRowSchema);

export const AggregateAnswerSchema = z.object({ results: AggregateResultSchema });
export const TimeseriesAnswerSchema = z.object({ results: TimeseriesResultSchema });
export const BreakdownAnswerSchema = z.object({ results: BreakdownResultSchema });
export type AggregateAnswer = z.infer<typeof AggregateAnswerSchema>;
export type TimeseriesAnswer = z.infer<typeof TimeseriesAnswerSchema>;
export type BreakdownAnswer = z.infer<typeof BreakdownAnswerSchema>;

/** GET /api/v1/stats/realtime/visitors: the number of visitors on the site now. */
export const RealtimeVisitorsAnswerSchema = z.number().int().nonnegative();
