// Security headers on every response: a strict CSP (no inline scripts), nosniff, no framing,
// a referrer policy. The collector and tracker script relax only what cross-site tracking needs.
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * The CSP for pages served from `host`. connect-src names the app's own socket origins: 'self'
 * alone does not cover ws:/wss: in every browser (CSP Level 2), and `ws: wss:` would let an
 * injected script talk to any socket server.
 */
export function contentSecurityPolicy(host: string | null): string {
  const sockets = host ? ` ws://${host} wss://${host}` : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https://www.gravatar.com",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

/** A Host header fit to appear in a header value: a name or address and an optional port. */
const HOST_RE = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * With a configured public URL the policy is fixed; without one it names the host the browser
 * asked for (a forged Host only changes the policy of the forger's own response).
 */
export function installSecurityHeaders(app: FastifyInstance, publicUrl?: string): void {
  const fixed = publicUrl ? contentSecurityPolicy(new URL(publicUrl).host) : null;
  const byHost = new Map<string, string>();
  const policyFor = (req: FastifyRequest): string => {
    if (fixed) return fixed;
    const host = HOST_RE.test(req.host) ? req.host : null;
    if (!host) return contentSecurityPolicy(null);
    let csp = byHost.get(host);
    if (!csp) {
      csp = contentSecurityPolicy(host);
      if (byHost.size < 64) byHost.set(host, csp);
    }
    return csp;
  };
  // A callback hook rather than an async one: it runs on every collector request, and a promise
  // per response is measurable there.
  app.addHook("onSend", (req, reply, payload, done) => {
    reply.headers(HEADERS);
    reply.header("content-security-policy", policyFor(req));
    done(null, payload);
  });
}
