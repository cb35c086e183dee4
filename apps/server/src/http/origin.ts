// The one same-origin check (DESIGN.md §7): for the live socket's cookie-authenticated upgrade and
// for the sign-in and recovery calls (login CSRF). A request passes when its Origin's host is the
// app's own host (LOOKOUT_PUBLIC_URL's, or the request's when that is unset) or when it names no
// origin at all (API clients, curl); a browser's `Sec-Fetch-Site: cross-site` never passes, nor
// does the opaque `Origin: null` (sandboxed frames, cross-site redirects).
import type { FastifyRequest } from "fastify";
import { forbidden } from "./errors.js";

export function isSameOrigin(req: FastifyRequest, publicUrl: string | undefined): boolean {
  if (req.headers["sec-fetch-site"] === "cross-site") return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    // Through URL both sides drop a default port (`Host: example.com:443` over https).
    const expected = new URL(publicUrl ?? `${req.protocol}://${req.host}`).host;
    return new URL(origin).host === expected;
  } catch {
    return false;
  }
}

/** An `onRequest` hook refusing cross-site requests with 403 `{message, code}`. */
export function sameOriginOnly(publicUrl: string | undefined) {
  return async (req: FastifyRequest): Promise<void> => {
    if (!isSameOrigin(req, publicUrl)) {
      throw forbidden("This request came from another site and was refused.", "cross_site_request");
    }
  };
}
