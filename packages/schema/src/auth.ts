// Bodies and answers of the sign-in calls of SPEC.md §7 (and the reset screen behind the e-mailed link).
import { z } from "zod";
import { AccountIdSchema, text } from "./strings.js";

/** argon2 work is bounded: longer passwords are refused before hashing. */
export const PASSWORD_MAX = 256;
export const PASSWORD_MIN = 10;

export const LoginBodySchema = z.object({
  username: text().trim().min(1, "username is required").max(320),
  password: text().min(1, "password is required").max(PASSWORD_MAX),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/**
 * accountId is the account (workspace) the session opens in; accountId2 is the signed-in
 * user's own id, stored by the client under the spec's `accountId2` key.
 */
export const LoginResponseSchema = z.object({
  token: z.string(),
  accountId: z.string(),
  accountId2: z.string(),
  email: z.string(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RecoverBodySchema = z.object({
  user_email: text().trim().min(1, "user_email is required").max(320),
});
export type RecoverBody = z.infer<typeof RecoverBodySchema>;

export const ResetPasswordBodySchema = z.object({
  token: text().min(16).max(200),
  password: text()
    .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

export const GetPropertiesBodySchema = z.object({
  accountId: AccountIdSchema,
});

export const RoleSchema = z.enum(["owner", "admin", "editor", "viewer"]);
export type Role = z.infer<typeof RoleSchema>;
