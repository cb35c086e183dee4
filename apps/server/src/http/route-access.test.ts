// The route helper refuses a route that does not declare who may call it: the type requires
// `access`, and mountRoutes asserts it at start-up for what a cast or a plain object slips past.
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { assertAccess, defineRoute, mountRoutes, type Route } from "./route.js";

const base = { method: "GET", url: "/x", summary: "x", answer: z.object({}), handle: () => ({}) } as const;

describe("route access declarations", () => {
  it("accepts each kind of rule", () => {
    for (const access of ["none", "optional", "signed-in"]) expect(() => assertAccess("GET /x", access)).not.toThrow();
    expect(() => assertAccess("GET /x", { account: () => "a", action: "admin" })).not.toThrow();
    expect(() => assertAccess("GET /x", { property: () => "p", action: "read" })).not.toThrow();
  });

  it.each([
    ["absent", undefined],
    ["an unknown word", "public"],
    ["a rule without an action", { account: (): string => "a" }],
    ["a rule with an unknown action", { account: (): string => "a", action: "delete" }],
    ["a rule naming both an account and a property", { account: (): string => "a", property: (): string => "p", action: "read" }],
    ["a rule whose id is not a function", { account: "a", action: "read" }],
  ])("refuses a route whose access is %s, when it is mounted", async (_, access) => {
    const app = Fastify();
    const route = { ...base, access } as unknown as Route;
    // biome-ignore lint/suspicious/noExplicitAny: the store is never reached: mounting throws first
    expect(() => mountRoutes(app, {} as any, [route])).toThrow(/must declare its access/);
    await app.close();
  });

  it("does not type-check a definition without access", () => {
    // @ts-expect-error `access` is required: a route cannot be written without it.
    const r = defineRoute({ ...base });
    expect(() => assertAccess("GET /x", r.access)).toThrow();
  });
});
