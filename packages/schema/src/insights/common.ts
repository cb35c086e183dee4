// What every insight kind's spec shares (DESIGN.md §5 insight query): limits, the storable text type,
// Stats API filter strings, event selectors, and the date-range part named as the Stats API's
// parameters. Each kind's file (trends.ts, …) builds its spec from these.
import { z } from "zod";
import { parseFilters } from "../filter-grammar.js";
import { DATE_PRESETS, type DateRange, type Filter, FilterSchema, INTERVALS, isCalendarDate } from "../query.js";
import { text } from "../strings.js";

/** A storable string of at most n characters (no NUL, no lone surrogates). */
export const limitedText = (n: number) => text().max(n);

export const INSIGHT_LIMITS = {
  maxSeries: 10,
  /** Breakdown values shown per series before the rest become "Other". */
  maxBreakdownValues: 25,
  defaultBreakdownValues: 10,
  maxFormulaLength: 200,
  maxEventNameLength: 200,
  maxFilterLength: 4000,
  maxNameLength: 200,
  maxDescriptionLength: 2000,
  maxTags: 20,
  maxTagLength: 50,
  /** Saved insights listed per property. */
  maxListed: 500,
} as const;

/** The breakdown value that stands for every value past the top N. */
export const OTHER_BREAKDOWN_VALUE = "$other";

/**
 * A Stats API filter string ("country==US;page=~/blog"), validated by the same grammar and then
 * as the Stats API validates each filter (FilterSchema): values a store can hold, and a regex
 * refused with the reason when it is too complex (regexProblem), so that an insight's filters
 * cost no more than a dashboard's.
 */
export const FilterStringSchema = limitedText(INSIGHT_LIMITS.maxFilterLength).superRefine((s, ctx) => {
  let filters: Filter[];
  try {
    filters = parseFilters(s);
  } catch (e) {
    ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : "invalid filters" });
    return;
  }
  for (const f of filters) {
    const checked = FilterSchema.safeParse(f);
    if (!checked.success) {
      ctx.addIssue({ code: "custom", message: checked.error.issues[0]?.message ?? "invalid filter" });
      return;
    }
  }
});

/** An event selector: an event name ("pageview" for pageviews) with its own filters. */
export const EventSelectorSchema = z.object({
  event: limitedText(INSIGHT_LIMITS.maxEventNameLength).refine((s) => s.length > 0, "event name required"),
  filters: FilterStringSchema.optional(),
});
export type EventSelector = z.infer<typeof EventSelectorSchema>;

const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD,YYYY-MM-DD")
  .refine((s) => s.split(",").every(isCalendarDate), "not a calendar date");

/** What every insight kind shares, named as the Stats API's parameters. */
export const insightCommon = {
  period: z.enum(DATE_PRESETS).default("last_30_days"),
  /** For period=custom: "YYYY-MM-DD,YYYY-MM-DD" (inclusive). */
  date: DateSchema.optional(),
  filters: FilterStringSchema.optional(),
  interval: z.enum(INTERVALS).optional(),
};

/** The refinement every kind's spec runs: a custom period needs its dates. */
export function checkCustomDate(s: { period: string; date?: string | undefined }, ctx: z.RefinementCtx): void {
  if (s.period === "custom" && !s.date) ctx.addIssue({ code: "custom", message: "custom needs date", path: ["date"] });
}

/** The spec's date range in the Stats API's terms. */
export function insightDateRange(spec: { period: DateRange["preset"]; date?: string | undefined }): DateRange {
  if (spec.period !== "custom" || !spec.date) return { preset: spec.period === "custom" ? "last_30_days" : spec.period };
  const [from, to] = spec.date.split(",") as [string, string];
  return { preset: "custom", from, to };
}
