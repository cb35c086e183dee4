// The Stats API's OpenAPI 3.1 document, built from the same constants the API validates with,
// and a plain HTML page rendering it (server-side, no scripts) at /api/docs.
import { BASE_DIMENSIONS, COMPARISONS, DATE_PRESETS, INTERVALS, METRICS, QUERY_LIMITS } from "@lookout/schema";
import type { FastifyInstance } from "fastify";

interface Param {
  name: string;
  required?: boolean;
  description: string;
  schema: Record<string, unknown>;
}

const common: Param[] = [
  { name: "property_id", required: true, description: "The property's unique_id.", schema: { type: "string" } },
  {
    name: "period",
    description: "Date preset in the property's timezone (default last_7_days).",
    schema: { enum: DATE_PRESETS },
  },
  { name: "date", description: "For period=custom: YYYY-MM-DD,YYYY-MM-DD (inclusive).", schema: { type: "string" } },
  {
    name: "metrics",
    description: `Comma-separated: ${METRICS.join(", ")}. Default visitors.`,
    schema: { type: "string" },
  },
  {
    name: "filters",
    description:
      "Semicolon-separated filters `dimension OP value[|value...]`; OP is == (is), != (is not), ~ (contains), !~ (does not contain), =~ (matches RE2 regex). A backslash escapes ; | and \\. Example: page==/pricing;country!=US|DE.",
    schema: { type: "string" },
  },
  { name: "goal", description: "Custom event name counted by conversions and conversion_rate.", schema: { type: "string" } },
];
const compare: Param = { name: "compare", description: "Comparison period (not with all_time).", schema: { enum: COMPARISONS } };

const metricValue = {
  type: "object",
  properties: {
    value: { type: "number" },
    comparison: { type: ["number", "null"] },
    change: { type: ["number", "null"], description: "Percent change against the comparison." },
  },
};

function op(summary: string, params: Param[], result: Record<string, unknown>) {
  return {
    get: {
      summary,
      security: [{ bearer: [] }],
      parameters: params.map((p) => ({ in: "query", required: p.required ?? false, ...p })),
      responses: {
        "200": { description: "OK", content: { "application/json": { schema: result } } },
        "400": {
          description: "A parameter is invalid; `details.param` names it.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        "401": { description: "Missing or expired token." },
        "404": { description: "No such property, or not one the caller may read." },
      },
    },
  };
}

export const OPENAPI = {
  openapi: "3.1.0",
  info: {
    title: "Lookout Stats API",
    version: "1",
    description: "Read a property's statistics. Authenticate with `Authorization: Bearer <token>` from the login call.",
  },
  components: {
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    schemas: {
      Error: {
        type: "object",
        properties: { message: { type: "string" }, code: { type: "string" }, details: { type: "object" } },
      },
    },
  },
  paths: {
    "/api/v1/stats/aggregate": op("Totals over the period, with change against a comparison period.", [...common, compare], {
      type: "object",
      properties: { results: { type: "object", additionalProperties: metricValue } },
    }),
    "/api/v1/stats/timeseries": op(
      "One row per interval bucket (every bucket present).",
      [
        ...common,
        compare,
        { name: "interval", description: "Bucket size; chosen from the period when absent.", schema: { enum: INTERVALS } },
      ],
      { type: "object", properties: { results: { type: "array", items: { type: "object" } } } },
    ),
    "/api/v1/stats/breakdown": op(
      "Metrics per value of one dimension.",
      [
        ...common,
        {
          name: "dimension",
          required: true,
          description: `One of ${BASE_DIMENSIONS.join(", ")}, or prop:<key> for a custom event property.`,
          schema: { type: "string" },
        },
        {
          name: "limit",
          description: `Rows per page, 1 to ${QUERY_LIMITS.maxLimit} (default 100).`,
          schema: { type: "integer" },
        },
        { name: "page", description: "Page number from 1.", schema: { type: "integer" } },
        { name: "order", description: "<metric>:asc|desc or dimension:asc|desc.", schema: { type: "string" } },
      ],
      { type: "object", properties: { results: { type: "array", items: { type: "object" } } } },
    ),
    "/api/v1/stats/realtime/visitors": op(
      "Visitors live on the site now (seen in the last 60 s, with a known country).",
      [common[0] as Param],
      {
        type: "integer",
      },
    ),
  },
} as const;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function docsHtml(): string {
  const sections = Object.entries(OPENAPI.paths).map(([path, item]) => {
    const rows = item.get.parameters
      .map((p) => `<tr><td><code>${esc(p.name)}</code>${p.required ? " (required)" : ""}</td><td>${esc(p.description)}</td></tr>`)
      .join("");
    return `<section><h2><code>GET ${esc(path)}</code></h2><p>${esc(item.get.summary)}</p><table><thead><tr><th>Parameter</th><th>Meaning</th></tr></thead><tbody>${rows}</tbody></table></section>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Lookout Stats API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e5e7eb;padding:.4rem;text-align:left;vertical-align:top}code{background:#f3f4f6;padding:0 .2rem}</style></head>
<body><h1>Lookout Stats API</h1><p>${esc(OPENAPI.info.description)} Errors are JSON <code>{message, code, details}</code>. The machine-readable document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>${sections.join("")}</body></html>`;
}

export function registerApiDocs(app: FastifyInstance): void {
  const html = docsHtml();
  app.get("/api/v1/openapi.json", async () => OPENAPI);
  app.get("/api/docs", async (_req, reply) => reply.type("text/html; charset=utf-8").send(html));
}
