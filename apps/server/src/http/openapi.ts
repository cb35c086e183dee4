// The OpenAPI 3.1 document of the HTTP API, generated from the route table (route-table.ts): each
// route written with the route helper brings its zod schemas (zod's own z.toJSONSchema) and its
// access rule, so the document cannot drift from what the routes parse. Served at
// /api/v1/openapi.json and rendered as a plain page (server-side, no scripts: the strict CSP
// holds) at /api/docs.
import { ApiErrorSchema, OpenApiAnswerSchema } from "@lookout/schema";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { defineRoute, type Route, raw } from "./route.js";
import type { RouteEntry } from "./route-table.js";

/**
 * The calls the document covers: the management and Stats API, SPEC.md's calls, the collector (one
 * event and the batch) and the tracker script. Not the dashboard socket (GET /api): OpenAPI has no
 * words for a WebSocket's messages; packages/schema's socket messages and SPEC.md §4 describe it.
 */
const DOCUMENTED = [
  /^\/api\/v1\//,
  /^\/api\/auth\//,
  /^\/wp-json\//,
  /^\/static-api\//,
  /^\/api\/(event|batch)$/,
  /^\/js\/script\.js$/,
];

export const isDocumented = (url: string): boolean => DOCUMENTED.some((re) => re.test(url));

type Json = Record<string, unknown>;

/** Fastify's `/a/:id` (and `:id?`) as OpenAPI's `/a/{id}`. */
export const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)\??/g, "{$1}");

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  try {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
    return rest;
  } catch {
    return {};
  }
}

interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: Json;
}

/** One parameter per key of an object schema; path parameters are always required. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query"): Parameter[] {
  if (!schema) return [];
  const js = jsonSchema(schema, "input");
  const props = (js.properties ?? {}) as Record<string, Json>;
  const required = new Set((js.required ?? []) as string[]);
  return Object.entries(props).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function operation(r: RouteEntry): Json {
  const doc = r.doc!;
  const { params, query, body } = r.schemas ?? {};
  const signedIn = doc.access !== "none" && doc.access !== "optional";
  const responses: Record<string, Json> = {};
  const answer = doc.answer;
  if (answer === null) responses[doc.status] = { description: "Done; no content." };
  else if (answer instanceof z.ZodType) {
    responses[doc.status] = { description: "OK", content: { "application/json": { schema: jsonSchema(answer, "output") } } };
  } else responses[doc.status] = { description: "OK", content: { [answer.contentType]: {} } };
  if (params || query || body) {
    responses[400] = errorResponse("Invalid input: `code` invalid_request, `details` lists each `{path, message}`.");
  }
  if (signedIn) responses[401] = errorResponse("Missing, expired or revoked credential.");
  if (doc.access === "account") responses[403] = errorResponse("Not an account the caller may act on (unknown ids alike).");
  else if (signedIn && r.method !== "GET") {
    responses[403] = errorResponse("A cookie session without the matching X-XSRF-TOKEN header.");
  }
  if (doc.access === "property") responses[404] = errorResponse("No such property, or not one the caller may act on.");
  for (const [status, description] of Object.entries(doc.responses ?? {})) {
    responses[status] = Number(status) >= 400 ? errorResponse(description) : { ...responses[status], description };
  }
  const security = doc.access === "none" ? [] : [{ bearer: [] }, { cookie: [] }, ...(doc.access === "optional" ? [{}] : [])];
  const parameterList = [...parameters(params, "path"), ...parameters(query, "query")];
  return {
    operationId: `${r.method.toLowerCase()}${openApiPath(r.url).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.tags ? { tags: doc.tags } : {}),
    security,
    ...(parameterList.length ? { parameters: parameterList } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              (doc.bodyTypes ?? ["application/json"]).map((t) => [t, { schema: jsonSchema(body, "input") }]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/** The document for every documented route of the table that carries its documentation. */
export function openApiDocument(table: readonly RouteEntry[]) {
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of table) {
    if (!r.doc || !isDocumented(r.url)) continue;
    const path = openApiPath(r.url);
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Lookout API",
      version: "1",
      description:
        "Lookout's HTTP API. Authenticate with `Authorization: Bearer <token>` (the login call's token, or a read-only API key), or with the session cookie plus the X-XSRF-TOKEN header on writes.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        cookie: { type: "apiKey", in: "cookie", name: "lookout_session" },
      },
      schemas: { Error: jsonSchema(ApiErrorSchema, "output") },
    },
    paths,
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function fieldRows(rows: { name: string; where: string; required: boolean; description?: unknown }[]): string {
  return rows
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code>${p.required ? " (required)" : ""}</td><td>${esc(p.where)}</td><td>${esc(String(p.description ?? ""))}</td></tr>`,
    )
    .join("");
}

/** The document as a plain page: one section per call, its parameters and body fields. */
export function docsHtml(doc: OpenApiDocument): string {
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const o = op as { summary: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Json }> } };
      const rows: { name: string; where: string; required: boolean; description?: unknown }[] = (o.parameters ?? []).map((p) => ({
        name: p.name,
        where: p.in,
        required: p.required,
        description: p.description,
      }));
      const [type, content] = Object.entries(o.requestBody?.content ?? {})[0] ?? [];
      const bodySchema = content?.schema ?? {};
      const required = new Set((bodySchema.required ?? []) as string[]);
      for (const [name, prop] of Object.entries((bodySchema.properties ?? {}) as Record<string, Json>)) {
        rows.push({ name, where: `body (${type})`, required: required.has(name), description: prop.description });
      }
      const table = rows.length
        ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Meaning</th></tr></thead><tbody>${fieldRows(rows)}</tbody></table>`
        : "";
      sections.push(
        `<section><h2><code>${esc(method.toUpperCase())} ${esc(path)}</code></h2><p>${esc(o.summary)}</p>${table}</section>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Lookout API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e5e7eb;padding:.4rem;text-align:left;vertical-align:top}code{background:#f3f4f6;padding:0 .2rem}</style></head>
<body><h1>Lookout API</h1><p>${esc(doc.info.description)} Errors are JSON <code>{message, code, details}</code>. The machine-readable document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>${sections.join("")}</body></html>`;
}

/** GET /api/v1/openapi.json and GET /api/docs, built once from the finished route table. */
export function docsRoutes(): Route[] {
  let built: { doc: OpenApiDocument; html: string } | undefined;
  const build = (app: FastifyInstance) => {
    if (!built) {
      const doc = openApiDocument(app.routeTable);
      built = { doc, html: docsHtml(doc) };
    }
    return built;
  };
  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/openapi.json",
      summary: "This document.",
      tags: ["docs"],
      access: "none",
      answer: OpenApiAnswerSchema,
      handle: ({ req }) => build(req.server).doc,
    }),
    defineRoute({
      method: "GET",
      url: "/api/docs",
      summary: "The document as a page.",
      tags: ["docs"],
      access: "none",
      answer: raw("text/html"),
      handle: ({ req, reply }) => reply.type("text/html; charset=utf-8").send(build(req.server).html),
    }),
  ];
}
