// Serves the built web app (apps/web/dist) with SPA fallback, the full-page /logout, which
// revokes the cookie session before the app clears browser storage, and /share/{slug}, a shared
// link's public page: the same app, which other sites may frame when the link has no password.
// Files are sent pre-compressed (the .br/.gz copies scripts/web-precompress.mjs writes at build)
// by Accept-Encoding; Vite's content-hashed assets are cached for good, everything else revalidated.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fastifyStatic from "@fastify/static";
import { text } from "@lookout/schema";
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
// Vite names built assets name-[8-character hash].ext; their bytes never change under that name.
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+(?:\.(?:br|gz))?$/;

export const cacheControlFor = (path: string): string =>
  HASHED_ASSET.test(path) ? "public, max-age=31536000, immutable" : "no-cache";

type Encoded = { body: Buffer; encoding: "br" | "gzip" | null };

/** index.html in the encodings it was built in, and the one to send for an Accept-Encoding. */
function loadIndex(indexFile: string): (accept: string | undefined) => Encoded {
  const identity = readFileSync(indexFile);
  const copy = (ext: string) => (existsSync(indexFile + ext) ? readFileSync(indexFile + ext) : null);
  const br = copy(".br");
  const gz = copy(".gz");
  return (accept) => {
    const offered = acceptedEncodings(accept);
    if (br && offered.has("br")) return { body: br, encoding: "br" };
    if (gz && offered.has("gzip")) return { body: gz, encoding: "gzip" };
    return { body: identity, encoding: null };
  };
}

/** The codings an Accept-Encoding header allows (q=0 excluded; "*" read as gzip, as @fastify/static does). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (name.trim()) out.add(name.trim() === "*" ? "gzip" : name.trim());
  }
  return out;
}

export async function registerWebRoutes(app: FastifyInstance, deps: AppDeps, webDist = WEB_DIST): Promise<void> {
  const indexFile = join(webDist, "index.html");
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: false,
      // Picks the .br or .gz copy by Accept-Encoding, else the file itself, with the file's type.
      preCompressed: true,
      // send() would otherwise overwrite the Cache-Control set below with its own max-age=0.
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader("cache-control", cacheControlFor(path));
        res.setHeader("vary", "Accept-Encoding");
      },
    });
  }
  // Read per request, as before: a rebuild of the app while the server runs is served at once.
  const index = () => (hasBuild ? loadIndex(indexFile) : null);

  const sendApp = (reply: import("fastify").FastifyReply) => {
    const pick = index();
    if (pick === null) {
      return reply
        .code(503)
        .type("text/plain")
        .send("The web app is not built. Run `npm start`, which builds it, or `npm run build`.");
    }
    const { body, encoding } = pick(reply.request.headers["accept-encoding"]);
    if (encoding) reply.header("content-encoding", encoding);
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("vary", "Accept-Encoding")
      .send(body);
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
      params: z.object({ slug: text() }),
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
