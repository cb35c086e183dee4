// The signed-in user's own calls: who they are and the accounts they belong to, with their role
// in each (GET /api/auth/me), their name and e-mail, password and sessions (/api/v1/me).
// Answers are parsed with the shared schemas.
import {
  type MeAnswer,
  MeAnswerSchema,
  type MePatchBody,
  type PasswordChangeBody,
  PasswordChangedSchema,
  type UserProfile,
  UserProfileSchema,
  type UserSession,
  UserSessionListAnswerSchema,
} from "@lookout/schema";
import { request } from "../../lib/http";

export async function getMe(signal?: AbortSignal): Promise<MeAnswer> {
  return MeAnswerSchema.parse(await request("GET", "/api/auth/me", { signal }));
}

export async function updateMe(change: MePatchBody): Promise<UserProfile> {
  return UserProfileSchema.parse(await request("PATCH", "/api/v1/me", { json: change }));
}

export async function changePassword(body: PasswordChangeBody): Promise<{ message: string; revoked_sessions: number }> {
  return PasswordChangedSchema.parse(await request("POST", "/api/v1/me/password", { json: body }));
}

export async function listSessions(signal?: AbortSignal): Promise<UserSession[]> {
  return UserSessionListAnswerSchema.parse(await request("GET", "/api/v1/me/sessions", { signal }));
}

export async function revokeSession(id: string): Promise<void> {
  await request("DELETE", `/api/v1/me/sessions/${encodeURIComponent(id)}`);
}
