// The filter dialog's state, as plain data: what the person has picked so far (a dimension or a
// custom prop's key, an operator, the values, the text still being typed), what is wrong with it in
// words, and the Filter it makes. The checks are the server's own (@lookout/schema: FilterSchema's
// limits, regexProblem for "matches", isPropDimension for a prop key), so the dialog refuses in
// place what the Stats API would answer with a 400.
import {
  BASE_DIMENSIONS,
  type BaseDimension,
  type Dimension,
  type Filter,
  type FilterOp,
  isPropDimension,
  isStorable,
  propKey,
  QUERY_LIMITS,
  regexProblem,
} from "@lookout/schema";
import { countryName } from "../../lib/countries";

/** "prop" stands for a custom property, whose key is typed. */
export type DimensionChoice = BaseDimension | "prop";

export interface FilterDraft {
  choice: DimensionChoice;
  propKey: string;
  op: FilterOp;
  values: string[];
  /** Text in the value box, not yet added; Apply adds it. */
  typed: string;
}

export const emptyDraft = (): FilterDraft => ({ choice: "page", propKey: "", op: "is", values: [], typed: "" });

export function draftOf(f: Filter): FilterDraft {
  return isPropDimension(f.dimension)
    ? { choice: "prop", propKey: propKey(f.dimension), op: f.op, values: [...f.values], typed: "" }
    : { choice: f.dimension, propKey: "", op: f.op, values: [...f.values], typed: "" };
}

/** The dimension the draft filters on, or null while a prop's key is missing or unusable. */
export function draftDimension(d: Pick<FilterDraft, "choice" | "propKey">): Dimension | null {
  if (d.choice !== "prop") return (BASE_DIMENSIONS as readonly string[]).includes(d.choice) ? d.choice : null;
  const key = d.propKey.trim();
  const dim = `prop:${key}` as const;
  return key !== "" && isPropDimension(dim) ? dim : null;
}

/** What is wrong with the key of a custom property, or null. */
export function propKeyProblem(key: string): string | null {
  const k = key.trim();
  if (k === "") return "Enter the property's name.";
  if (k.length > QUERY_LIMITS.maxPropKeyLength) return `A property name has at most ${QUERY_LIMITS.maxPropKeyLength} characters.`;
  if (!isStorable(k)) return "This name contains characters that cannot be stored.";
  return null;
}

/** What is wrong with one value under an operator, or null (the server's limits, in words). */
export function valueProblem(op: FilterOp, value: string): string | null {
  if (value.length > QUERY_LIMITS.maxValueLength) return `A value has at most ${QUERY_LIMITS.maxValueLength} characters.`;
  if (!isStorable(value)) return "This value contains characters that cannot be stored.";
  if (op === "matches") {
    const problem = regexProblem(value);
    if (problem) return `Not a pattern that can be used: ${problem}.`;
  }
  return null;
}

/** The values Apply would use: those added, and the typed text when it is not one of them. */
export function draftValues(d: Pick<FilterDraft, "values" | "typed">): string[] {
  const typed = d.typed.trim();
  return typed !== "" && !d.values.includes(typed) ? [...d.values, typed] : d.values;
}

export interface DraftCheck {
  /** The filter to apply, when nothing is wrong. */
  filter: Filter | null;
  keyError: string | null;
  /** The typed text's problem (shown under the value box as the person types). */
  typedError: string | null;
  /** A problem with the added values as a whole (none, too many, one bad under this operator). */
  valuesError: string | null;
}

export function checkDraft(d: FilterDraft): DraftCheck {
  const keyError = d.choice === "prop" ? propKeyProblem(d.propKey) : null;
  const typed = d.typed.trim();
  const typedError = typed === "" ? null : valueProblem(d.op, typed);
  const values = draftValues(d);
  let valuesError: string | null = null;
  if (values.length === 0) valuesError = "Add at least one value.";
  else if (values.length > QUERY_LIMITS.maxValuesPerFilter) valuesError = `At most ${QUERY_LIMITS.maxValuesPerFilter} values.`;
  else {
    const bad = d.values.map((v) => [v, valueProblem(d.op, v)] as const).find(([, p]) => p !== null);
    if (bad) valuesError = `${bad[0] === "" ? "(none)" : bad[0]}: ${bad[1]}`;
  }
  const dimension = draftDimension(d);
  const filter = dimension && !keyError && !typedError && !valuesError ? { dimension, op: d.op, values: [...values] } : null;
  return { filter, keyError, typedError, valuesError };
}

/**
 * Whether a suggested value fits what is typed. Country codes are searched by name too (the
 * server's search sees only codes), everything else the server has already searched.
 */
export function suggestionMatches(dimension: Dimension, value: string, typed: string): boolean {
  const t = typed.trim().toLowerCase();
  if (t === "") return true;
  if (dimension !== "country") return value.toLowerCase().includes(t);
  return value.toLowerCase().includes(t) || (value !== "" && countryName(value).toLowerCase().includes(t));
}
