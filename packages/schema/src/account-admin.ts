// Bodies and answers of the account's and the signed-in user's own settings (DESIGN.md §5): API
// keys, the account's name and deletion, the user's name, e-mail, password and sessions. The web
// app's forms validate with the same schemas (plus a repeat field for the new password).
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "./auth.js";
import { ACCOUNT_ID_RE, AccountIdSchema, text } from "./strings.js";

/** Ids of API keys and sessions: UUIDs from node:crypto, like account ids. */
export const RecordIdSchema = z.string().regex(ACCOUNT_ID_RE, "is not an id");

export const ACCOUNT_NAME_MAX = 100;

const NameSchema = text()
  .trim()
  .min(1, "Enter a name.")
  .max(ACCOUNT_NAME_MAX, `The name must be at most ${ACCOUNT_NAME_MAX} characters.`);

const NewPasswordSchema = text()
  .min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `The password must be at most ${PASSWORD_MAX} characters.`);

/** The password that proves it is the user: only bounded (argon2 work), its rules are the old ones. */
const CurrentPasswordSchema = text().min(1, "Enter your current password.").max(PASSWORD_MAX);

export const UserEmailSchema = text().trim().max(254).pipe(z.email("Enter a valid e-mail address."));

// --- API keys --------------------------------------------------------------------------------

/** GET /api/v1/api-keys?accountId= */
export const ApiKeyListQuerySchema = z.object({ accountId: AccountIdSchema });

/** POST /api/v1/api-keys */
export const ApiKeyCreateBodySchema = z.object({ accountId: AccountIdSchema, name: NameSchema });
export type ApiKeyCreateBody = z.infer<typeof ApiKeyCreateBodySchema>;

export const ApiKeyCreatorSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });

/** A live key as the account's list shows it: the first characters of the secret, never the secret. */
export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  account_id: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  creator: ApiKeyCreatorSchema,
});
export type ApiKey = z.infer<typeof ApiKeySchema>;
export const ApiKeyListAnswerSchema = z.array(ApiKeySchema);

/** The answer of POST: the only time `key` (the secret) is ever shown. */
export const ApiKeyCreatedSchema = ApiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

// --- The signed-in user ----------------------------------------------------------------------

/** PATCH /api/v1/me: a new name and/or e-mail; changing the e-mail needs the current password. */
export const MePatchBodySchema = z
  .object({
    name: text().trim().max(ACCOUNT_NAME_MAX, `The name must be at most ${ACCOUNT_NAME_MAX} characters.`).optional(),
    email: UserEmailSchema.optional(),
    current_password: CurrentPasswordSchema.optional(),
  })
  .refine((b) => b.name !== undefined || b.email !== undefined, { message: "name or email is required", path: ["name"] });
export type MePatchBody = z.infer<typeof MePatchBodySchema>;

export const UserProfileSchema = z.object({ id: z.string(), email: z.string(), name: z.string() });
export type UserProfile = z.infer<typeof UserProfileSchema>;

/** POST /api/v1/me/password */
export const PasswordChangeBodySchema = z.object({
  current_password: CurrentPasswordSchema,
  new_password: NewPasswordSchema,
});
export type PasswordChangeBody = z.infer<typeof PasswordChangeBodySchema>;

/** The web app's password form: the call's fields and the new password typed twice. */
export const PasswordChangeFormSchema = PasswordChangeBodySchema.extend({ repeat_password: z.string() }).refine(
  (f) => f.repeat_password === f.new_password,
  { message: "The two new passwords differ.", path: ["repeat_password"] },
);
export type PasswordChangeForm = z.infer<typeof PasswordChangeFormSchema>;

export const PasswordChangedSchema = z.object({
  message: z.string(),
  /** How many other sessions the change signed out. */
  revoked_sessions: z.number().int().nonnegative(),
});

/** GET /api/v1/me/sessions: one live sign-in of the user. */
export const UserSessionSchema = z.object({
  id: z.string(),
  /** The browser and system in plain words ("Chrome on macOS"), from the user agent. */
  device: z.string(),
  /** The address it signed in from ("" when unknown). */
  address: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSessionSchema>;
export const UserSessionListAnswerSchema = z.array(UserSessionSchema);

// --- The account -----------------------------------------------------------------------------

/** PATCH /api/v1/accounts/{accountId} */
export const AccountPatchBodySchema = z.object({ name: NameSchema });

/** DELETE /api/v1/accounts/{accountId}: the account's name, typed to confirm. */
export const AccountDeleteBodySchema = z.object({ confirm: text().max(ACCOUNT_NAME_MAX * 2) });

export const AccountInfoSchema = z.object({ id: z.string(), name: z.string(), created_at: z.string() });
export type AccountInfo = z.infer<typeof AccountInfoSchema>;

export const AccountParamsSchema = z.object({ accountId: AccountIdSchema });
