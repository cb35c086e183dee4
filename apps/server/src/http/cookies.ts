// The session cookie and the XSRF-TOKEN double-submit cookie set at login (SPEC.md §7).
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

export const SESSION_COOKIE = "lookout_session";
export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "x-xsrf-token";

export function setSessionCookies(reply: FastifyReply, token: string, expires: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: "lax", secure, path: "/", expires });
  reply.setCookie(XSRF_COOKIE, randomBytes(24).toString("base64url"), {
    httpOnly: false,
    sameSite: "lax",
    secure,
    path: "/",
    expires,
  });
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
  reply.clearCookie(XSRF_COOKIE, { path: "/" });
}

export function isSecureRequest(req: FastifyRequest, configured: boolean | undefined): boolean {
  return configured ?? req.protocol === "https";
}
