// Who is calling: a Bearer token (API clients and the web app) or the session cookie (browser
// navigations, the socket). Cookie-authenticated writes must carry the XSRF double-submit header.
// On the routes that allow it (the Stats API's reads), a shared link's credential instead
// (X-Share-Slug, sharing/credential.ts): an actor scoped to that link's one property.
import { timingSafeEqual } from "node:crypto";
import { API_KEY_PREFIX, type MetaStore } from "@lookout/storage";
import type { FastifyRequest } from "fastify";
import { resolveShareLink, shareSlugOf } from "../sharing/credential.js";
import { SESSION_COOKIE, XSRF_COOKIE, XSRF_HEADER } from "./cookies.js";
import { forbidden, unauthorized } from "./errors.js";

export interface Actor {
  userId: string;
  tokenId: string;
  token: string;
  via: "bearer" | "cookie" | "api_key" | "share";
  /** An API key works in its one account only, and only reads (see policy.ts). */
  accountScope?: string;
  /**
   * A shared link reads its one property (a unique_id) and nothing else: no user behind it
   * (userId ""), no account (policy.ts), and only routes that take it (route.ts `share`).
   */
  propertyScope?: string;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== "string") return null;
  const m = /^Bearer\s+(\S{1,512})\s*$/i.exec(h);
  return m?.[1] ?? null;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The caller's identity from a request, or null when it carries no credential. Only where `share`
 * allows it (the Stats API's reads) does an X-Share-Slug header count, and then it alone does:
 * a shared page asks as its link, whoever's browser it runs in.
 */
export async function identify(meta: MetaStore, req: FastifyRequest, share = false): Promise<Actor | null> {
  const slug = share ? shareSlugOf(req) : undefined;
  if (slug !== undefined) {
    const link = await resolveShareLink(meta, req, slug);
    return { userId: "", tokenId: link.id, token: slug, via: "share", propertyScope: link.property_unique_id };
  }
  const bearer = bearerToken(req);
  const token = bearer ?? req.cookies[SESSION_COOKIE] ?? null;
  if (!token) return null;
  return resolveCredential(meta, token, bearer ? "bearer" : "cookie");
}

/** A session token or (as a Bearer) an API key, if still live. Sockets recheck with this too. */
export async function resolveCredential(meta: MetaStore, token: string, via: "bearer" | "cookie"): Promise<Actor | null> {
  if (via === "bearer" && token.startsWith(API_KEY_PREFIX)) {
    const key = await meta.apiKeys.resolve(token);
    return key ? { userId: key.userId, tokenId: key.id, token, via: "api_key", accountScope: key.accountId } : null;
  }
  const resolved = await meta.tokens.resolve(token);
  if (!resolved) return null;
  return { userId: resolved.userId, tokenId: resolved.tokenId, token, via };
}

/** Requires a live credential; for cookie-authenticated writes also the matching XSRF header. */
export async function authenticate(meta: MetaStore, req: FastifyRequest, share = false): Promise<Actor> {
  const actor = await identify(meta, req, share);
  if (!actor) {
    throw unauthorized(
      bearerToken(req) || req.cookies[SESSION_COOKIE]
        ? "Your session has expired. Please log in again."
        : "Authentication token is missing.",
    );
  }
  if (actor.via === "cookie" && !SAFE_METHODS.has(req.method)) {
    const cookie = req.cookies[XSRF_COOKIE];
    const header = req.headers[XSRF_HEADER];
    if (!cookie || typeof header !== "string" || !sameSecret(cookie, header)) {
      throw forbidden("Missing or invalid XSRF token.", "xsrf_failed");
    }
  }
  return actor;
}
