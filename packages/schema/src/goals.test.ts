// Goal bodies and the page-pattern language (goals.ts): `*` within one path segment, `**` across
// segments, the whole path, everything else literal.
import { describe, expect, it } from "vitest";
import { CreateGoalBodySchema, defaultGoalName, pagePatternProblem, pagePatternRegex } from "./goals.js";
import { GoalsSpecSchema } from "./query.js";

const matches = (pattern: string, path: string) => new RegExp(pagePatternRegex(pattern)).test(path);

describe("page patterns", () => {
  it.each([
    ["/pricing", "/pricing", true],
    ["/pricing", "/pricing/", false],
    ["/pricing", "/Pricing", false],
    ["/blog/*", "/blog/hello", true],
    ["/blog/*", "/blog/", true],
    ["/blog/*", "/blog/a/b", false],
    ["/blog/**", "/blog/a/b", true],
    ["/blog/**", "/blogger", false],
    ["/*/edit", "/42/edit", true],
    ["/*/edit", "/a/42/edit", false],
    ["/**/edit", "/a/42/edit", true],
    ["/a.b", "/aXb", false],
    ["/a+(b)", "/a+(b)", true],
    ["/x?y=[1]", "/x?y=[1]", true],
    ["/$^|\\", "/$^|\\", true],
  ])("%s on %s: %s", (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it("refuses patterns that are not paths", () => {
    expect(pagePatternProblem("pricing")).toMatch(/start with/);
    expect(pagePatternProblem("/a/***")).toMatch(/stars/);
    expect(pagePatternProblem("/a b")).toMatch(/spaces/);
    expect(pagePatternProblem(`/${"a".repeat(300)}`)).toMatch(/at most/);
    expect(pagePatternProblem("/ok/**")).toBeNull();
  });
});

describe("CreateGoalBodySchema", () => {
  it("takes a custom-event goal with a currency (upper-cased) and a pageview goal", () => {
    expect(CreateGoalBodySchema.parse({ kind: "event", match: " signup ", currency: "eur" })).toEqual({
      kind: "event",
      match: "signup",
      currency: "EUR",
    });
    expect(CreateGoalBodySchema.parse({ kind: "page", match: "/blog/*" })).toEqual({ kind: "page", match: "/blog/*" });
  });

  it("names each bad field", () => {
    const paths = (body: unknown) => CreateGoalBodySchema.safeParse(body).error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(paths({ kind: "event", match: "x".repeat(121) })).toEqual(["match"]);
    expect(paths({ kind: "event", match: "pageview" })).toEqual(["match"]);
    expect(paths({ kind: "event", match: "buy", currency: "EURO" })).toEqual(["currency"]);
    expect(paths({ kind: "page", match: "blog" })).toEqual(["match"]);
    expect(paths({ kind: "page", match: "/a", display_name: "" })).toEqual(["display_name"]);
    expect(paths({ kind: "other", match: "/a" })).toEqual(["kind"]);
  });

  it("names pageview goals 'Visit <path>' by default", () => {
    expect(defaultGoalName("page", "/pricing")).toBe("Visit /pricing");
    expect(defaultGoalName("event", "signup")).toBe("signup");
  });
});

describe("GoalsSpecSchema", () => {
  const spec = { kind: "goals", property: "p", goals: [{ kind: "event", name: "A", match: "a" }] };
  it("takes goal metrics only and unique goal names", () => {
    expect(GoalsSpecSchema.safeParse({ ...spec, metrics: ["visitors", "events", "conversion_rate"] }).success).toBe(true);
    expect(GoalsSpecSchema.safeParse({ ...spec, metrics: ["bounce_rate"] }).success).toBe(false);
    expect(GoalsSpecSchema.safeParse({ ...spec, goals: [...spec.goals, ...spec.goals] }).success).toBe(false);
    expect(
      GoalsSpecSchema.safeParse({
        ...spec,
        goals: Array.from({ length: 51 }, (_, i) => ({ kind: "event", name: `g${i}`, match: "a" })),
      }).success,
    ).toBe(false);
  });
});
