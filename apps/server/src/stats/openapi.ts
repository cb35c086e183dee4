// The Stats API's query parameters as zod objects, one per call, with the texts the OpenAPI
// document (http/openapi.ts) and its page at /api/docs show. They document; params.ts parses
// (every problem a 400 `invalid_parameter` naming the parameter), from the same constants.
import {
  BASE_DIMENSIONS,
  COMPARISONS,
  DATE_PRESETS,
  GOAL_METRICS,
  INTERVALS,
  METRICS,
  PropertyIdSchema,
  QUERY_LIMITS,
  text,
} from "@lookout/schema";
import { z } from "zod";

const common = {
  property_id: PropertyIdSchema.describe("The property's unique_id."),
  period: z
    .enum(DATE_PRESETS)
    .optional()
    .describe("Date preset: whole local days in the property's timezone, last_N_days ending today (default last_7_days)."),
  date: text()
    .optional()
    .describe(
      "For period=custom: YYYY-MM-DD,YYYY-MM-DD (inclusive); a range ending after today or starting after its end is a 400.",
    ),
  metrics: text()
    .optional()
    .describe(`Comma-separated: ${METRICS.join(", ")}. Default visitors.`),
  filters: text()
    .optional()
    .describe(
      "Semicolon-separated filters `dimension OP value[|value...]`; OP is == (is), != (is not), ~ (contains), !~ (does not contain), =~ (matches RE2 regex). A backslash escapes ; | and \\. Example: page==/pricing;country!=US|DE.",
    ),
  goal: text().optional().describe("Custom event name counted by conversions and conversion_rate."),
};
const compare = z.enum(COMPARISONS).optional().describe("Comparison period (not with all_time).");

/** The Stats API's calls (a goals query is a breakdown with dimension=goal). */
export type StatsCall = "aggregate" | "timeseries" | "breakdown";

export const STATS_QUERY: Record<StatsCall, z.ZodObject> = {
  aggregate: z.object({ ...common, compare }),
  timeseries: z.object({
    ...common,
    compare,
    interval: z.enum(INTERVALS).optional().describe("Bucket size; chosen from the period when absent."),
  }),
  breakdown: z.object({
    ...common,
    dimension: text().describe(
      `One of ${BASE_DIMENSIONS.join(", ")}, or prop:<key> for a custom event property, or goal: one row per goal configured for the property (custom-event and pageview goals), with metrics ${GOAL_METRICS.join(", ")} (visitors = unique conversions, events = total conversions, conversion_rate = converting visitors / all visitors of the range, %).`,
    ),
    limit: z.int().optional().describe(`Rows per page, 1 to ${QUERY_LIMITS.maxLimit} (default 100).`),
    page: z.int().optional().describe("Page number from 1."),
    order: text().optional().describe("<metric>:asc|desc or dimension:asc|desc."),
  }),
};

export const REALTIME_QUERY = z.object({ property_id: common.property_id });

/** What every Stats API call may answer besides its results. */
export const STATS_RESPONSES = {
  400: "A parameter is invalid; `details.param` names it.",
  403: "A shared link's credential (X-Share-Slug) for a link with a password, without the cookie its password sets.",
  404: "No such property, or not one the caller may read (a shared link reads its own property only, and none once expired or revoked).",
  429: "This account has too many queries running.",
  503: "The query took too long and was cancelled.",
} as const;
