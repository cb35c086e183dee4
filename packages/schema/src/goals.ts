// Goals (DESIGN.md §3, §4, §5): a property's conversions, either a custom event by name (with an
// optional revenue currency) or pageviews whose path matches a pattern. The management calls'
// bodies and answers, and the page-pattern language, which the query compiler (@lookout/query)
// turns into a bound regular expression and the web app explains in its help text.
//
// Page patterns: the whole path must match; `*` matches any characters except "/" (within one
// path segment), `**` matches any characters including "/"; everything else is literal and case
// sensitive. So "/blog/*" matches /blog/hello but not /blog/a/b, "/blog/**" matches both, and
// "/pricing" only /pricing. (Plausible's older reading; its newer one reads `*` as `**`.)
import { z } from "zod";
import { RESERVED_EVENT_NAMES } from "./events.js";
import { text } from "./strings.js";

export const GOAL_KINDS = ["event", "page"] as const;
export type GoalKind = (typeof GOAL_KINDS)[number];

export const GOAL_LIMITS = {
  /** Goals per property, and so per goals query (packages/query prints one SELECT per goal). */
  maxGoals: 50,
  maxEventNameLength: 120,
  maxPatternLength: 300,
  maxDisplayNameLength: 120,
} as const;

export const GOAL_PATTERN_HELP =
  'The whole path must match. * matches any characters except "/" (one path segment), ** matches anything including "/". For example /blog/* matches /blog/hello but not /blog/a/b; /blog/** matches both.';

/** What is wrong with a page pattern, or null. */
export function pagePatternProblem(pattern: string): string | null {
  if (!pattern.startsWith("/")) return 'must start with "/"';
  if (pattern.length > GOAL_LIMITS.maxPatternLength) return `must be at most ${GOAL_LIMITS.maxPatternLength} characters`;
  if (/\*{3,}/.test(pattern)) return "use * (one segment) or ** (any depth), not more stars";
  if (/\s/.test(pattern)) return "must not contain spaces";
  return null;
}

/** Whether a page pattern has a wildcard (else it is a plain path, compared for equality). */
export const hasWildcard = (pattern: string): boolean => pattern.includes("*");

/**
 * A page pattern as an anchored regular expression that RE2 (DuckDB, ClickHouse) and JavaScript
 * read alike: literal text escaped, `**` -> `.*`, `*` -> `[^/]*`.
 */
export function pagePatternRegex(pattern: string): string {
  return `^${pattern
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((lit) => lit.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*")}$`;
}

let currencies: Set<string> | undefined;
/** ISO 4217 codes the runtime knows (Intl), e.g. EUR, USD. */
export function isSupportedCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf("currency"));
  return currencies.has(code);
}

const RESERVED = new Set<string>(RESERVED_EVENT_NAMES);

export const GoalEventNameSchema = text()
  .trim()
  .min(1, "is required")
  .max(GOAL_LIMITS.maxEventNameLength, `must be at most ${GOAL_LIMITS.maxEventNameLength} characters`)
  .refine((n) => !RESERVED.has(n), `is a built-in event name: use a pageview goal for pages`);

export const GoalPagePatternSchema = text()
  .trim()
  .min(1, "is required")
  .superRefine((p, ctx) => {
    const problem = pagePatternProblem(p);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const GoalDisplayNameSchema = text()
  .trim()
  .min(1, "is required")
  .max(GOAL_LIMITS.maxDisplayNameLength, `must be at most ${GOAL_LIMITS.maxDisplayNameLength} characters`);

export const GoalCurrencySchema = text()
  .trim()
  .toUpperCase()
  .refine(isSupportedCurrency, "is not an ISO 4217 currency code (e.g. EUR, USD)");

/** POST /api/v1/properties/{unique_id}/goals. `display_name` defaults to the event name or "Visit <path>". */
export const CreateGoalBodySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("event"),
    match: GoalEventNameSchema.describe("The custom event's name."),
    display_name: GoalDisplayNameSchema.optional(),
    currency: GoalCurrencySchema.nullish().describe("The revenue's ISO 4217 currency, for revenue goals."),
  }),
  z.object({
    kind: z.literal("page"),
    match: GoalPagePatternSchema.describe(`A path pattern. ${GOAL_PATTERN_HELP}`),
    display_name: GoalDisplayNameSchema.optional(),
  }),
]);
export type CreateGoalBody = z.infer<typeof CreateGoalBodySchema>;

/** The display name a goal gets when none is given. */
export function defaultGoalName(kind: GoalKind, match: string): string {
  return (kind === "page" ? `Visit ${match}` : match).slice(0, GOAL_LIMITS.maxDisplayNameLength);
}

export const GoalSchema = z.object({
  id: z.string(),
  kind: z.enum(GOAL_KINDS),
  match: z.string(),
  display_name: z.string(),
  currency: z.string().nullable(),
  created_at: z.string(),
});
export type Goal = z.infer<typeof GoalSchema>;

export const GoalListAnswerSchema = z.object({ goals: z.array(GoalSchema) });
export type GoalListAnswer = z.infer<typeof GoalListAnswerSchema>;

export const GoalIdSchema = z.uuid("is not a goal id");
