// Builds the HTTP application from its dependencies: error shape, security headers, body parsers,
// then each domain's routes. No SQL and no business rules here: wiring only.
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { AppDeps } from "./app-deps.js";
import { registerAuthRoutes } from "./auth/routes.js";
import { registerCollectRoutes } from "./collect/routes.js";
import { registerDemoRoutes } from "./demo/routes.js";
import { installBodyParsers } from "./http/body-parsers.js";
import { installErrorHandling } from "./http/errors.js";
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
  installErrorHandling(app);
  installSecurityHeaders(app);
  installBodyParsers(app);
  await app.register(fastifyCookie);

  app.get("/healthz", async () => ({ ok: true }));
  registerAuthRoutes(app, deps);
  registerPropertyRoutes(app, deps);
  registerCollectRoutes(app, deps);
  registerDemoRoutes(app, deps);
  registerStatsRoutes(app, deps);
  await registerLiveRoutes(app, deps);
  await registerWebRoutes(app, deps, opts.webDist);
  return app;
}
