// The Team domain (issue #20): an account's members and their roles (members.ts), invitations by
// e-mail and their public link (invitations.ts, invitation-accept.ts), transfer of ownership, the
// user's several accounts and the account's activity (accounts.ts). This file composes them into
// the one service the routes use. The one policy (http/policy.ts) decides member-on-member rules;
// the repos keep the "at least one owner" rule atomic. Every change is audited.
import type { MetaStore, SharedState } from "@lookout/storage";
import type { AuthService } from "../auth/auth-service.js";
import type { Config } from "../config/config.js";
import type { Mailer } from "../mail/mailer.js";
import { createAccountService } from "./accounts.js";
import { createInvitationAccept } from "./invitation-accept.js";
import { createInvitationService } from "./invitations.js";
import { createMemberService } from "./members.js";

export type { AcceptOutcome } from "./invitation-accept.js";
export { INVITATION_TTL_MS, INVITES_PER_ACCOUNT, INVITES_PER_INVITER } from "./invitations.js";

export interface TeamDeps {
  meta: MetaStore;
  mailer: Mailer;
  auth: AuthService;
  config: Config;
  shared: SharedState;
  /** The plan's member limit (billing/service.ts); none: unlimited. */
  billing?: { assertCanAddMembers(accountId: string, adding: number): Promise<void> };
}

export function createTeamService(deps: TeamDeps) {
  return {
    ...createMemberService(deps.meta),
    ...createInvitationService(deps),
    ...createInvitationAccept(deps),
    ...createAccountService(deps.meta),
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
