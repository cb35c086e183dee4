// The Team contract (DESIGN.md §5 "members", "accounts"; issue #20): members and their roles,
// invitations and their public link, the user's several accounts and the account's activity from
// the audit log. The server validates with these and the web app's forms and queries share them.
import { z } from "zod";
import { ACCOUNT_NAME_MAX, UserEmailSchema } from "./account-admin.js";
import { PASSWORD_MAX, PASSWORD_MIN, RoleSchema } from "./auth.js";
import { ACCOUNT_ID_RE, AccountIdSchema, text } from "./strings.js";

/** How long an invitation link is valid. */
export const INVITATION_TTL_HOURS = 72;
/** The most addresses one POST may invite at once. */
export const INVITATION_BATCH_MAX = 20;
/** An invitation token: base64url of 32 random bytes (43 characters); bounded before any lookup. */
export const InvitationTokenSchema = text().min(20, "is not an invitation token").max(200, "is not an invitation token");

const UserIdSchema = z.string().trim().max(64).regex(ACCOUNT_ID_RE, "is not a user id");
const InvitationIdSchema = z.string().trim().max(64).regex(ACCOUNT_ID_RE, "is not an invitation id");

const PersonNameSchema = text()
  .trim()
  .min(1, "Enter your name.")
  .max(ACCOUNT_NAME_MAX, `The name must be at most ${ACCOUNT_NAME_MAX} characters.`);

// --- Members ---------------------------------------------------------------------------------

/** Who did something (an inviter, the actor of an activity); null fields when the user is gone. */
export const PersonSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type Person = z.infer<typeof PersonSchema>;

/** GET /api/v1/accounts/{accountId}/members: one member of the account. */
export const MemberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  joined_at: z.string(),
  /** The last time one of the member's sessions was used (null: never signed in since). */
  last_active_at: z.string().nullable(),
});
export type Member = z.infer<typeof MemberSchema>;
export const MemberListAnswerSchema = z.array(MemberSchema);

export const MemberParamsSchema = z.object({ accountId: AccountIdSchema, userId: UserIdSchema });

/** PATCH /api/v1/accounts/{accountId}/members/{userId} */
export const MemberRoleBodySchema = z.object({ role: RoleSchema });
export type MemberRoleBody = z.infer<typeof MemberRoleBodySchema>;

/** POST /api/v1/accounts/{accountId}/transfer-ownership: the member who becomes an owner; the caller becomes an admin. */
export const TransferOwnershipBodySchema = z.object({ user_id: UserIdSchema });
export type TransferOwnershipBody = z.infer<typeof TransferOwnershipBodySchema>;

// --- Invitations -----------------------------------------------------------------------------

/** POST /api/v1/accounts/{accountId}/invitations: one address, or a list of them, with one role. */
export const InvitationCreateBodySchema = z.union([
  z.object({ email: UserEmailSchema, role: RoleSchema }),
  z.object({
    emails: z
      .array(UserEmailSchema)
      .min(1, "Enter at least one e-mail address.")
      .max(INVITATION_BATCH_MAX, `At most ${INVITATION_BATCH_MAX} addresses at once.`),
    role: RoleSchema,
  }),
]);
export type InvitationCreateBody = z.infer<typeof InvitationCreateBodySchema>;

/** A pending invitation as the account's list shows it (never its token). */
export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: RoleSchema,
  /** Null when the inviting user no longer exists. */
  invited_by: PersonSchema.nullable(),
  expires_at: z.string(),
  created_at: z.string(),
  /** Pending invitations only are listed; an expired one can be resent. */
  expired: z.boolean(),
});
export type Invitation = z.infer<typeof InvitationSchema>;
export const InvitationListAnswerSchema = z.array(InvitationSchema);

export const InvitationParamsSchema = z.object({ accountId: AccountIdSchema, invitationId: InvitationIdSchema });
export const InvitationTokenParamsSchema = z.object({ token: InvitationTokenSchema });

export const InvitationStateSchema = z.enum(["valid", "expired", "used", "revoked"]);
export type InvitationState = z.infer<typeof InvitationStateSchema>;

/** GET /api/v1/invitations/{token} (public): what the /invite/{token} screen shows. */
export const InvitationPreviewSchema = z.object({
  account_name: z.string(),
  inviter_name: z.string(),
  role: RoleSchema,
  email: z.string(),
  state: InvitationStateSchema,
  expires_at: z.string(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

/**
 * POST /api/v1/invitations/accept. Signed in: only `token` (the user must be the invited e-mail).
 * Not signed in: `name` and `password` create the user (or, for an address that has an account,
 * the password signs it in) and join.
 */
export const InvitationAcceptBodySchema = z.object({
  token: InvitationTokenSchema,
  name: PersonNameSchema.optional(),
  password: text()
    .min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters.`)
    .max(PASSWORD_MAX, `The password must be at most ${PASSWORD_MAX} characters.`)
    .optional(),
});
export type InvitationAcceptBody = z.infer<typeof InvitationAcceptBodySchema>;

/**
 * The answer of accept: the joined account and role. When the call signed the user in (no session
 * before), also the login answer's fields (`token`, `accountId2`, `email`; the session cookie is set
 * like /api/auth/login sets it), so the web app stores them as after a login.
 */
export const InvitationAcceptAnswerSchema = z.object({
  accountId: z.string(),
  account_name: z.string(),
  role: RoleSchema,
  token: z.string().optional(),
  accountId2: z.string().optional(),
  email: z.string().optional(),
});
export type InvitationAcceptAnswer = z.infer<typeof InvitationAcceptAnswerSchema>;

// --- Accounts of the user --------------------------------------------------------------------

/** GET /api/v1/accounts: the signed-in user's accounts with their role in each. */
export const AccountListItemSchema = z.object({ id: z.string(), name: z.string(), role: RoleSchema });
export type AccountListItem = z.infer<typeof AccountListItemSchema>;
export const AccountListAnswerSchema = z.array(AccountListItemSchema);

/** POST /api/v1/accounts: a new account, the caller its owner. */
export const AccountCreateBodySchema = z.object({
  name: text().trim().min(1, "Enter a name.").max(ACCOUNT_NAME_MAX, `The name must be at most ${ACCOUNT_NAME_MAX} characters.`),
});
export type AccountCreateBody = z.infer<typeof AccountCreateBodySchema>;

// --- Activity --------------------------------------------------------------------------------

/** GET /api/v1/accounts/{accountId}/activity?cursor= */
export const ActivityQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^[0-9]{1,18}$/, "is not a cursor")
    .optional(),
});

/** One entry of the account's audit log. */
export const ActivityItemSchema = z.object({
  id: z.string(),
  /** A dotted action name: member.role_change, member.remove, member.leave, invitation.create, … */
  action: z.string(),
  created_at: z.string(),
  /** Who did it (null: the system, or a user since deleted). */
  actor: PersonSchema.nullable(),
  /** The entry in plain words ("changed ana@example.com's role to admin"); render as text. */
  description: z.string(),
});
export type ActivityItem = z.infer<typeof ActivityItemSchema>;

export const ActivityPageSchema = z.object({
  results: z.array(ActivityItemSchema),
  /** Pass as ?cursor= for the older entries; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof ActivityPageSchema>;
