// Stickiness (DESIGN.md §4, §5 the stickiness answer): for each n, the visitors who did the event in
// exactly n distinct intervals (day, week or month) of the range, or, cumulative, in n or more.
import { z } from "zod";
import { checkCustomDate, EventSelectorSchema, insightCommon } from "./common.js";

export const STICKINESS_INTERVALS = ["day", "week", "month"] as const;

export const StickinessSpecSchema = z
  .object({
    kind: z.literal("stickiness"),
    ...insightCommon,
    event: EventSelectorSchema,
    /** n or more intervals instead of exactly n. */
    cumulative: z.boolean().default(false),
  })
  .superRefine((s, ctx) => {
    checkCustomDate(s, ctx);
    if (s.interval !== undefined && !(STICKINESS_INTERVALS as readonly string[]).includes(s.interval)) {
      ctx.addIssue({ code: "custom", message: "stickiness interval must be day, week or month", path: ["interval"] });
    }
  });
export type StickinessSpec = z.infer<typeof StickinessSpecSchema>;
export type StickinessSpecInput = z.input<typeof StickinessSpecSchema>;

export const StickinessAnswerSchema = z.object({
  kind: z.literal("stickiness"),
  interval: z.enum(STICKINESS_INTERVALS),
  cumulative: z.boolean(),
  /** One entry per n from 1 to the number of intervals of the range (up to now). */
  results: z.array(z.object({ intervals: z.number().int(), visitors: z.number().int() })),
});
export type StickinessAnswer = z.infer<typeof StickinessAnswerSchema>;
