// The sign-in calls of SPEC.md §7 and the reset/logout/me calls behind the web app's screens.
// Each route: schemas, who may call it, the service call (auth-service.ts, service.ts).
import {
  LoginBodySchema,
  LoginResponseSchema,
  MeAnswerSchema,
  MessageAnswerSchema,
  RecoverBodySchema,
  ResetPasswordBodySchema,
} from "@lookout/schema";
import type { FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { clientIpResolver } from "../http/client-ip.js";
import { clearSessionCookies, isSecureRequest, setSessionCookies } from "../http/cookies.js";
import { sameOriginOnly } from "../http/origin.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createSessionService } from "./service.js";

/**
 * The address this request came to. Only an owner's first sign-in records it, as the address of
 * e-mailed links when LOOKOUT_PUBLIC_URL is unset; a recovery request's own Host is never used.
 */
function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

const CROSS_SITE = { 403: "A cross-site browser request (login CSRF), refused." } as const;

export function authRoutes(deps: AppDeps): Route[] {
  const { auth, config } = deps;
  const sessions = createSessionService(deps);
  // Login CSRF: a cross-site form must not sign the victim's browser into another account, nor
  // drive recovery and reset from a foreign page.
  const onRequest = sameOriginOnly(config.publicUrl);
  // The throttles count the address the collector sees: one resolver for both.
  const clientIp = clientIpResolver(config.trustedProxies);

  return [
    defineRoute({
      method: "POST",
      url: "/wp-json/custom/v1/login",
      summary: "Signs in with e-mail and password (SPEC.md §7); also sets the session and XSRF-TOKEN cookies.",
      tags: ["auth"],
      access: "none",
      onRequest,
      body: LoginBodySchema,
      answer: LoginResponseSchema,
      responses: { 401: "Wrong e-mail or password (the same answer for both).", 429: "Too many attempts.", ...CROSS_SITE },
      handle: async ({ body, req, reply }) => {
        const session = await auth.login({
          email: body.username,
          password: body.password,
          ip: clientIp(req),
          userAgent: req.headers["user-agent"] ?? "",
          ...(config.publicUrl ? {} : { origin: requestOrigin(req) }),
        });
        setSessionCookies(reply, session.token, session.expiresAt, isSecureRequest(req, config.cookieSecure));
        return { token: session.token, accountId: session.accountId, accountId2: session.accountId2, email: session.email };
      },
    }),
    defineRoute({
      method: "POST",
      url: "/wp-json/custom/v1/recover-password",
      summary: "E-mails a password reset link to a known address; answers the same for unknown ones.",
      tags: ["auth"],
      access: "none",
      onRequest,
      body: RecoverBodySchema,
      answer: MessageAnswerSchema,
      responses: { 429: "Too many requests.", ...CROSS_SITE },
      handle: async ({ body, req }) => {
        const outcome = await auth.recover({ email: body.user_email, ip: clientIp(req), publicUrl: config.publicUrl });
        if (outcome === "no_public_url") {
          req.log.warn(
            "password recovery: no reset link sent, because LOOKOUT_PUBLIC_URL is not set and the owner has not signed in yet " +
              "(links never use the request's Host header). Set LOOKOUT_PUBLIC_URL, or sign in once as the owner.",
          );
        }
        return { message: "If an account exists for that address, we have sent it a link to reset the password." };
      },
    }),
    defineRoute({
      method: "POST",
      url: "/api/auth/reset-password",
      summary: "Sets a new password with the token of an e-mailed reset link; signs out every session.",
      tags: ["auth"],
      access: "none",
      onRequest,
      body: ResetPasswordBodySchema,
      answer: MessageAnswerSchema,
      responses: CROSS_SITE,
      handle: async ({ body }) => {
        await auth.resetPassword(body);
        return { message: "Your password has been changed. You can now log in." };
      },
    }),
    defineRoute({
      method: "POST",
      url: "/api/auth/logout",
      summary: "Revokes the caller's session token, if any, and clears the session cookies.",
      tags: ["auth"],
      access: "optional",
      answer: NO_CONTENT,
      handle: async ({ actor, reply }) => {
        if (actor) await auth.logout(actor.token);
        clearSessionCookies(reply);
      },
    }),
    defineRoute({
      method: "GET",
      url: "/api/auth/me",
      summary: "The signed-in user and the accounts they belong to.",
      tags: ["auth"],
      access: "signed-in",
      answer: MeAnswerSchema,
      handle: ({ actor }) => sessions.me(actor.userId, actor.accountScope),
    }),
  ];
}
