// Security headers on every response: a strict CSP (no inline scripts), nosniff, no framing,
// a referrer policy. The collector and tracker script relax only what cross-site tracking needs.
import type { FastifyInstance } from "fastify";

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https://www.gravatar.com",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

export function installSecurityHeaders(app: FastifyInstance): void {
  // A callback hook rather than an async one: it runs on every collector request, and a promise
  // per response is measurable there.
  app.addHook("onSend", (_req, reply, payload, done) => {
    reply.headers(HEADERS);
    done(null, payload);
  });
}
