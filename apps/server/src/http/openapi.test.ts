// The route helper's guarantees: the OpenAPI document lists every /api/v1 route of the route
// table (and SPEC.md's calls, the collector) with its parameters, generated from the routes' own
// schemas; an answer that its declared schema does not allow is caught under test; domain errors
// and zod errors answer the one error shape.
import type { MetaStore } from "@lookout/storage";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../test-support.js";
import { DomainError } from "./domain-errors.js";
import { installErrorHandling } from "./errors.js";
import { isDocumented, openApiPath } from "./openapi.js";
import { CHECK_ANSWERS, defineRoute, mountRoutes, NO_CONTENT } from "./route.js";
import { recordRoutes } from "./route-table.js";

type Operation = {
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
};

describe("the OpenAPI document", () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const r = await t.app.inject({ url: "/api/v1/openapi.json" });
    expect(r.statusCode).toBe(200);
    doc = r.json();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists every /api/v1 route of the route table, with its path, query and body parameters", () => {
    expect(doc.openapi).toBe("3.1.0");
    const apiRoutes = t.app.routeTable.filter((r) => r.url.startsWith("/api/v1/"));
    expect(apiRoutes.length).toBeGreaterThanOrEqual(6);
    for (const route of apiRoutes) {
      const name = `${route.method} ${route.url}`;
      const op = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(op, name).toBeDefined();
      if (!op) continue;
      const params = (where: string) => (op.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
      const pathNames = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      expect(params("path").sort(), name).toEqual(pathNames.sort());
      const query = route.schemas?.query;
      if (query instanceof z.ZodObject) expect(params("query").sort(), name).toEqual(Object.keys(query.shape).sort());
      const body = route.schemas?.body;
      if (body instanceof z.ZodObject) {
        const content = Object.values(op.requestBody?.content ?? {})[0];
        expect(Object.keys(content?.schema.properties ?? {}).sort(), name).toEqual(Object.keys(body.shape).sort());
      }
    }
    const aggregate = doc.paths["/api/v1/stats/aggregate"]?.get;
    expect(aggregate?.parameters?.find((p) => p.name === "property_id")).toMatchObject({ in: "query", required: true });
    expect(aggregate?.parameters?.find((p) => p.name === "period")).toMatchObject({ in: "query", required: false });
    expect(doc.paths["/api/v1/properties/{id}"]?.delete?.responses).toHaveProperty("204");
  });

  it("covers SPEC.md's calls, the sign-in calls, the collector and the script (both off the route helper), and every documented route of the table", () => {
    for (const [path, method] of [
      ["/wp-json/custom/v1/login", "post"],
      ["/wp-json/custom/v1/recover-password", "post"],
      ["/static-api/get-properties", "post"],
      ["/api/auth/reset-password", "post"],
      ["/api/auth/logout", "post"],
      ["/api/auth/me", "get"],
      ["/api/event", "post"],
      ["/api/batch", "post"],
      ["/js/script.js", "get"],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(Object.keys(doc.paths["/static-api/get-properties"]?.post?.requestBody?.content ?? {})).toContain(
      "application/x-www-form-urlencoded",
    );
    const missing = t.app.routeTable
      .filter((r) => isDocumented(r.url) && r.method !== "OPTIONS")
      .filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it("renders as a page without scripts at /api/docs", async () => {
    const page = await t.app.inject({ url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain("DELETE /api/v1/properties/{id}");
    expect(page.body).toContain("POST /wp-json/custom/v1/login");
  });
});

describe("the route helper", () => {
  const Answer = z.object({ n: z.number() });
  async function appWith(routes: Parameters<typeof mountRoutes>[2]) {
    const app = Fastify();
    recordRoutes(app);
    installErrorHandling(app);
    // Routes that read no credential never reach the metadata store.
    mountRoutes(app, {} as MetaStore, routes, true);
    await app.ready();
    return app;
  }

  it("checks answers against their schema under test", () => {
    expect(CHECK_ANSWERS).toBe(true);
  });

  it("catches an answer its schema does not allow (500, never the wrong answer)", async () => {
    const app = await appWith([
      defineRoute({
        method: "GET",
        url: "/good",
        summary: "",
        access: "none",
        answer: Answer,
        handle: () => ({ n: 1 }),
      }),
      defineRoute({
        method: "GET",
        url: "/bad",
        summary: "",
        access: "none",
        answer: Answer,
        // What a service gone wrong would answer; the types are bypassed as they could be at runtime.
        handle: () => ({ n: "one" }) as unknown as { n: number },
      }),
    ]);
    expect((await app.inject({ url: "/good" })).json()).toEqual({ n: 1 });
    const bad = await app.inject({ url: "/bad" });
    expect(bad.statusCode).toBe(500);
    expect(bad.json()).toEqual({ message: "Something went wrong on our side.", code: "internal_error" });
    await app.close();
  });

  it("maps domain errors through the registry and zod errors to invalid_request, in the one shape", async () => {
    const app = await appWith([
      defineRoute({
        method: "POST",
        url: "/things/:id",
        summary: "",
        access: "none",
        params: z.object({ id: z.string().regex(/^[a-z]+$/) }),
        body: z.object({ name: z.string() }),
        answer: NO_CONTENT,
        handle: ({ params }) => {
          if (params.id === "gone") throw new DomainError("property_not_found", "Property not found.");
          if (params.id === "busy") throw new DomainError("rate_limited", "Slow down.", undefined, 2_500);
        },
      }),
    ]);
    const call = (id: string, payload: unknown = { name: "x" }) =>
      app.inject({ method: "POST", url: `/things/${id}`, payload: payload as object });
    expect((await call("fine")).statusCode).toBe(204);
    const gone = await call("gone");
    expect([gone.statusCode, gone.json()]).toEqual([404, { message: "Property not found.", code: "property_not_found" }]);
    const busy = await call("busy");
    expect([busy.statusCode, busy.headers["retry-after"]]).toEqual([429, "3"]);
    const badParam = await call("NOPE");
    expect(badParam.statusCode).toBe(400);
    expect(badParam.json()).toMatchObject({ code: "invalid_request", details: [{ path: "id" }] });
    const badBody = await call("fine", { name: 1 });
    expect(badBody.json()).toMatchObject({ code: "invalid_request", details: [{ path: "name" }] });
    expect(app.routeTable.find((r) => r.url === "/things/:id")?.schemas?.body).toBeInstanceOf(z.ZodObject);
    await app.close();
  });
});
