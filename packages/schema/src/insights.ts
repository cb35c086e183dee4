// Product-analytics insights (DESIGN.md §3 insight, §4 definitions, §5 insight query): the spec of
// each insight kind as a zod discriminated union on `kind` (trends first; funnel, retention, … join
// the union as they are built), the saved insight and its list/create/patch bodies, and the
// answer of a trends query. Shared by the web app (which builds specs) and the server.
import { z } from "zod";
import { parseFilters } from "./filter-grammar.js";
import { DATE_PRESETS, type DateRange, DimensionSchema, INTERVALS, isCalendarDate } from "./query.js";
import { isStorable, UNSTORABLE_MESSAGE } from "./strings.js";

/** A storable string of at most n characters (no NUL, no lone surrogates). */
const text = (n: number) => z.string().max(n).refine(isStorable, { message: UNSTORABLE_MESSAGE, abort: true });

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

/** A Stats API filter string ("country==US;page=~/blog"), validated by the same grammar. */
export const FilterStringSchema = z
  .string()
  .max(INSIGHT_LIMITS.maxFilterLength)
  .superRefine((s, ctx) => {
    try {
      parseFilters(s);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : "invalid filters" });
    }
  });

/** An event selector: an event name ("pageview" for pageviews) with its own filters. */
export const EventSelectorSchema = z.object({
  event: text(INSIGHT_LIMITS.maxEventNameLength).refine((s) => s.length > 0, "event name required"),
  filters: FilterStringSchema.optional(),
});
export type EventSelector = z.infer<typeof EventSelectorSchema>;

export const TRENDS_MATHS = [
  "total",
  "unique_visitors",
  "avg_per_visitor",
  "sum",
  "avg",
  "min",
  "max",
  "median",
  "revenue",
] as const;
export type TrendsMath = (typeof TRENDS_MATHS)[number];
/** The maths that read a numeric prop (`math_property`). */
export const PROPERTY_MATHS: readonly TrendsMath[] = ["sum", "avg", "min", "max", "median"];

export const TRENDS_DISPLAYS = ["line", "bar", "stacked_bar", "number", "table", "pie"] as const;
export type TrendsDisplay = (typeof TRENDS_DISPLAYS)[number];

export const TrendsSeriesSchema = EventSelectorSchema.extend({
  math: z.enum(TRENDS_MATHS).default("total"),
  math_property: text(300).optional(),
}).refine((s) => !PROPERTY_MATHS.includes(s.math) || (s.math_property ?? "").length > 0, {
  message: "this math needs math_property (a numeric prop)",
  path: ["math_property"],
});
export type TrendsSeries = z.infer<typeof TrendsSeriesSchema>;

const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD,YYYY-MM-DD")
  .refine((s) => s.split(",").every(isCalendarDate), "not a calendar date");

/** What every insight kind shares, named as the Stats API's parameters. */
const common = {
  period: z.enum(DATE_PRESETS).default("last_30_days"),
  /** For period=custom: "YYYY-MM-DD,YYYY-MM-DD" (inclusive). */
  date: DateSchema.optional(),
  filters: FilterStringSchema.optional(),
  interval: z.enum(INTERVALS).optional(),
};

/** Letters A… name the series in a formula. */
export const seriesLetter = (i: number) => String.fromCharCode(65 + i);

export const TrendsSpecSchema = z
  .object({
    kind: z.literal("trends"),
    ...common,
    series: z.array(TrendsSeriesSchema).min(1).max(INSIGHT_LIMITS.maxSeries),
    breakdown: DimensionSchema.optional(),
    breakdown_limit: z.number().int().min(1).max(INSIGHT_LIMITS.maxBreakdownValues).optional(),
    formula: z.string().max(INSIGHT_LIMITS.maxFormulaLength).optional(),
    display: z.enum(TRENDS_DISPLAYS).default("line"),
  })
  .superRefine((s, ctx) => {
    if (s.period === "custom" && !s.date) ctx.addIssue({ code: "custom", message: "custom needs date", path: ["date"] });
    if (s.formula !== undefined && s.formula.trim() !== "") {
      const problem = formulaProblem(s.formula, s.series.length);
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["formula"] });
    }
  });
export type TrendsSpec = z.infer<typeof TrendsSpecSchema>;
export type TrendsSpecInput = z.input<typeof TrendsSpecSchema>;

/** Every insight kind's spec (DESIGN.md §6): one member per kind as each is built. */
export const InsightSpecSchema = z.discriminatedUnion("kind", [TrendsSpecSchema]);
export type InsightSpec = z.infer<typeof InsightSpecSchema>;
export type InsightKind = InsightSpec["kind"];
export const INSIGHT_KINDS = ["trends"] as const satisfies readonly InsightKind[];

/** The spec's date range in the Stats API's terms. */
export function insightDateRange(spec: { period: DateRange["preset"]; date?: string | undefined }): DateRange {
  if (spec.period !== "custom" || !spec.date) return { preset: spec.period === "custom" ? "last_30_days" : spec.period };
  const [from, to] = spec.date.split(",") as [string, string];
  return { preset: "custom", from, to };
}

// --- formulas ------------------------------------------------------------------------------------
// A tiny allow-listed grammar, parsed (never evaluated as code):
//   expr := term (("+" | "-") term)*;  term := factor (("*" | "/") factor)*;
//   factor := number | letter | "(" expr ")" | "-" factor

export type FormulaNode =
  | { t: "num"; v: number }
  | { t: "ref"; i: number }
  | { t: "neg"; a: FormulaNode }
  | { t: "op"; op: "+" | "-" | "*" | "/"; a: FormulaNode; b: FormulaNode };

export class FormulaError extends Error {}

export function parseFormula(src: string, seriesCount: number): FormulaNode {
  const tokens = src.match(/\d+(?:\.\d+)?|[A-Za-z]|[-+*/()]|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const factor = (depth: number): FormulaNode => {
    if (depth > 50) throw new FormulaError("formula nested too deep");
    const tok = next();
    if (tok === undefined) throw new FormulaError("formula ends too early");
    if (/^\d/.test(tok)) return { t: "num", v: Number(tok) };
    if (/^[A-Za-z]$/.test(tok)) {
      const idx = tok.toUpperCase().charCodeAt(0) - 65;
      if (idx >= seriesCount) throw new FormulaError(`formula refers to series ${tok.toUpperCase()}, which does not exist`);
      return { t: "ref", i: idx };
    }
    if (tok === "-") return { t: "neg", a: factor(depth + 1) };
    if (tok === "(") {
      const e = expr(depth + 1);
      if (next() !== ")") throw new FormulaError("formula misses a )");
      return e;
    }
    throw new FormulaError(`unexpected "${tok}" in formula`);
  };
  const term = (depth: number): FormulaNode => {
    let a = factor(depth);
    while (peek() === "*" || peek() === "/") {
      const op = next() as "*" | "/";
      a = { t: "op", op, a, b: factor(depth) };
    }
    return a;
  };
  const expr = (depth: number): FormulaNode => {
    let a = term(depth);
    while (peek() === "+" || peek() === "-") {
      const op = next() as "+" | "-";
      a = { t: "op", op, a, b: term(depth) };
    }
    return a;
  };
  if (tokens.length === 0) throw new FormulaError("formula is empty");
  const node = expr(0);
  if (i < tokens.length) throw new FormulaError(`unexpected "${tokens[i]}" in formula`);
  return node;
}

export function formulaProblem(src: string, seriesCount: number): string | null {
  try {
    parseFormula(src, seriesCount);
    return null;
  } catch (e) {
    return e instanceof FormulaError ? e.message : "invalid formula";
  }
}

/** The formula's value for the series values; null where it divides by zero or a value is missing. */
export function evalFormula(node: FormulaNode, values: readonly (number | null)[]): number | null {
  switch (node.t) {
    case "num":
      return node.v;
    case "ref":
      return values[node.i] ?? null;
    case "neg": {
      const a = evalFormula(node.a, values);
      return a === null ? null : -a;
    }
    case "op": {
      const a = evalFormula(node.a, values);
      const b = evalFormula(node.b, values);
      if (a === null || b === null) return null;
      if (node.op === "+") return a + b;
      if (node.op === "-") return a - b;
      if (node.op === "*") return a * b;
      return b === 0 ? null : a / b;
    }
  }
}

// --- answers -------------------------------------------------------------------------------------

export const TrendsResultSchema = z.object({
  /** The series' letter and event ("A: pageview"), or "formula". */
  series: z.string(),
  series_index: z.number().int().nullable(),
  breakdown_value: z.string().optional(),
  total: z.number().nullable(),
  data: z.array(z.object({ date: z.string(), value: z.number().nullable() })),
});
export type TrendsResult = z.infer<typeof TrendsResultSchema>;
export const TrendsAnswerSchema = z.object({ results: z.array(TrendsResultSchema) });
export type TrendsAnswer = z.infer<typeof TrendsAnswerSchema>;

// --- saved insights ------------------------------------------------------------------------------

export const INSIGHT_SHORT_ID_RE = /^[A-Za-z0-9]{8}$/;
const Tags = z
  .array(text(INSIGHT_LIMITS.maxTagLength).refine((s) => s.trim().length > 0, "empty tag"))
  .max(INSIGHT_LIMITS.maxTags);

export const InsightSchema = z.object({
  short_id: z.string(),
  kind: z.string(),
  name: z.string(),
  description: z.string(),
  spec: InsightSpecSchema,
  created_by: z.string().nullable(),
  favourite: z.boolean(),
  tags: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Insight = z.infer<typeof InsightSchema>;
export const InsightListSchema = z.object({ results: z.array(InsightSchema) });

export const InsightCreateSchema = z.object({
  name: text(INSIGHT_LIMITS.maxNameLength).refine((s) => s.trim().length > 0, "name required"),
  description: text(INSIGHT_LIMITS.maxDescriptionLength).default(""),
  spec: InsightSpecSchema,
  favourite: z.boolean().default(false),
  tags: Tags.default([]),
});
export type InsightCreate = z.infer<typeof InsightCreateSchema>;

export const InsightPatchSchema = z
  .object({
    name: text(INSIGHT_LIMITS.maxNameLength).refine((s) => s.trim().length > 0, "name required"),
    description: text(INSIGHT_LIMITS.maxDescriptionLength),
    spec: InsightSpecSchema,
    favourite: z.boolean(),
    tags: Tags,
  })
  .partial()
  .refine((p) => Object.keys(p).length > 0, "nothing to change");
export type InsightPatch = z.infer<typeof InsightPatchSchema>;
