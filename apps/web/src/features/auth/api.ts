// The sign-in calls of SPEC.md §7 and the reset call behind the e-mailed link.
import { type LoginResponse, LoginResponseSchema } from "@lookout/schema";
import { HttpError, request } from "../../lib/http";

export async function logIn(username: string, password: string): Promise<LoginResponse> {
  const data = await request("POST", "/wp-json/custom/v1/login", { json: { username, password } });
  const parsed = LoginResponseSchema.safeParse(data);
  // A 200 without a token cannot sign anyone in; report it like any other failed login.
  if (!parsed.success) throw new HttpError(200, null, "bad_response");
  return parsed.data;
}

/** The answer's content is not read (SPEC.md §7); success alone decides the banner. */
export async function recoverPassword(userEmail: string): Promise<void> {
  await request("POST", "/wp-json/custom/v1/recover-password", { json: { user_email: userEmail } });
}

export async function resetPassword(token: string, password: string): Promise<string | null> {
  const data = await request("POST", "/api/auth/reset-password", { json: { token, password } });
  const message = data && typeof data === "object" ? (data as Record<string, unknown>).message : undefined;
  return typeof message === "string" ? message : null;
}
