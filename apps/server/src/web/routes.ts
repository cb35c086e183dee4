// Serves the built web app (apps/web/dist) with SPA fallback, the full-page /logout, which
// revokes the cookie session before the app clears browser storage, and /share/{slug}, a shared
// link's public page: the same app, which other sites may frame when the link has no password.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { clearSessionCookies } from "../http/cookies.js";
import { defineRoute, mountRoutes, raw } from "../http/route.js";
import { allowFraming } from "../http/security-headers.js";
import { liveLink } from "../sharing/credential.js";

// Found through the workspace link rather than a path relative to this file, which differs
// between the sources and the server bundle (apps/server/build.mjs).
export const WEB_DIST = join(dirname(createRequire(import.meta.url).resolve("@lookout/web/package.json")), "dist");
const API_PREFIXES = ["/api/", "/static-api/", "/wp-json/", "/js/"];

export async function registerWebRoutes(app: FastifyInstance, deps: AppDeps, webDist = WEB_DIST): Promise<void> {
  const indexFile = join(webDist, "index.html");
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: false,
      setHeaders(res, path) {
        res.setHeader("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  const index = () => (hasBuild ? readFileSync(indexFile, "utf8") : null);

  const sendApp = (reply: import("fastify").FastifyReply) => {
    const html = index();
    if (html === null) {
      return reply
        .code(503)
        .type("text/plain")
        .send("The web app is not built. Run `npm start`, which builds it, or `npm run build`.");
    }
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").send(html);
  };

  mountRoutes(app, deps.meta, [
    defineRoute({
      method: "GET",
      url: "/logout",
      summary: "The full-page logout: revokes the cookie session, then serves the app, which clears browser storage.",
      tags: ["web"],
      access: "optional",
      answer: raw("text/html"),
      handle: async ({ actor, reply }) => {
        if (actor?.via === "cookie") await deps.auth.logout(actor.token);
        clearSessionCookies(reply);
        return sendApp(reply);
      },
    }),
    defineRoute({
      method: "GET",
      url: "/share/:slug",
      summary: "A shared link's public page (the app); framable anywhere only for a live link without a password.",
      tags: ["web"],
      // Any text: an unknown slug still gets the app, which says the link is not available.
      params: z.object({ slug: z.string() }),
      access: "none",
      answer: raw("text/html"),
      handle: async ({ params, reply }) => {
        const link = await liveLink(deps.meta, params.slug);
        // Never for a protected link: its password form must not sit in someone else's frame.
        if (link && link.password_hash === null) allowFraming(reply);
        return sendApp(reply);
      },
    }),
  ]);

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0] ?? "/";
    const isApi = API_PREFIXES.some((p) => path.startsWith(p)) || path === "/api";
    if ((req.method === "GET" || req.method === "HEAD") && !isApi && !/\.[a-z0-9]{1,8}$/i.test(path)) return sendApp(reply);
    return reply.code(404).send({ message: `No route for ${req.method} ${path}`, code: "not_found" });
  });
}
