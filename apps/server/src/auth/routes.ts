// The sign-in calls of SPEC.md §7 and the reset/logout/me calls behind the web app's screens.
// Each handler: parse -> authorize -> service -> respond.
import { LoginBodySchema, RecoverBodySchema, ResetPasswordBodySchema } from "@lookout/schema";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { authenticate, identify } from "../http/authenticate.js";
import { clearSessionCookies, isSecureRequest, setSessionCookies } from "../http/cookies.js";

function baseUrl(req: FastifyRequest, configured: string | undefined): string {
  return configured ?? `${req.protocol}://${req.host}`;
}

export function registerAuthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { auth, meta, config } = deps;

  app.post("/wp-json/custom/v1/login", async (req, reply) => {
    const body = LoginBodySchema.parse(req.body);
    const session = await auth.login({
      email: body.username,
      password: body.password,
      ip: req.ip,
      userAgent: req.headers["user-agent"] ?? "",
    });
    setSessionCookies(reply, session.token, session.expiresAt, isSecureRequest(req, config.cookieSecure));
    return { token: session.token, accountId: session.accountId, accountId2: session.accountId2, email: session.email };
  });

  app.post("/wp-json/custom/v1/recover-password", async (req) => {
    const body = RecoverBodySchema.parse(req.body);
    await auth.recover({ email: body.user_email, ip: req.ip, baseUrl: baseUrl(req, config.publicUrl) });
    return { message: "If an account exists for that address, we have sent it a link to reset the password." };
  });

  app.post("/api/auth/reset-password", async (req) => {
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
