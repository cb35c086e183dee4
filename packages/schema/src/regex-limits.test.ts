// regexProblem's complexity bounds (QUERY_LIMITS.maxRegexCost and friends). The costly classes
// were measured on DuckDB's RE2 (regexp_matches over URL-like strings, one thread), per stored row:
//   strings of ~80 characters:  \p{L}{15} 0.75 µs, \p{L}{20} 12.8 µs, \p{L}{300} 115 µs
//   ~800 characters, no match:  .{500}Q 0.1 ms, .{800} 22 ms, (.{0,10}){60}Q 0.83 ms,
//                               ((.{0,10}){10}){10}Q 69 ms, \p{L}{10}Q 80 µs (plain blogQ: 16 µs)
// Past a program size that depends on the string's length, RE2's DFA runs out of memory and the
// fallback costs milliseconds a row. Large alternations and unbounded loops stay cheap.
import { describe, expect, it } from "vitest";
import { FilterSchema, QUERY_LIMITS, regexProblem } from "./query.js";

describe("regexProblem: complexity", () => {
  it("accepts everyday patterns", () => {
    for (const re of [
      "^/blog/",
      "^/(en|de|fr)/products/[0-9]+$",
      "utm_source=(news|mail)",
      "(?:^|/)checkout(/|$)",
      "\\.(png|jpe?g|gif|webp)$",
      "^/docs/[a-z0-9-]{1,80}$",
      "[\\p{L}]+",
      "\\p{L}+-\\p{N}+",
      "^[^/]+/[^/]+$",
      "(?<section>blog|news)/",
      "",
    ]) {
      expect(regexProblem(re), re).toBeNull();
    }
  });

  it("accepts large ASCII repetitions, which stay cheap in RE2", () => {
    for (const re of [".{400}", "[a-z]{400}", "(a{2,3}){100}", "(.{0,10}){20}", ".{0,199}x", "(.*x){100}", "(.*){20}"]) {
      expect(regexProblem(re), re).toBeNull();
    }
  });

  it("refuses long counted repetitions of any character, saying why", () => {
    for (const re of [".{401}", ".{800}", ".{1000}", "(.{0,10}){21}", "(.{0,10}){60}Q", ".{0,201}", "[^/]{500}"]) {
      expect(regexProblem(re), re).toMatch(/^regex too complex: repeated parts add up to more than 400 character matches/);
    }
  });

  it("accepts a Unicode class repeated up to the budget", () => {
    expect(regexProblem("\\p{L}{10}")).toBeNull();
    expect(regexProblem("\\p{L}{5}\\p{N}{5}")).toBeNull();
    expect(regexProblem("(\\p{L}|\\p{N}){5}")).toBeNull();
  });

  it("refuses Unicode classes repeated past the budget, saying why", () => {
    for (const re of [
      "\\p{L}{11}",
      "\\p{L}{20}",
      "\\p{L}{0,300}z",
      "\\P{L}{100}",
      "[\\p{L}\\p{N}]{100}",
      "(\\p{L}|\\p{N}|\\p{P}){100}",
      "(\\p{L}+x){10}",
      "\\p{L}{6}\\p{N}{6}",
      "[à-ÿ]{20}",
      "(\\p{L}{0,10}){10}",
    ]) {
      const problem = regexProblem(re);
      expect(problem, re).toMatch(/^regex too complex: repeated parts add up to more than 400 character matches/);
      expect(problem).toContain("\\p{L}");
    }
  });

  it("refuses nested counted repetitions whose counts multiply past the limit", () => {
    expect(regexProblem("((.{0,10}){10}){11}")).toBe("regex too complex: repetition counts multiply to more than 1000");
    expect(regexProblem("(a{100}){100}")).toBe("regex too complex: repetition counts multiply to more than 1000");
    expect(regexProblem("((a|b){1,30}){30}")).toMatch(/^regex too complex/);
  });

  it("counts alternatives and repeated groups as their whole program", () => {
    // 10 alternatives of 1, repeated 40 times: 400, at the limit.
    expect(regexProblem("(a|b|c|d|e|f|g|h|i|j){40}")).toBeNull();
    expect(regexProblem("(a|b|c|d|e|f|g|h|i|j|k){40}")).toMatch(/^regex too complex/);
    // A large alternation on its own is cheap.
    expect(regexProblem(Array.from({ length: 60 }, (_, i) => `word${i}`).join("|"))).toBeNull();
    // Lazy quantifiers and {n,} count like their greedy forms.
    expect(regexProblem("\\p{L}{11,}?")).toMatch(/^regex too complex/);
    expect(regexProblem("\\p{L}{10,}?")).toBeNull();
  });

  it("does not count unbounded loops as copies", () => {
    expect(regexProblem("\\p{L}+\\p{N}*\\p{L}?")).toBeNull();
    expect(regexProblem("(\\p{L}+x)*")).toBeNull();
  });

  it("escaped braces, brackets and parentheses are literals", () => {
    expect(regexProblem("\\{1000\\}\\p{L}")).toBeNull();
    expect(regexProblem("[{}()|]{400}")).toBeNull();
    expect(regexProblem("\\(\\p{L}\\){10}")).toBeNull();
  });

  it("refuses groups nested too deep", () => {
    const deep = `${"(".repeat(QUERY_LIMITS.maxRegexNesting + 1)}a${")".repeat(QUERY_LIMITS.maxRegexNesting + 1)}`;
    expect(regexProblem(deep)).toBe(`regex too complex: groups nested more than ${QUERY_LIMITS.maxRegexNesting} deep`);
    const ok = `${"(".repeat(QUERY_LIMITS.maxRegexNesting)}a${")".repeat(QUERY_LIMITS.maxRegexNesting)}`;
    expect(regexProblem(ok)).toBeNull();
  });

  it("keeps the earlier checks", () => {
    expect(regexProblem("a".repeat(QUERY_LIMITS.maxRegexLength + 1))).toBe("regex too long");
    expect(regexProblem("(?=a)")).toBe("look-around and back-references are not supported");
    expect(regexProblem("(a")).toBe("invalid regular expression");
  });

  it("a filter with a too complex regex fails validation with the reason", () => {
    const r = FilterSchema.safeParse({ dimension: "page", op: "matches", values: ["\\p{L}{50}"] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/^regex too complex/);
    // Other operators take the same text literally.
    expect(FilterSchema.safeParse({ dimension: "page", op: "contains", values: ["\\p{L}{50}"] }).success).toBe(true);
  });
});
