// Builds the HTTP application from its dependencies: error shape and body parsers for everything,
// the collector's endpoint, then the site (security headers, cookies, the socket) with each
// domain's routes. No SQL and no business rules here: wiring only.
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { AppDeps } from "./app-deps.js";
import { registerAuthRoutes } from "./auth/routes.js";
import { registerEventRoute } from "./collect/routes.js";
import { registerScriptRoute } from "./collect/script-route.js";
import { registerDemoRoutes } from "./demo/routes.js";
import { installBodyParsers } from "./http/body-parsers.js";
import { installErrorHandling } from "./http/errors.js";
import { recordRoutes } from "./http/route-table.js";
import { installSecurityHeaders } from "./http/security-headers.js";
import { registerLiveRoutes } from "./live/routes.js";
import { registerPropertyRoutes } from "./properties/routes.js";
import { registerStatsRoutes } from "./stats/routes.js";
import { registerWebRoutes } from "./web/routes.js";

export const API_BODY_LIMIT = 64 * 1024;

export async function buildApp(deps: AppDeps, opts: { webDist?: string } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.config.logLevel === "silent" ? false : { level: deps.config.logLevel },
    bodyLimit: API_BODY_LIMIT,
    trustProxy: deps.config.trustedProxies.length ? deps.config.trustedProxies : false,
    // Per-request lines only when debugging: the collector's volume would drown everything else.
    logController: new LogController({
      disableRequestLogging: deps.config.logLevel !== "debug" && deps.config.logLevel !== "trace",
    }),
    return503OnClosing: true,
  });
  recordRoutes(app);
  installErrorHandling(app);
  installBodyParsers(app);
  app.get("/healthz", async () => ({ ok: true }));
  // POST /api/event stays outside the site's scope, so that none of the site's hooks run on the
  // collector's thousands of requests a second: its body is never a page, it carries no cookie,
  // and it is never a socket upgrade.
  registerEventRoute(app, deps);
  await app.register(async (site) => {
    installSecurityHeaders(site, deps.config.publicUrl);
    await site.register(fastifyCookie);
    registerScriptRoute(site);
    registerAuthRoutes(site, deps);
    registerPropertyRoutes(site, deps);
    registerDemoRoutes(site, deps);
    registerStatsRoutes(site, deps);
    await registerLiveRoutes(site, deps);
    await registerWebRoutes(site, deps, opts.webDist);
  });
  return app;
}
