// Serves the tracker at /js/script.js: cross-origin, cacheable, read once from the tracker build.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";

// Through the workspace link: see WEB_DIST in web/routes.ts.
export const TRACKER_DIST = join(
  dirname(createRequire(import.meta.url).resolve("@lookout/tracker/package.json")),
  "dist/script.js",
);

export function registerScriptRoute(app: FastifyInstance, file = TRACKER_DIST): void {
  const script = existsSync(file) ? readFileSync(file) : null;
  app.get("/js/script.js", async (_req, reply) => {
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
