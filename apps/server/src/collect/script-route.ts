// Serves the tracker at /js/script.js: cross-origin, cacheable, read once from the tracker build.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { RouteDoc } from "../http/route-table.js";

// Through the workspace link: see WEB_DIST in web/routes.ts.
export const TRACKER_DIST = join(
  dirname(createRequire(import.meta.url).resolve("@lookout/tracker/package.json")),
  "dist/script.js",
);

/** Raw bytes, not JSON: not on the route helper (http/route.ts), documented here instead. */
const SCRIPT_DOC: RouteDoc = {
  summary:
    'The tracker script, for `<script defer src=".../js/script.js" data-property="...">`. Cacheable for an hour, open to every origin.',
  tags: ["collector"],
  access: "none",
  status: 200,
  answer: { contentType: "application/javascript" },
  responses: { 503: "The tracker is not built (code tracker_not_built)." },
};

export function registerScriptRoute(app: FastifyInstance, file = TRACKER_DIST): void {
  const script = existsSync(file) ? readFileSync(file) : null;
  app.get("/js/script.js", { config: { doc: SCRIPT_DOC } }, async (_req, reply) => {
    if (!script) {
      return reply
        .code(503)
        .send({ message: "The tracker is not built. Run `npm start`, which builds it.", code: "tracker_not_built" });
    }
    return reply
      .type("application/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .header("access-control-allow-origin", "*")
      .header("cross-origin-resource-policy", "cross-origin")
      .send(script);
  });
}
