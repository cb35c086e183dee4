// Builds the HTTP application from its dependencies: error shape and body parsers for everything,
// the collector's endpoint, then the site (security headers, cookies, the socket) with each
// domain's routes. No SQL and no business rules here: wiring only. A domain's routes are a list
// of route definitions (http/route.ts) in its routes.ts; one line below mounts them.
import fastifyCookie from "@fastify/cookie";
import { HealthAnswerSchema } from "@lookout/schema";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { accountRoutes } from "./accounts/routes.js";
import { apiKeyRoutes } from "./api-keys/routes.js";
import type { AppDeps } from "./app-deps.js";
import { authRoutes } from "./auth/routes.js";
import { statsGate } from "./billing/lock.js";
import { billingRoutes } from "./billing/routes.js";
import { registerBillingWebhook } from "./billing/webhook.js";
import { registerEventRoute } from "./collect/routes.js";
import { registerScriptRoute } from "./collect/script-route.js";
import { demoRoutes } from "./demo/routes.js";
import { goalRoutes } from "./goals/routes.js";
import { installBodyParsers } from "./http/body-parsers.js";
import { trustedProxy } from "./http/client-ip.js";
import { installErrorHandling } from "./http/errors.js";
import { docsRoutes } from "./http/openapi.js";
import { defineRoute, mountRoutes } from "./http/route.js";
import { recordRoutes } from "./http/route-table.js";
import { installSecurityHeaders } from "./http/security-headers.js";
import { insightRoutes } from "./insights/routes.js";
import { registerLiveRoutes } from "./live/routes.js";
import { meRoutes } from "./me/routes.js";
import { propertyRoutes } from "./properties/routes.js";
import { reportRoutes } from "./reports/routes.js";
import { sharingRoutes } from "./sharing/routes.js";
import { statsRoutes } from "./stats/routes.js";
import { teamRoutes } from "./team/routes.js";
import { visitorRoutes } from "./visitors/routes.js";
import { registerWebRoutes } from "./web/routes.js";

export const API_BODY_LIMIT = 64 * 1024;

const health = defineRoute({
  method: "GET",
  url: "/healthz",
  summary: "Whether the server answers.",
  access: "none",
  answer: HealthAnswerSchema,
  handle: () => ({ ok: true as const }),
});

export async function buildApp(deps: AppDeps, opts: { webDist?: string } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.config.logLevel === "silent" ? false : { level: deps.config.logLevel },
    bodyLimit: API_BODY_LIMIT,
    trustProxy: trustedProxy(deps.config.trustedProxies),
    // Per-request lines only when debugging: the collector's volume would drown everything else.
    logController: new LogController({
      disableRequestLogging: deps.config.logLevel !== "debug" && deps.config.logLevel !== "trace",
    }),
    return503OnClosing: true,
    // A visitor's client id in a path (1-128 visible ASCII characters) URL-encoded is up to 384
    // characters; Fastify's default of 100 would answer 414 (visitors/routes.ts).
    routerOptions: { maxParamLength: 512 },
  });
  recordRoutes(app);
  installErrorHandling(app);
  installBodyParsers(app);
  mountRoutes(app, deps.meta, [health]);
  // POST /api/event stays outside the site's scope, so that none of the site's hooks run on the
  // collector's thousands of requests a second: its body is never a page, it carries no cookie,
  // and it is never a socket upgrade.
  registerEventRoute(app, deps);
  await registerBillingWebhook(app, deps.meta, deps.billing);
  await app.register(async (site) => {
    installSecurityHeaders(site, deps.config.publicUrl);
    await site.register(fastifyCookie);
    registerScriptRoute(site);
    mountRoutes(
      site,
      deps.meta,
      [
        ...authRoutes(deps),
        ...propertyRoutes(deps),
        ...demoRoutes(deps),
        ...statsRoutes(deps),
        ...goalRoutes(deps),
        ...visitorRoutes(deps),
        ...insightRoutes(deps),
        ...apiKeyRoutes(deps),
        ...meRoutes(deps),
        ...accountRoutes(deps),
        ...teamRoutes(deps),
        ...sharingRoutes(deps),
        ...reportRoutes(deps),
        ...billingRoutes(deps),
        ...docsRoutes(),
      ],
      undefined,
      // Every route that declares readsStats answers 402 account_locked while its account is locked.
      statsGate(deps.meta, deps.billing),
    );
    await registerLiveRoutes(site, deps);
    await registerWebRoutes(site, deps, opts.webDist);
  });
  return app;
}
