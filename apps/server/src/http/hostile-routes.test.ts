// Hostile input to every route of the app, generated from its route table (http/route-table.ts):
// hostile strings (NUL, lone surrogates, injection, 100 kB), numbers at the edges, wrong types,
// nested objects and prototype keys, in every field the API knows (every key of every schema of
// @lookout/schema and every Stats API parameter), as path parameters, query strings, JSON and form
// bodies, signed in and not. No answer may be a 5xx, every 4xx is `{message, code}`, and the
// server still answers a plain call afterwards. The systematic phase sends each route the fields
// of its own schemas (route-table.ts, from the route helper), and every field to a route without.
import * as schemas from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../test-support.js";
import { WEB_DIST } from "../web/routes.js";
import { deeplyNested, hostileString, hostileValue } from "./hostile-values.js";
import type { RouteEntry } from "./route-table.js";

/** Every key of the object schemas among `roots`, nested ones included. */
function fieldsOf(roots: readonly unknown[]): string[] {
  const keys = new Set<string>();
  const walk = (s: unknown, depth: number): void => {
    if (depth > 4 || !(s instanceof z.ZodType)) return;
    if (s instanceof z.ZodObject) {
      for (const [k, v] of Object.entries(s.shape)) {
        keys.add(k);
        walk(v, depth + 1);
      }
    } else if (s instanceof z.ZodDiscriminatedUnion || s instanceof z.ZodUnion) {
      for (const o of s.options) walk(o, depth + 1);
    } else if (s instanceof z.ZodPipe) {
      walk(s.in, depth + 1);
      walk(s.out, depth + 1);
    } else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodCatch || s instanceof z.ZodDefault) {
      walk(s.unwrap(), depth + 1);
    }
  };
  for (const v of roots) walk(v, 0);
  return [...keys];
}

/** Every key of every object schema the package exports: the field names the API reads. */
const schemaFields = (): string[] => fieldsOf(Object.values(schemas));

/**
 * The fields one route reads: those of its own schemas (params, query, body), or, for a route
 * without schemas, every field the API knows. A route whose schemas read nothing still gets one
 * call per value (under a name it ignores).
 */
function routeFields(route: RouteEntry, all: readonly string[]): string[] {
  if (!route.schemas) return [...all];
  const own = fieldsOf([route.schemas.params, route.schemas.query, route.schemas.body]);
  return own.length ? own : ["unread"];
}

/** What PostgreSQL, PGlite or DuckDB cannot hold or once choked on, and values of the wrong type. */
const STORE_BREAKERS: unknown[] = ["a\u0000b", "\ud800x", { a: 1 }];

/** The Stats API's query parameters (README "Stats API"). */
const STATS_PARAMS = [
  "property_id",
  "period",
  "date",
  "filters",
  "metrics",
  "dimension",
  "interval",
  "compare",
  "limit",
  "page",
  "order",
  "goal",
];

let t: TestApp;
let token: string;
let cookie: string;
let xsrf: string;
let propertyId: string;
let accountId: string;
let password: string;

beforeAll(async () => {
  t = await createTestApp("pglite", { webDist: WEB_DIST });
  const u = await t.user("hostile-routes@example.com");
  accountId = u.accountId;
  propertyId = await t.property(u.accountId, "https://hostile.test");
  password = u.password;
  const s = await t.login(u.email, u.password);
  token = s.token;
  cookie = Object.entries(s.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
  xsrf = s.cookies["XSRF-TOKEN"] ?? "";
});
afterAll(async () => {
  await t?.close();
});

/** Percent-encodes any string, a lone surrogate as the (invalid) UTF-8 bytes it would take. */
function encodeAny(s: string): string {
  return s
    .replace(/[\ud800-\udfff]/gu, (c) => {
      const u = c.charCodeAt(0);
      return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    })
    .replace(/[^%]+/g, (part) => encodeURIComponent(part));
}

/**
 * The routes that read input: the web app's built files (one route each, hundreds of them, the
 * same static handler) are represented by the first two.
 */
function inputRoutes() {
  const isFile = (url: string) => /\.[A-Za-z0-9]+$/.test(url) && !url.includes(":");
  const files = t.app.routeTable.filter((r) => isFile(r.url));
  return [...t.app.routeTable.filter((r) => !isFile(r.url)), ...files.slice(0, 2)];
}

type Auth = "none" | "bearer" | "cookie" | "bad-bearer";
type Encoding = "json" | "form" | "text" | "none";

function toQuery(fields: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, typeof one === "string" ? one : (JSON.stringify(one) ?? ""));
  }
  return q.toString();
}

describe("hostile input to every route", () => {
  it("finds the routes and the fields", () => {
    const urls = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain("POST /wp-json/custom/v1/login");
    expect(urls).toContain("GET /api/v1/stats/aggregate");
    expect(urls).toContain("DELETE /api/v1/properties/:id");
    expect(schemaFields()).toEqual(expect.arrayContaining(["username", "user_email", "accountId", "token", "customerId"]));
    // Routes written with the route helper carry their own schemas.
    const all = [...new Set([...schemaFields(), ...STATS_PARAMS])];
    const fieldsAt = (method: string, url: string) =>
      routeFields(t.app.routeTable.find((r) => r.method === method && r.url === url) as RouteEntry, all);
    expect(fieldsAt("DELETE", "/api/v1/properties/:id")).toEqual(["id"]);
    expect(fieldsAt("POST", "/wp-json/custom/v1/login")).toEqual(["username", "password"]);
    const statsFields = ["aggregate", "timeseries", "breakdown"].flatMap((k) => fieldsAt("GET", `/api/v1/stats/${k}`));
    expect([...new Set(statsFields)].sort()).toEqual([...STATS_PARAMS].sort());
    expect(fieldsAt("POST", "/api/event")).toEqual(expect.arrayContaining(["property", "name", "url"]));
  });

  it("every field of every route, each with every value a store cannot hold: no 5xx", async () => {
    const all = [...new Set([...schemaFields(), ...STATS_PARAMS])];
    const real: Record<string, string> = { property_id: propertyId, accountId, customerId: accountId };
    const failures: string[] = [];
    let n = 0;
    for (const route of inputRoutes()) {
      for (const field of routeFields(route, all)) {
        for (const value of STORE_BREAKERS) {
          // Each request from its own address, so that no throttle answers before the stores are asked.
          const remoteAddress = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`;
          const fill = { ...real, [field]: value };
          const url = route.url.replace(/:[A-Za-z_]+|\*/g, () => encodeAny(typeof value === "string" ? value : propertyId));
          const res = await t.app.inject({
            method: route.method as "GET",
            url: `${url}?${toQuery(fill)}`,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            remoteAddress,
            ...(route.method === "GET" ? {} : { payload: JSON.stringify({ ...fill, [field]: value }) }),
          });
          if (res.statusCode >= 500)
            failures.push(`${route.method} ${route.url} ${field} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect([...new Set(failures)].slice(0, 10)).toEqual([]);
    expect((await t.app.inject({ url: "/healthz" })).statusCode).toBe(200);
  }, 300_000);

  it("never answers 5xx, always {message, code} for 4xx, and keeps serving", async () => {
    const fields = [...new Set([...schemaFields(), ...STATS_PARAMS])];
    const routes = inputRoutes().filter((r) => r.url !== "/healthz");
    // Each field: absent, a real value of this user (so checks past the id's shape run), or hostile.
    const real: Record<string, string> = { property_id: propertyId, accountId, customerId: accountId, id: propertyId };
    const fieldValues = fc.dictionary(
      fc.constantFrom(...fields),
      fc.oneof({ weight: 4, arbitrary: hostileValue }, { weight: 1, arbitrary: fc.constant("__real__") }),
      { maxKeys: 6 },
    );
    const request = fc.record({
      route: fc.constantFrom(...routes),
      params: fc.oneof(hostileString, fc.constant(propertyId)),
      query: fieldValues,
      body: fc.oneof(
        { weight: 6, arbitrary: fieldValues },
        { weight: 1, arbitrary: hostileValue },
        {
          weight: 1,
          arbitrary: fc.constant(deeplyNested(2_000)),
        },
      ),
      encoding: fc.constantFrom<Encoding>("json", "form", "text", "none"),
      auth: fc.constantFrom<Auth>("none", "bearer", "cookie", "bad-bearer"),
    });
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const fill = (v: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === "__real__" ? (real[k] ?? "x") : x]));
        const url = r.route.url.replace(/:[A-Za-z_]+|\*/g, () => encodeAny(r.params));
        const qs = toQuery(fill(r.query));
        const headers: Record<string, string> = {};
        if (r.auth === "bearer") headers.authorization = `Bearer ${token}`;
        if (r.auth === "bad-bearer") headers.authorization = `Bearer ${encodeAny(r.params).slice(0, 300)}`;
        if (r.auth === "cookie") Object.assign(headers, { cookie, "x-xsrf-token": xsrf });
        const body =
          r.body && typeof r.body === "object" && !Array.isArray(r.body) ? fill(r.body as Record<string, unknown>) : r.body;
        let payload: string | undefined;
        if (r.route.method !== "GET" && r.encoding !== "none") {
          if (r.encoding === "json") {
            headers["content-type"] = "application/json";
            payload = JSON.stringify(body) ?? "null";
          } else if (r.encoding === "form") {
            headers["content-type"] = "application/x-www-form-urlencoded";
            payload = toQuery(typeof body === "object" && body ? (body as Record<string, unknown>) : { v: body });
          } else {
            headers["content-type"] = "text/plain";
            payload = typeof body === "string" ? body : (JSON.stringify(body) ?? "");
          }
        }
        const res = await t.app.inject({
          method: r.route.method as "GET",
          url: qs ? `${url}?${qs}` : url,
          headers,
          remoteAddress: `10.200.${(r.params.length >> 8) & 255}.${r.params.length & 255}`,
          ...(payload !== undefined ? { payload } : {}),
        });
        if (res.statusCode >= 500)
          failures.push(`${r.route.method} ${r.route.url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400 && res.statusCode < 500 && res.headers["content-type"]?.toString().includes("json")) {
          const b = res.json() as { message?: unknown; code?: unknown };
          if (typeof b.message !== "string" || typeof b.code !== "string")
            failures.push(`${r.route.url}: error body ${res.body.slice(0, 200)}`);
          if (/select |insert |update |delete from|\bat .+\.(ts|js):\d+/i.test(res.body))
            failures.push(`${r.route.url}: leaks ${res.body.slice(0, 200)}`);
        }
        return true;
      }),
      { numRuns: 800, seed: Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31) },
    );
    expect([...new Set(failures)].slice(0, 10)).toEqual([]);
    expect((await t.app.inject({ url: "/healthz" })).statusCode).toBe(200);
    // The generated calls may have signed this session out and deleted the property: a new
    // session must still work end to end.
    const again = await t.login("hostile-routes@example.com", password);
    const me = await t.app.inject({ url: "/api/auth/me", headers: { authorization: `Bearer ${again.token}` } });
    expect(me.statusCode).toBe(200);
  }, 240_000);
});
