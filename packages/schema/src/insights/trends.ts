// Trends (DESIGN.md §4): 1–10 series, a math per series, breakdown, formula over the series, and
// its answer (one result per series × breakdown value, plus the formula's).
import { z } from "zod";
import { COMPARISONS, DimensionSchema } from "../query.js";
import { checkCustomDate, EventSelectorSchema, INSIGHT_LIMITS, insightCommon, limitedText } from "./common.js";

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
  math_property: limitedText(300).optional(),
}).refine((s) => !PROPERTY_MATHS.includes(s.math) || (s.math_property ?? "").length > 0, {
  message: "this math needs math_property (a numeric prop)",
  path: ["math_property"],
});
export type TrendsSeries = z.infer<typeof TrendsSeriesSchema>;

/** Letters A… name the series in a formula. */
export const seriesLetter = (i: number) => String.fromCharCode(65 + i);

export const TrendsSpecSchema = z
  .object({
    kind: z.literal("trends"),
    ...insightCommon,
    series: z.array(TrendsSeriesSchema).min(1).max(INSIGHT_LIMITS.maxSeries),
    breakdown: DimensionSchema.optional(),
    breakdown_limit: z.number().int().min(1).max(INSIGHT_LIMITS.maxBreakdownValues).optional(),
    formula: limitedText(INSIGHT_LIMITS.maxFormulaLength).optional(),
    display: z.enum(TRENDS_DISPLAYS).default("line"),
    /**
     * Each series beside its values of an earlier period (DESIGN.md §4 "Comparison: previous
     * period or year over year"): the period of the same length just before, or the same local
     * dates a year earlier. all_time has none.
     */
    comparison: z.enum(COMPARISONS).optional(),
  })
  .superRefine((s, ctx) => {
    checkCustomDate(s, ctx);
    if (s.comparison !== undefined && s.period === "all_time") {
      ctx.addIssue({ code: "custom", message: "all_time has no comparison period", path: ["comparison"] });
    }
    if (s.formula !== undefined && s.formula.trim() !== "") {
      const problem = formulaProblem(s.formula, s.series.length);
      if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["formula"] });
    }
  });
export type TrendsSpec = z.infer<typeof TrendsSpecSchema>;
export type TrendsSpecInput = z.input<typeof TrendsSpecSchema>;

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

/**
 * The same series over the comparison period: its total (for a range still running, over the same
 * stretch of the earlier period as has elapsed of this one) and one point per drawn bucket of the
 * current period that the earlier one has, in the same order (data[i] sets against the current
 * data[i]; `date` is the earlier bucket's own label). `change` is the total's change in % (null
 * when the earlier total is 0 or null).
 */
export const TrendsComparisonSchema = z.object({
  total: z.number().nullable(),
  change: z.number().nullable(),
  data: z.array(z.object({ date: z.string(), value: z.number().nullable() })),
});
export type TrendsComparison = z.infer<typeof TrendsComparisonSchema>;

export const TrendsResultSchema = z.object({
  /** The series' letter and event ("A: pageview"), or "formula". */
  series: z.string(),
  series_index: z.number().int().nullable(),
  breakdown_value: z.string().optional(),
  total: z.number().nullable(),
  data: z.array(z.object({ date: z.string(), value: z.number().nullable() })),
  /** Present when the spec asks for a comparison. */
  comparison: TrendsComparisonSchema.optional(),
});
export type TrendsResult = z.infer<typeof TrendsResultSchema>;
export const TrendsAnswerSchema = z.object({
  kind: z.literal("trends"),
  results: z.array(TrendsResultSchema),
  /** The comparison period's local days (inclusive), when the spec asks for one. */
  comparison: z.object({ type: z.enum(COMPARISONS), first_day: z.string(), last_day: z.string() }).optional(),
});
export type TrendsAnswer = z.infer<typeof TrendsAnswerSchema>;
