// The signed-in user's own settings (DESIGN.md §5 "me"): profile, password and sessions. Each
// route: schemas, a session of the user (never an API key), the service call (service.ts).
// GET /api/auth/me, who the user is and their accounts, stays with the auth routes.
import {
  MePatchBodySchema,
  PasswordChangeBodySchema,
  PasswordChangedSchema,
  RecordIdSchema,
  UserProfileSchema,
  UserSessionListAnswerSchema,
} from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createMeService } from "./service.js";
import { requireSession } from "./session-only.js";

const TAGS = ["me"] as const;
const KEY_REFUSED = { 403: "Called with an API key: these calls need the user's own session." } as const;

export function meRoutes(deps: AppDeps): Route[] {
  const me = createMeService(deps);
  return [
    defineRoute({
      method: "PATCH",
      url: "/api/v1/me",
      summary: "Changes the signed-in user's name and/or e-mail (a new e-mail needs current_password).",
      tags: TAGS,
      access: "signed-in",
      body: MePatchBodySchema,
      answer: UserProfileSchema,
      responses: { 409: "Another user has this e-mail address.", 429: "Too many wrong passwords.", ...KEY_REFUSED },
      handle: ({ actor, body }) => {
        requireSession(actor);
        return me.update(actor, body);
      },
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/me/password",
      summary: "Changes the password (needs the current one) and signs out every other session.",
      tags: TAGS,
      access: "signed-in",
      body: PasswordChangeBodySchema,
      answer: PasswordChangedSchema,
      responses: { 429: "Too many wrong passwords.", ...KEY_REFUSED },
      handle: async ({ actor, body }) => {
        requireSession(actor);
        const { revoked } = await me.changePassword(actor, body);
        return {
          message: "Your password has been changed. Your other sessions have been signed out.",
          revoked_sessions: revoked,
        };
      },
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/me/sessions",
      summary: "The signed-in user's live sessions: device, address, last seen, and which is this one.",
      tags: TAGS,
      access: "signed-in",
      answer: UserSessionListAnswerSchema,
      responses: KEY_REFUSED,
      handle: ({ actor }) => {
        requireSession(actor);
        return me.sessions(actor);
      },
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/me/sessions/:id",
      summary: "Signs out one of the user's own sessions (another user's id answers 404).",
      tags: TAGS,
      access: "signed-in",
      params: z.object({ id: RecordIdSchema.describe("The session's id.") }),
      answer: NO_CONTENT,
      responses: { 404: "No such session of this user.", ...KEY_REFUSED },
      handle: async ({ actor, params }) => {
        requireSession(actor);
        await me.revokeSession(actor, params.id);
      },
    }),
  ];
}
