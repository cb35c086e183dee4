// The Stats API's `filters` text (README "Stats API"), read and written in one place for the
// server (which refuses bad text with a 400 naming `filters`) and the web app (which keeps the
// same text in its URLs): `dimension OP value[|value...]`, `;` between filters, and `\` escaping
// `;`, `|` and `\` inside values. Operators: == is, != is not, ~ contains, !~ does not contain,
// =~ matches (a regex).
import { BASE_DIMENSIONS, type Dimension, type Filter, type FilterOp, isPropDimension, QUERY_LIMITS } from "./query.js";

/** Operators, longest first so `!=` is not read as `=` and `!~` not as `~`. */
export const FILTER_OPERATORS: readonly (readonly [symbol: string, op: FilterOp])[] = [
  ["==", "is"],
  ["!=", "is_not"],
  ["!~", "not_contains"],
  ["=~", "matches"],
  ["~", "contains"],
];
const SYMBOL = Object.fromEntries(FILTER_OPERATORS.map(([s, op]) => [op, s])) as Record<FilterOp, string>;
const OP_CHARS = /[=!~]/;

/**
 * Filters text that cannot be read. Its message says what is wrong without naming the parameter:
 * the server adds that (its 400 carries `details.param = "filters"`).
 */
export class FilterGrammarError extends Error {
  readonly param = "filters";
  constructor(message: string) {
    super(message);
    this.name = "FilterGrammarError";
  }
}

export function isDimension(d: string): d is Dimension {
  return (BASE_DIMENSIONS as readonly string[]).includes(d) || isPropDimension(d);
}

/**
 * Splits on `sep` outside backslash escapes. `keepEscapes` leaves them in the parts for a second,
 * inner split (filters first, then values); otherwise `\;`, `\|` and `\\` are unescaped.
 */
export function splitEscaped(s: string, sep: string, keepEscapes = false): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\\" && i + 1 < s.length) {
      cur += keepEscapes ? c + s[++i] : s[++i];
      continue;
    }
    if (c === sep) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/** One `dimension OP values` part (escapes still in); throws FilterGrammarError. */
function parsePart(part: string): Filter {
  const at = part.search(OP_CHARS);
  if (at <= 0) throw new FilterGrammarError(`expected dimension, operator and value in "${part.slice(0, 80)}"`);
  const dimension = part.slice(0, at).trim();
  const rest = part.slice(at);
  const op = FILTER_OPERATORS.find(([sym]) => rest.startsWith(sym));
  if (!op) throw new FilterGrammarError(`unknown operator in "${part.slice(0, 80)}"; use ==, !=, ~, !~ or =~`);
  if (!isDimension(dimension)) throw new FilterGrammarError(`unknown dimension "${dimension.slice(0, 80)}"`);
  return { dimension, op: op[1], values: splitEscaped(rest.slice(op[0].length), "|") };
}

/**
 * `page==/pricing;country!=US|DE;page~blog` -> filters. Strict, for the API: any part it cannot
 * read throws FilterGrammarError. Values are not judged here (a bad regex is FilterSchema's).
 */
export function parseFilters(raw: string): Filter[] {
  if (raw.trim() === "") return [];
  const parts = splitEscaped(raw, ";", true).filter((p) => p.trim() !== "");
  if (parts.length > QUERY_LIMITS.maxFilters) throw new FilterGrammarError(`at most ${QUERY_LIMITS.maxFilters} filters`);
  return parts.map(parsePart);
}

/**
 * The same grammar read leniently, for text a person may have edited (a dashboard URL): parts it
 * cannot read are skipped rather than failing the page; the server still judges what is left.
 */
export function parseFiltersLenient(raw: string | null | undefined): Filter[] {
  if (!raw) return [];
  const out: Filter[] = [];
  for (const part of splitEscaped(raw, ";", true)) {
    try {
      out.push(parsePart(part));
    } catch (err) {
      if (!(err instanceof FilterGrammarError)) throw err;
    }
  }
  return out;
}

/** The inverse of parseFilters: values escaped, operators as symbols. */
export function formatFilters(filters: readonly Filter[]): string {
  const esc = (v: string) => v.replace(/[\\;|]/g, (c) => `\\${c}`);
  return filters.map((f) => `${f.dimension}${SYMBOL[f.op]}${f.values.map(esc).join("|")}`).join(";");
}
