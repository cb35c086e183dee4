// The sign-in calls of SPEC.md §7 and the reset/logout/me calls behind the web app's screens.
// Each handler: parse -> authorize -> service -> respond.
import { LoginBodySchema, RecoverBodySchema, ResetPasswordBodySchema } from "@lookout/schema";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { authenticate, identify } from "../http/authenticate.js";
import { clearSessionCookies, isSecureRequest, setSessionCookies } from "../http/cookies.js";
import { sameOriginOnly } from "../http/origin.js";

/**
 * The address this request came to. Only an owner's first sign-in records it, as the address of
 * e-mailed links when LOOKOUT_PUBLIC_URL is unset; a recovery request's own Host is never used.
 */
function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

export function registerAuthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { auth, meta, config } = deps;
  // Login CSRF: a cross-site form must not sign the victim's browser into another account, nor
  // drive recovery and reset from a foreign page.
  const onRequest = sameOriginOnly(config.publicUrl);

  app.post("/wp-json/custom/v1/login", { onRequest }, async (req, reply) => {
    const body = LoginBodySchema.parse(req.body);
    const session = await auth.login({
      email: body.username,
      password: body.password,
      ip: req.ip,
      userAgent: req.headers["user-agent"] ?? "",
      ...(config.publicUrl ? {} : { origin: requestOrigin(req) }),
    });
    setSessionCookies(reply, session.token, session.expiresAt, isSecureRequest(req, config.cookieSecure));
    return { token: session.token, accountId: session.accountId, accountId2: session.accountId2, email: session.email };
  });

  app.post("/wp-json/custom/v1/recover-password", { onRequest }, async (req) => {
    const body = RecoverBodySchema.parse(req.body);
    const outcome = await auth.recover({ email: body.user_email, ip: req.ip, publicUrl: config.publicUrl });
    if (outcome === "no_public_url") {
      req.log.warn(
        "password recovery: no reset link sent, because LOOKOUT_PUBLIC_URL is not set and the owner has not signed in yet " +
          "(links never use the request's Host header). Set LOOKOUT_PUBLIC_URL, or sign in once as the owner.",
      );
    }
    return { message: "If an account exists for that address, we have sent it a link to reset the password." };
  });

  app.post("/api/auth/reset-password", { onRequest }, async (req) => {
    const body = ResetPasswordBodySchema.parse(req.body);
    await auth.resetPassword(body);
    return { message: "Your password has been changed. You can now log in." };
  });

  app.post("/api/auth/logout", async (req, reply) => {
    const actor = await identify(meta, req);
    if (actor) await auth.logout(actor.token);
    clearSessionCookies(reply);
    return reply.code(204).send();
  });

  app.get("/api/auth/me", async (req) => {
    const actor = await authenticate(meta, req);
    const user = await meta.users.findById(actor.userId);
    const accounts = await meta.accounts.listForUser(actor.userId);
    return { user: { id: actor.userId, email: user?.email ?? "", name: user?.name ?? "" }, accounts };
  });
}
