// Every route the app serves, as registered: the list the route-wide hostile-input test walks
// (http/hostile-routes.test.ts), so that a new route is covered without being named anywhere.
import type { FastifyInstance } from "fastify";

export interface RouteEntry {
  method: string;
  url: string;
}

declare module "fastify" {
  interface FastifyInstance {
    routeTable: readonly RouteEntry[];
  }
}

/** Call first: records every route registered afterwards, in any plugin. */
export function recordRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate("routeTable", table);
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) if (method !== "HEAD") table.push({ method, url: r.url });
  });
}
