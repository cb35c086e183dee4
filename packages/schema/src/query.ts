// The QuerySpec (DESIGN.md §4, §6): what the dashboard asks the query engine. Shared by the web
// app (which builds specs) and the server (which validates them and hands them to @lookout/query).
// Every limit lives here so that a spec that parses can always be compiled safely.
import { z } from "zod";
import { GOAL_KINDS, GOAL_LIMITS, GoalPagePatternSchema } from "./goals.js";
import { isStorable, text } from "./strings.js";

export const METRICS = [
  "visitors",
  "visits",
  "pageviews",
  "views_per_visit",
  "bounce_rate",
  "visit_duration",
  "events",
  "conversions",
  "conversion_rate",
  "time_on_page",
] as const;
export type Metric = (typeof METRICS)[number];

/** Dimensions with a fixed column; `prop:<key>` (a custom event property) comes on top. */
export const BASE_DIMENSIONS = [
  "page",
  "entry_page",
  "exit_page",
  "hostname",
  "source",
  "referrer",
  "channel",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "country",
  "region",
  "city",
  "browser",
  "browser_version",
  "os",
  "os_version",
  "device",
  "screen",
  "event_name",
] as const;
export type BaseDimension = (typeof BASE_DIMENSIONS)[number];
export type PropDimension = `prop:${string}`;
export type Dimension = BaseDimension | PropDimension;

export const DATE_PRESETS = [
  "today",
  "yesterday",
  "last_7_days",
  "last_30_days",
  "last_90_days",
  "month_to_date",
  "last_month",
  "year_to_date",
  "last_12_months",
  "all_time",
  "custom",
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const FILTER_OPS = ["is", "is_not", "contains", "not_contains", "matches"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export const INTERVALS = ["minute", "hour", "day", "week", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

export const COMPARISONS = ["previous_period", "year_over_year"] as const;
export type Comparison = (typeof COMPARISONS)[number];

export const QUERY_KINDS = ["aggregate", "timeseries", "breakdown", "goals"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export const QUERY_LIMITS = {
  /** Rows a breakdown may return at once. */
  maxLimit: 1000,
  maxOffset: 100_000,
  maxFilters: 20,
  maxValuesPerFilter: 50,
  maxValueLength: 2000,
  maxRegexLength: 500,
  /**
   * Regex complexity (regexProblem). RE2 runs in linear time, but its cost per character grows
   * with the compiled program, and past its DFA's memory budget it falls back to a much slower
   * matcher (DuckDB, strings of 800 characters that do not match: .{700}Q 0.1 ms a stored row,
   * .{800} 22 ms, ((.{0,10}){10}){10}Q 69 ms; \p{L}{15} 0.75 µs a row on 80 characters,
   * \p{L}{20} 12.8 µs). `maxRegexCost` bounds the program: each atom counts 1 (a Unicode class
   * `regexUnicodeClassCost`), times the copies the repetitions around it make (an optional copy,
   * the m - n of {n,m}, counts 2).
   */
  maxRegexCost: 400,
  regexUnicodeClassCost: 40,
  /** Nested counted repetitions: their counts multiplied (RE2's own limit too). */
  maxRegexRepeatProduct: 1000,
  maxRegexNesting: 20,
  maxPropKeyLength: 300,
  maxGoalLength: 120,
} as const;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date: 2024-02-30 is refused rather than silently rolled over. */
export function isCalendarDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const [y, m, d] = s.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d && y >= 1970 && y <= 9999;
}

const CalendarDate = z.string().refine(isCalendarDate, "expected a date YYYY-MM-DD");

export const DateRangeSchema = z
  .object({
    preset: z.enum(DATE_PRESETS).default("last_7_days"),
    from: CalendarDate.optional(),
    to: CalendarDate.optional(),
  })
  .refine((r) => r.preset !== "custom" || (r.from !== undefined && r.to !== undefined), "custom needs from and to")
  .refine((r) => r.preset !== "custom" || (r.from ?? "") <= (r.to ?? ""), "from must not be after to");
export type DateRange = z.infer<typeof DateRangeSchema>;

const PROP_RE = /^prop:(.+)$/s;
export function isPropDimension(d: string): d is PropDimension {
  return PROP_RE.test(d) && d.length - 5 <= QUERY_LIMITS.maxPropKeyLength && isStorable(d);
}
export function propKey(d: PropDimension): string {
  return d.slice(5);
}

/** The Stats API's breakdown by goal: one row per goal of the property (a goals query). */
export const GOAL_DIMENSION = "goal";
export type BreakdownDimension = Dimension | typeof GOAL_DIMENSION;

export const DimensionSchema = z.custom<Dimension>(
  (v) => typeof v === "string" && ((BASE_DIMENSIONS as readonly string[]).includes(v) || isPropDimension(v)),
  "unknown dimension",
);

/**
 * Regexes run on RE2 in both engines (DuckDB and ClickHouse): linear time, so no ReDoS, but
 * without look-around or back-references. Refusing those here turns an engine error into a 400.
 * Linear is not cheap: a large program (Unicode classes repeated, QUERY_LIMITS.maxRegexCost)
 * costs tens of µs to milliseconds a stored row, and DuckDB checks for a query's interruption
 * only between chunks of 2 048 rows, so it is bounded here, structurally.
 */
export function regexProblem(source: string): string | null {
  if (source.length > QUERY_LIMITS.maxRegexLength) return "regex too long";
  if (/\(\?<?[=!]|\\[1-9]|\\k</.test(source)) return "look-around and back-references are not supported";
  try {
    new RegExp(source, "u");
  } catch {
    return "invalid regular expression";
  }
  // The source is valid JS (u mode) from here: every `{` outside a class is a quantifier, every
  // `(` is closed, no quantifier follows another.
  const L = QUERY_LIMITS;
  /** A sequence being read: its cost so far, the largest repetition product in it, the cost of its earlier alternatives. */
  interface Frame {
    cost: number;
    product: number;
    alternatives: number;
    /** The last item, which a quantifier applies to. */
    last: { cost: number; product: number } | null;
  }
  const frame = (): Frame => ({ cost: 0, product: 1, alternatives: 0, last: null });
  const stack: Frame[] = [frame()];
  const top = () => stack[stack.length - 1] as Frame;
  const push = (cost: number, product: number) => {
    const f = top();
    f.cost += cost;
    f.product = Math.max(f.product, product);
    f.last = { cost, product };
  };
  const classCost = (body: string) => (/\\[pP]\{|[\u0080-\uffff]|\\u/.test(body) ? L.regexUnicodeClassCost : 1);
  for (let i = 0; i < source.length; ) {
    const ch = source[i] as string;
    if (ch === "\\") {
      const m = /^\\[pP]\{[^}]*\}|^\\u\{[0-9a-fA-F]+\}|^\\u[0-9a-fA-F]{4}|^\\x[0-9a-fA-F]{2}|^\\c[a-zA-Z]|^\\[\s\S]/.exec(
        source.slice(i),
      );
      const esc = m?.[0] ?? "\\";
      push(/^\\[pP]/.test(esc) ? L.regexUnicodeClassCost : 1, 1);
      i += esc.length;
    } else if (ch === "[") {
      let j = i + 1;
      if (source[j] === "^") j++;
      while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
      push(classCost(source.slice(i + 1, j)), 1);
      i = j + 1;
    } else if (ch === "(") {
      if (stack.length > L.maxRegexNesting) return `regex too complex: groups nested more than ${L.maxRegexNesting} deep`;
      stack.push(frame());
      const head = /^\((\?<[^>]*>|\?[a-zA-Z-]*:)?/.exec(source.slice(i));
      i += head?.[0].length ?? 1;
    } else if (ch === ")") {
      const f = stack.pop() as Frame;
      push(f.cost + f.alternatives, f.product);
      i++;
    } else if (ch === "|") {
      const f = top();
      f.alternatives += f.cost;
      f.cost = 0;
      f.last = null;
      i++;
    } else if (ch === "*" || ch === "+" || ch === "?" || ch === "{") {
      const f = top();
      let count = 1;
      let copies = 1;
      let len = 1;
      if (ch === "{") {
        const q = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
        len = q?.[0].length ?? 1;
        // x{n,m} compiles to n copies of x and m - n optional ones (each an alternation too),
        // x{n,} to n copies and a loop.
        const n = Number(q?.[1] ?? 1);
        const m = q?.[2] === undefined ? n : q[3] === "" ? n : Number(q[3]);
        count = Math.max(1, m);
        copies = Math.max(1, n + 2 * (m - n));
      }
      if (source[i + len] === "?") len++; // lazy
      i += len;
      const last = f.last;
      if (!last || count === 1) continue;
      const product = last.product * count;
      if (product > L.maxRegexRepeatProduct) {
        return `regex too complex: repetition counts multiply to more than ${L.maxRegexRepeatProduct}`;
      }
      f.cost += last.cost * (copies - 1);
      f.product = Math.max(f.product, product);
      f.last = { cost: last.cost * copies, product };
    } else {
      // A literal, `.`, `^` or `$`.
      push(ch === "^" || ch === "$" ? 0 : 1, 1);
      i += ch.length;
    }
    const cost = stack.reduce((s, f) => s + f.cost + f.alternatives, 0);
    if (cost > L.maxRegexCost) {
      return `regex too complex: repeated parts add up to more than ${L.maxRegexCost} character matches (an optional one such as in .{0,10} counts 2, a Unicode class such as \\p{L} ${L.regexUnicodeClassCost})`;
    }
  }
  return null;
}

export const FilterSchema = z
  .object({
    dimension: DimensionSchema,
    op: z.enum(FILTER_OPS),
    values: z.array(text().max(QUERY_LIMITS.maxValueLength)).min(1).max(QUERY_LIMITS.maxValuesPerFilter),
  })
  .superRefine((f, ctx) => {
    if (f.op !== "matches") return;
    for (const v of f.values) {
      const problem = regexProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["values"] });
    }
  });
export type Filter = z.infer<typeof FilterSchema>;

export const OrderSchema = z.object({
  /** A metric of the spec, or "dimension" for the breakdown's value. */
  by: z.union([z.enum(METRICS), z.literal("dimension")]),
  direction: z.enum(["asc", "desc"]).default("desc"),
});

/**
 * What every web-analytics kind shares: the property, the date range, the filters and the metrics
 * (and the goal the conversion metrics count). Each kind's own object adds only its fields, after
 * `kind` (spread rather than extended so that `kind` comes first in a parsed spec). A field of
 * another kind (a breakdown's `comparison`, an aggregate's `dimensions`) is stripped, as zod
 * strips any unknown key.
 */
export const SpecBaseSchema = z.object({
  property: text().min(1).max(64),
  date_range: DateRangeSchema.default({ preset: "last_7_days" }),
  metrics: z.array(z.enum(METRICS)).min(1).max(METRICS.length).default(["visitors"]),
  filters: z.array(FilterSchema).max(QUERY_LIMITS.maxFilters).default([]),
  /** The custom event name that counts as a conversion. */
  goal: text().min(1).max(QUERY_LIMITS.maxGoalLength).optional(),
});

const ComparisonSchema = z.enum(COMPARISONS).nullable().optional();

/** One row per period (the current one and the comparison's). `kind` may be left out. */
export const AggregateSpecSchema = z.object({
  kind: z.literal("aggregate").default("aggregate"),
  ...SpecBaseSchema.shape,
  comparison: ComparisonSchema,
});

/** One row per period and local-time bucket; `interval` defaults by range (defaultInterval). */
export const TimeseriesSpecSchema = z.object({
  kind: z.literal("timeseries"),
  ...SpecBaseSchema.shape,
  interval: z.enum(INTERVALS).optional(),
  comparison: ComparisonSchema,
});

/** One row per value of its one dimension, ordered and paged. */
export const BreakdownSpecSchema = z
  .object({
    kind: z.literal("breakdown"),
    ...SpecBaseSchema.shape,
    dimensions: z.array(DimensionSchema).max(1).default([]),
    order: OrderSchema.optional(),
    limit: z.number().int().min(1).max(QUERY_LIMITS.maxLimit).default(100),
    offset: z.number().int().min(0).max(QUERY_LIMITS.maxOffset).default(0),
  })
  .superRefine((q, ctx) => {
    // A default cannot fail a length check (zod returns defaults unchecked), hence a refinement.
    if (q.dimensions.length !== 1) {
      ctx.addIssue({ code: "custom", message: "a breakdown needs exactly one dimension", path: ["dimensions"] });
    }
    if (q.order && q.order.by !== "dimension" && !q.metrics.includes(q.order.by)) {
      ctx.addIssue({ code: "custom", message: "order by a requested metric", path: ["order"] });
    }
  });

/**
 * A goal as a goals query names it: the row's label, and what counts as a conversion (a custom
 * event's name, or a page pattern of goals.ts). The server fills these from the property's own
 * goals, never from the caller.
 */
export const SpecGoalSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal(GOAL_KINDS[0]),
    name: text().min(1).max(GOAL_LIMITS.maxDisplayNameLength),
    match: text().min(1).max(GOAL_LIMITS.maxEventNameLength),
  }),
  z.object({
    kind: z.literal(GOAL_KINDS[1]),
    name: text().min(1).max(GOAL_LIMITS.maxDisplayNameLength),
    match: GoalPagePatternSchema,
  }),
]);
export type SpecGoal = z.infer<typeof SpecGoalSchema>;

/**
 * The metrics of a goals query, per goal (DESIGN.md §4): visitors = unique conversions (distinct
 * visitors with a visit in which a matching event happened), events = total conversions (the
 * matching events), conversions = visitors, conversion_rate = visitors / all visitors, %.
 */
export const GOAL_METRICS = ["visitors", "events", "conversions", "conversion_rate"] as const satisfies readonly Metric[];
export type GoalMetric = (typeof GOAL_METRICS)[number];

/** One row per goal (every goal, converted or not), ordered and paged. */
export const GoalsSpecSchema = z
  .object({
    kind: z.literal("goals"),
    ...SpecBaseSchema.shape,
    goals: z.array(SpecGoalSchema).max(GOAL_LIMITS.maxGoals).default([]),
    order: OrderSchema.optional(),
    limit: z.number().int().min(1).max(QUERY_LIMITS.maxLimit).default(100),
    offset: z.number().int().min(0).max(QUERY_LIMITS.maxOffset).default(0),
  })
  .superRefine((q, ctx) => {
    for (const m of q.metrics) {
      if (!(GOAL_METRICS as readonly string[]).includes(m)) {
        ctx.addIssue({ code: "custom", message: `a goals query takes ${GOAL_METRICS.join(", ")}`, path: ["metrics"] });
      }
    }
    if (new Set(q.goals.map((g) => g.name)).size !== q.goals.length) {
      ctx.addIssue({ code: "custom", message: "goal names must be unique", path: ["goals"] });
    }
    if (q.order && q.order.by !== "dimension" && !q.metrics.includes(q.order.by)) {
      ctx.addIssue({ code: "custom", message: "order by a requested metric", path: ["order"] });
    }
  });

export const QuerySpecSchema = z
  .discriminatedUnion("kind", [AggregateSpecSchema, TimeseriesSpecSchema, BreakdownSpecSchema, GoalsSpecSchema])
  .superRefine((q, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: "custom", message, path: [path] });
    if (new Set(q.metrics).size !== q.metrics.length) issue("metrics must be unique", "metrics");
    if ((q.kind === "aggregate" || q.kind === "timeseries") && q.comparison && q.date_range.preset === "all_time") {
      issue("all_time has no comparison period", "comparison");
    }
    const needsGoal = q.metrics.includes("conversions") || q.metrics.includes("conversion_rate");
    if (needsGoal && !q.goal && q.kind !== "goals") issue("conversions need a goal", "goal");
  });

export type QuerySpecInput = z.input<typeof QuerySpecSchema>;
export type QuerySpec = z.output<typeof QuerySpecSchema>;
// The union covers QUERY_KINDS: a kind missing from it fails to type-check here, by name.
const _everyKindInTheUnion: Record<Exclude<QueryKind, QuerySpec["kind"]>, never> = {};
export type AggregateSpec = z.output<typeof AggregateSpecSchema>;
export type TimeseriesSpec = z.output<typeof TimeseriesSpecSchema>;
export type BreakdownSpec = z.output<typeof BreakdownSpecSchema>;
export type GoalsSpec = z.output<typeof GoalsSpecSchema>;
/** The spec of one kind, e.g. SpecOfKind<"breakdown"> = BreakdownSpec. */
export type SpecOfKind<K extends QueryKind> = Extract<QuerySpec, { kind: K }>;
