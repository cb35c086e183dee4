// Retention (DESIGN.md §4, §5 the retention answer): a start and a return event, a period unit,
// 1–12 periods after period 0, first_time or recurring cohorts, "on" or "on or after" ("cumulative"),
// and its answer: one row per cohort with counts (n0 = the cohort's size), the periods that have
// begun only, the last one marked when it is still running. The mean row and the percentages are
// derived from the counts by retentionPercentages / retentionMeans (shared by the API docs and the web).
import { z } from "zod";
import { checkCustomDate, EventSelectorSchema, insightCommon } from "./common.js";

export const RETENTION_PERIOD_UNITS = ["day", "week", "month"] as const;
export type RetentionPeriodUnit = (typeof RETENTION_PERIOD_UNITS)[number];
export const RETENTION_TYPES = ["first_time", "recurring"] as const;
export type RetentionType = (typeof RETENTION_TYPES)[number];
export const RETENTION_LIMITS = { minPeriods: 1, maxPeriods: 12, defaultPeriods: 8, maxCohorts: 400 } as const;

export const RetentionSpecSchema = z
  .object({
    kind: z.literal("retention"),
    ...insightCommon,
    start_event: EventSelectorSchema,
    return_event: EventSelectorSchema,
    period_unit: z.enum(RETENTION_PERIOD_UNITS).default("day"),
    /** Periods after period 0: the grid has periods + 1 columns. */
    periods: z.number().int().default(RETENTION_LIMITS.defaultPeriods),
    retention_type: z.enum(RETENTION_TYPES).default("first_time"),
    /** "On or after": cell N counts visitors who returned in period N or any later period of the grid. */
    cumulative: z.boolean().default(false),
  })
  .superRefine((s, ctx) => {
    checkCustomDate(s, ctx);
    if (s.periods < RETENTION_LIMITS.minPeriods || s.periods > RETENTION_LIMITS.maxPeriods) {
      ctx.addIssue({
        code: "custom",
        message: `periods must be between ${RETENTION_LIMITS.minPeriods} and ${RETENTION_LIMITS.maxPeriods}`,
        path: ["periods"],
      });
    }
  });
export type RetentionSpec = z.infer<typeof RetentionSpecSchema>;
export type RetentionSpecInput = z.input<typeof RetentionSpecSchema>;

export const RetentionCohortSchema = z.object({
  /** The first local day of the cohort's period (YYYY-MM-DD). */
  date: z.string(),
  size: z.number().int(),
  /** Visitors per period: values[0] = size; only periods that have begun. */
  values: z.array(z.number().int()),
  /** Whether the last value's period is still running (its count may still grow). */
  incomplete: z.boolean(),
});
export type RetentionCohort = z.infer<typeof RetentionCohortSchema>;

export const RetentionAnswerSchema = z.object({
  kind: z.literal("retention"),
  period_unit: z.enum(RETENTION_PERIOD_UNITS),
  periods: z.number().int(),
  results: z.object({ cohorts: z.array(RetentionCohortSchema) }),
});
export type RetentionAnswer = z.infer<typeof RetentionAnswerSchema>;

/** A cell of the grid whose visitors are listed: the cohort's date and the period (0 = the cohort). */
export const RetentionActorSelectorSchema = z.object({
  cohort: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD"),
  period: z.number().int().min(0).max(RETENTION_LIMITS.maxPeriods),
});
export type RetentionActorSelector = z.infer<typeof RetentionActorSelectorSchema>;

/** A cohort's cells in % of its size (null for an empty cohort). */
export function retentionPercentages(c: RetentionCohort): (number | null)[] {
  return c.values.map((v) => (c.size === 0 ? null : (100 * v) / c.size));
}

/**
 * The mean row: per period, the simple mean of the percentages of the non-empty cohorts whose cell
 * in that period is complete (a running period would pull the mean down), null where there is none.
 */
export function retentionMeans(a: RetentionAnswer): (number | null)[] {
  const out: (number | null)[] = [];
  for (let n = 0; n <= a.periods; n++) {
    const pcts: number[] = [];
    for (const c of a.results.cohorts) {
      const v = c.values[n];
      const complete = n < c.values.length - 1 || (n === c.values.length - 1 && !c.incomplete);
      if (c.size > 0 && v !== undefined && complete) pcts.push((100 * v) / c.size);
    }
    out.push(pcts.length === 0 ? null : pcts.reduce((x, y) => x + y, 0) / pcts.length);
  }
  return out;
}
