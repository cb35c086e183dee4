// Lifecycle (DESIGN.md §4, §5 the lifecycle answer): per interval (day, week or month), the visitors
// who did the event, split into new (their first-ever event falls in this interval), returning
// (active the previous interval too) and resurrecting (inactive the previous interval, seen before),
// and dormant (active the previous interval, not this one), answered as a negative count.
import { z } from "zod";
import { checkCustomDate, EventSelectorSchema, insightCommon } from "./common.js";

export const LIFECYCLE_INTERVALS = ["day", "week", "month"] as const;
export const LIFECYCLE_STATUSES = ["new", "returning", "resurrecting", "dormant"] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export const LifecycleSpecSchema = z
  .object({
    kind: z.literal("lifecycle"),
    ...insightCommon,
    event: EventSelectorSchema,
  })
  .superRefine((s, ctx) => {
    checkCustomDate(s, ctx);
    if (s.interval !== undefined && !(LIFECYCLE_INTERVALS as readonly string[]).includes(s.interval)) {
      ctx.addIssue({ code: "custom", message: "lifecycle interval must be day, week or month", path: ["interval"] });
    }
  });
export type LifecycleSpec = z.infer<typeof LifecycleSpecSchema>;
export type LifecycleSpecInput = z.input<typeof LifecycleSpecSchema>;

export const LifecyclePointSchema = z.object({
  /** The interval's first local day (YYYY-MM-DD). */
  date: z.string(),
  new: z.number().int(),
  returning: z.number().int(),
  resurrecting: z.number().int(),
  /** Negative: visitors active the previous interval and not this one. */
  dormant: z.number().int(),
});
export type LifecyclePoint = z.infer<typeof LifecyclePointSchema>;

export const LifecycleAnswerSchema = z.object({
  kind: z.literal("lifecycle"),
  interval: z.enum(LIFECYCLE_INTERVALS),
  results: z.array(LifecyclePointSchema),
});
export type LifecycleAnswer = z.infer<typeof LifecycleAnswerSchema>;
