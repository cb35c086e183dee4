// Every route the app serves, as registered: the list the route-wide hostile-input test walks
// (http/hostile-routes.test.ts), so that a new route is covered without being named anywhere, and
// the list the OpenAPI document is generated from (http/openapi.ts). A route written with the
// route helper (http/route.ts) carries its zod schemas and its documentation here.
import type { FastifyInstance } from "fastify";
import type { z } from "zod";

/** The zod schemas of a route's inputs (for a custom-parsed query, the schema that documents it). */
export interface RouteSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/** Who may call a route, as the OpenAPI document tells it. */
export type AccessDoc = "none" | "optional" | "signed-in" | "account" | "property";

/** What the OpenAPI document says about a route beyond its schemas. */
export interface RouteDoc {
  summary: string;
  description?: string;
  tags?: readonly string[];
  access: AccessDoc;
  /** The success status (200 unless told). */
  status: number;
  /** The answer: a zod schema (JSON), or a content type of a non-JSON answer, or none (204). */
  answer: z.ZodType | { contentType: string } | null;
  /** Content types the body may come in (JSON unless told). */
  bodyTypes?: readonly string[];
  /** Answers 402 account_locked while its account is locked over quota (route.ts `readsStats`). */
  readsStats?: boolean;
  /** Statuses beyond those the access rule and the schemas imply, with what they mean. */
  responses?: Readonly<Record<number, string>>;
}

export interface RouteEntry {
  method: string;
  url: string;
  schemas?: RouteSchemas;
  doc?: RouteDoc;
}

declare module "fastify" {
  interface FastifyInstance {
    routeTable: readonly RouteEntry[];
  }
  interface FastifyContextConfig {
    /** Set by the route helper (http/route.ts), or by hand on a route that cannot use it. */
    doc?: RouteDoc;
    schemas?: RouteSchemas;
  }
}

/** Call first: records every route registered afterwards, in any plugin. */
export function recordRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate("routeTable", table);
  app.addHook("onRoute", (r) => {
    const config = r.config as { doc?: RouteDoc; schemas?: RouteSchemas } | undefined;
    for (const method of [r.method].flat()) {
      if (method === "HEAD") continue;
      table.push({
        method,
        url: r.url,
        ...(config?.schemas ? { schemas: config.schemas } : {}),
        ...(config?.doc ? { doc: config.doc } : {}),
      });
    }
  });
}
