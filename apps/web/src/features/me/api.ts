// The signed-in user's own calls: who they are and the accounts they belong to, with their role
// in each (GET /api/auth/me). Answers are parsed with the shared schemas.
import { type MeAnswer, MeAnswerSchema } from "@lookout/schema";
import { request } from "../../lib/http";

export async function getMe(signal?: AbortSignal): Promise<MeAnswer> {
  return MeAnswerSchema.parse(await request("GET", "/api/auth/me", { signal }));
}
