// Security headers on every response: a strict CSP (no inline scripts), nosniff, no framing,
// a referrer policy. The collector and tracker script relax only what cross-site tracking needs.
// One document may be framed anywhere: the page of a shared link without a password, which
// web/routes.ts marks with allowFraming (embedding, DESIGN.md §5); never a protected link's page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

const FRAMEABLE = new WeakSet<FastifyReply>();

/** Lets this response (a public shared page) be framed by any site: `frame-ancestors *`, no X-Frame-Options. */
export function allowFraming(reply: FastifyReply): void {
  FRAMEABLE.add(reply);
}

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
    const csp = policyFor(req);
    if (FRAMEABLE.has(reply)) {
      reply.removeHeader("x-frame-options");
      reply.header("content-security-policy", csp.replace("frame-ancestors 'none'", "frame-ancestors *"));
    } else {
      reply.header("content-security-policy", csp);
    }
    done(null, payload);
  });
}
