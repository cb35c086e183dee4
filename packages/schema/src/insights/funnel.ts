// Funnels (DESIGN.md §4 Funnels, §5 the funnel answer): 2–20 steps, a conversion window with its
// unit, the order (sequential, strict, any), exclusion steps between two steps, a breakdown by a
// dimension of the step-1 event; the answer per step (visitors, conversions, drop-off, times),
// the time-to-convert histogram and the conversion over time; and the selector of a step's
// converted or dropped visitors (POST …/insights/actors).
import { z } from "zod";
import { DimensionSchema } from "../query.js";
import { checkCustomDate, EventSelectorSchema, INSIGHT_LIMITS, insightCommon, limitedText } from "./common.js";

export const FUNNEL_LIMITS = {
  minSteps: 2,
  maxSteps: 20,
  maxExclusions: 10,
  /** The longest conversion window, in days (a year and a day). */
  maxWindowDays: 366,
  /** Bins of the time-to-convert histogram. */
  histogramBins: 10,
} as const;

export const FUNNEL_WINDOW_UNITS = ["minute", "hour", "day", "week", "month"] as const;
export type FunnelWindowUnit = (typeof FUNNEL_WINDOW_UNITS)[number];
/** Seconds per window unit: a month is 30 days (a fixed length, so that a window means the same everywhere). */
export const FUNNEL_UNIT_SECONDS: Record<FunnelWindowUnit, number> = {
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 7 * 86_400,
  month: 30 * 86_400,
};

export const FUNNEL_ORDERS = ["sequential", "strict", "any"] as const;
export type FunnelOrder = (typeof FUNNEL_ORDERS)[number];

export const FunnelWindowSchema = z.object({
  value: z.number().int("the window is a whole number").min(1, "the window must be at least 1"),
  unit: z.enum(FUNNEL_WINDOW_UNITS),
});
export type FunnelWindow = z.infer<typeof FunnelWindowSchema>;

export const FunnelExclusionSchema = EventSelectorSchema.extend({
  /** The 1-based steps the exclusion lies between: a visitor who does it between them is left out. */
  between: z.tuple([z.number().int(), z.number().int()]),
});
export type FunnelExclusion = z.infer<typeof FunnelExclusionSchema>;

export const FunnelSpecSchema = z
  .object({
    kind: z.literal("funnel"),
    ...insightCommon,
    steps: z
      .array(EventSelectorSchema)
      .min(FUNNEL_LIMITS.minSteps, `a funnel has at least ${FUNNEL_LIMITS.minSteps} steps`)
      .max(FUNNEL_LIMITS.maxSteps, `a funnel has at most ${FUNNEL_LIMITS.maxSteps} steps`),
    window: FunnelWindowSchema.default({ value: 14, unit: "day" }),
    order: z.enum(FUNNEL_ORDERS).default("sequential"),
    exclusions: z
      .array(FunnelExclusionSchema)
      .max(FUNNEL_LIMITS.maxExclusions, `at most ${FUNNEL_LIMITS.maxExclusions} exclusions`)
      .default([]),
    breakdown: DimensionSchema.optional(),
    breakdown_limit: z.number().int().min(1).max(INSIGHT_LIMITS.maxBreakdownValues).optional(),
  })
  .superRefine((s, ctx) => {
    checkCustomDate(s, ctx);
    if (s.window.value * FUNNEL_UNIT_SECONDS[s.window.unit] > FUNNEL_LIMITS.maxWindowDays * 86_400) {
      ctx.addIssue({
        code: "custom",
        message: `the window is at most ${FUNNEL_LIMITS.maxWindowDays} days`,
        path: ["window", "value"],
      });
    }
    for (const [i, x] of s.exclusions.entries()) {
      const [a, b] = x.between;
      if (s.order === "any") {
        ctx.addIssue({ code: "custom", message: "an any-order funnel has no exclusions", path: ["exclusions", i] });
      } else if (!(a >= 1 && b <= s.steps.length && a < b)) {
        ctx.addIssue({
          code: "custom",
          message: `between must name two steps a < b within 1..${s.steps.length}`,
          path: ["exclusions", i, "between"],
        });
      }
    }
  });
export type FunnelSpec = z.infer<typeof FunnelSpecSchema>;
export type FunnelSpecInput = z.input<typeof FunnelSpecSchema>;

/** A step's label: its number and event ("2: signup"). */
export const funnelStepLabel = (i: number, event: string) => `${i + 1}: ${event}`;

// --- answers -------------------------------------------------------------------------------------

export const FunnelStepResultSchema = z.object({
  /** 1-based. */
  step: z.number().int(),
  label: z.string(),
  visitors: z.number().int(),
  /** % of step 1's visitors (100 for step 1; 0 when nobody entered). */
  conversion: z.number(),
  /** % of the previous step's visitors (100 for step 1). */
  conversion_from_previous: z.number(),
  /** Visitors who reached the previous step and not this one (0 for step 1). */
  dropped: z.number().int(),
  /** Time from the previous step (null for step 1, in an any-order funnel, or when nobody got here). */
  median_seconds: z.number().nullable(),
  average_seconds: z.number().nullable(),
});
export type FunnelStepResult = z.infer<typeof FunnelStepResultSchema>;

export const FunnelAnswerSchema = z.object({
  kind: z.literal("funnel"),
  results: z.object({
    steps: z.array(FunnelStepResultSchema),
    /** Per step-1 breakdown value (the top N by visitors, the rest as "$other"), when broken down. */
    breakdowns: z.array(z.object({ breakdown_value: z.string(), steps: z.array(FunnelStepResultSchema) })).optional(),
    /** Time from step 1 to the last step of those who converted (empty in an any-order funnel). */
    time_to_convert: z.object({
      bins: z.array(z.object({ from_seconds: z.number(), to_seconds: z.number(), visitors: z.number().int() })),
      median_seconds: z.number().nullable(),
      average_seconds: z.number().nullable(),
    }),
    /** Per interval bucket of the chain's start: visitors who entered, who converted, and the %. */
    over_time: z.array(
      z.object({ date: z.string(), entered: z.number().int(), converted: z.number().int(), conversion: z.number().nullable() }),
    ),
  }),
});
export type FunnelAnswer = z.infer<typeof FunnelAnswerSchema>;

/** The visitors of a step: who got there (converted) or reached the step before and not it (dropped). */
export const FunnelActorSelectorSchema = z.object({
  step: z.number().int().min(1).max(FUNNEL_LIMITS.maxSteps),
  status: z.enum(["converted", "dropped"]),
  breakdown_value: limitedText(INSIGHT_LIMITS.maxFilterLength).optional(),
});
export type FunnelActorSelector = z.infer<typeof FunnelActorSelectorSchema>;
