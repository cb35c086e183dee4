// The Team domain (issue #20): an account's members and their roles, invitations by e-mail and
// their public link, transfer of ownership, the user's several accounts and the account's
// activity. The one policy (http/policy.ts) decides member-on-member rules; the repos keep the
// "at least one owner" rule atomic. Every change is audited. Invitation tokens are random,
// stored hashed (meta invitations repo), single use and valid 72 hours.
import {
  type AccountListItem,
  type ActivityPage,
  INVITATION_TTL_HOURS,
  type Invitation,
  type InvitationAcceptAnswer,
  type InvitationAcceptBody,
  type InvitationPreview,
  type Member,
  type Role,
} from "@lookout/schema";
import {
  type InvitationRow,
  invitationState,
  type MemberChange,
  type MemberRow,
  type MetaStore,
  type SharedState,
} from "@lookout/storage";
import type { AuthService } from "../auth/auth-service.js";
import { hashPassword } from "../auth/passwords.js";
import { Throttle } from "../auth/throttle.js";
import type { Config } from "../config/config.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { authorizeInvite, authorizeMemberChange } from "../http/policy.js";
import type { Mailer } from "../mail/mailer.js";
import { describeActivity } from "./activity.js";

export const INVITATION_TTL_MS = INVITATION_TTL_HOURS * 3_600_000;
/** Invitations are e-mails to strangers: bounded per inviter and per account (each address counts). */
export const INVITES_PER_INVITER = { limit: 50, windowMs: 3_600_000 } as const;
export const INVITES_PER_ACCOUNT = { limit: 100, windowMs: 3_600_000 } as const;
const ACTIVITY_PAGE = 25;

export interface TeamDeps {
  meta: MetaStore;
  mailer: Mailer;
  auth: AuthService;
  config: Config;
  shared: SharedState;
  /** The plan's member limit (billing/service.ts); none: unlimited. */
  billing?: { assertCanAddMembers(accountId: string, adding: number): Promise<void> };
}

/** A signed-in session after accepting without one: the login answer's fields and the cookie's expiry. */
export interface AcceptOutcome {
  answer: InvitationAcceptAnswer;
  session?: { token: string; expiresAt: Date };
}

const iso = (d: Date) => d.toISOString();

function toMember(m: MemberRow): Member {
  return {
    user_id: m.user_id,
    email: m.email,
    name: m.name,
    role: m.role,
    joined_at: iso(m.joined_at),
    last_active_at: m.last_active_at ? iso(m.last_active_at) : null,
  };
}

function changeRefused(result: MemberChange): never {
  if (result === "last_owner") {
    throw new DomainError(
      "last_owner",
      "An account must keep at least one owner. Make another member an owner first, or transfer ownership.",
    );
  }
  throw new DomainError("not_found", "No such member in this account.");
}

export function createTeamService({ meta, mailer, auth, config, shared, billing }: TeamDeps) {
  const byInviter = new Throttle(shared, "invite:inviter", INVITES_PER_INVITER);
  const byAccount = new Throttle(shared, "invite:account", INVITES_PER_ACCOUNT);

  /** Counts `n` invitations against the inviter's and the account's windows, or refuses them all. */
  async function throttleInvites(inviterId: string, accountId: string, n: number): Promise<void> {
    for (const [t, rule, key] of [
      [byInviter, INVITES_PER_INVITER, inviterId],
      [byAccount, INVITES_PER_ACCOUNT, accountId],
    ] as const) {
      if ((await t.count(key)) + n > rule.limit) {
        throw new DomainError("rate_limited", "Too many invitations. Please try again later.", undefined, rule.windowMs);
      }
    }
    for (let i = 0; i < n; i++) {
      await byInviter.hit(inviterId);
      await byAccount.hit(accountId);
    }
  }

  async function leave(actor: Actor, accountId: string): Promise<void> {
    const result = await meta.members.remove(accountId, actor.userId);
    if (result !== "ok") changeRefused(result);
    await meta.audit.record({ action: "member.leave", userId: actor.userId, accountId });
  }

  async function listMembers(accountId: string): Promise<Member[]> {
    return (await meta.members.list(accountId)).map(toMember);
  }

  async function accountName(accountId: string): Promise<string> {
    const account = await meta.accounts.findById(accountId);
    // The policy let the caller in, so the account exists unless it was deleted meanwhile.
    if (!account) throw new DomainError("forbidden", "You do not have access to this account.");
    return account.name;
  }

  async function memberOf(accountId: string, userId: string): Promise<MemberRow> {
    const m = await meta.members.find(accountId, userId);
    if (!m) throw new DomainError("not_found", "No such member in this account.");
    return m;
  }

  async function toInvitation(row: InvitationRow, now = new Date()): Promise<Invitation> {
    const inviter = await meta.users.findById(row.invited_by);
    return {
      id: row.id,
      email: row.email || row.email_norm,
      role: row.role,
      invited_by: inviter ? { id: inviter.id, name: inviter.name, email: inviter.email } : null,
      expires_at: iso(row.expires_at),
      created_at: iso(row.created_at),
      expired: row.expires_at.getTime() <= now.getTime(),
    };
  }

  async function sendInvitation(input: { to: string; token: string; account: string; inviter: string; role: Role }) {
    const base = await auth.linkBase(config.publicUrl);
    if (!base) {
      throw new DomainError(
        "public_url_missing",
        "Invitation links need the server's address: set LOOKOUT_PUBLIC_URL, or sign in once as the owner.",
      );
    }
    const link = `${base}/invite/${encodeURIComponent(input.token)}`;
    await mailSafely(input.to, {
      to: input.to,
      subject: `${input.inviter} invited you to ${input.account} on Lookout`,
      text:
        `${input.inviter} invited you to join "${input.account}" on Lookout as ${input.role === "admin" ? "an" : "a"} ${input.role}.\n\n` +
        `Open this link within ${INVITATION_TTL_HOURS} hours to accept:\n${link}\n\n` +
        `The link works once. If you did not expect this invitation, ignore this e-mail.\n`,
    });
  }

  /** Sends, or answers 502 saying the mail server failed (not a 500: the request was fine). */
  async function mailSafely(to: string, mail: Parameters<Mailer["send"]>[0]): Promise<void> {
    try {
      await mailer.send(mail);
    } catch {
      throw new DomainError("mail_failed", `The invitation e-mail to ${to} could not be sent. Please try again later.`);
    }
  }

  async function inviterName(actor: Actor): Promise<string> {
    const u = await meta.users.findById(actor.userId);
    return u?.name || u?.email || "A Lookout user";
  }

  /** The invitation a token names, or the plain reason it cannot be used. */
  async function usable(token: string) {
    const found = await meta.invitations.findByToken(token);
    if (!found)
      throw new DomainError("invitation_not_found", "This invitation link is not valid. Check that you copied all of it.");
    const state = invitationState(found.invitation);
    if (state !== "valid") throw stateError(state);
    return found;
  }

  function stateError(state: "expired" | "used" | "revoked" | "valid"): DomainError {
    switch (state) {
      case "expired":
        return new DomainError(
          "invitation_expired",
          "This invitation has expired. Ask the person who invited you to send a new one.",
        );
      case "used":
        return new DomainError("invitation_used", "This invitation has already been used. Sign in to open the account.");
      default:
        return new DomainError(
          "invitation_revoked",
          "This invitation was withdrawn. Ask the person who invited you for a new one.",
        );
    }
  }

  return {
    // --- members -------------------------------------------------------------------------------

    listMembers,
    leave,

    async changeRole(actor: Actor, actorRole: Role, accountId: string, userId: string, role: Role): Promise<Member> {
      const target = await memberOf(accountId, userId);
      authorizeMemberChange(actor, actorRole, { userId, role: target.role }, role);
      if (target.role !== role) {
        const result = await meta.members.changeRole(accountId, userId, role);
        if (result !== "ok") changeRefused(result);
        await meta.audit.record({
          action: "member.role_change",
          userId: actor.userId,
          accountId,
          detail: { member_id: userId, email: target.email, from: target.role, to: role },
        });
      }
      return toMember({ ...target, role });
    },

    async removeMember(actor: Actor, actorRole: Role, accountId: string, userId: string): Promise<void> {
      if (userId === actor.userId) return leave(actor, accountId);
      const target = await memberOf(accountId, userId);
      authorizeMemberChange(actor, actorRole, { userId, role: target.role }, null);
      const result = await meta.members.remove(accountId, userId);
      if (result !== "ok") changeRefused(result);
      // Their sockets for this account close at the next membership recheck (live/socket.ts, ≤ 2.5 s).
      await meta.audit.record({
        action: "member.remove",
        userId: actor.userId,
        accountId,
        detail: { member_id: userId, email: target.email, role: target.role },
      });
    },

    async transferOwnership(actor: Actor, accountId: string, toUserId: string): Promise<Member[]> {
      if (toUserId === actor.userId) {
        throw new DomainError("forbidden", "You are an owner already. Choose another member to transfer ownership to.");
      }
      const target = await memberOf(accountId, toUserId);
      const result = await meta.members.transferOwnership(accountId, actor.userId, toUserId);
      if (result !== "ok") changeRefused(result);
      await meta.audit.record({
        action: "account.transfer_ownership",
        userId: actor.userId,
        accountId,
        detail: { member_id: toUserId, email: target.email, from: target.role },
      });
      return listMembers(accountId);
    },

    // --- invitations ---------------------------------------------------------------------------

    async invite(actor: Actor, actorRole: Role, accountId: string, emails: string[], role: Role): Promise<Invitation[]> {
      authorizeInvite(actorRole, role);
      const unique = [...new Map(emails.map((e) => [e.trim().toLowerCase(), e.trim()])).values()];
      // Members already in the account need no invitation (the list says why nothing was sent).
      const members = new Set((await meta.members.list(accountId)).map((m) => m.email.toLowerCase()));
      const wanted = unique.filter((e) => !members.has(e.toLowerCase()));
      if (wanted.length === 0) {
        throw new DomainError("invalid_parameter", "Everyone on the list is a member of this account already.", [
          { path: "email", message: "is a member already" },
        ]);
      }
      // The plan's member limit counts members and pending invitations (a renewed one is not new).
      const pending = new Set(
        (await meta.invitations.listPending(accountId)).map((i) => (i.email || i.email_norm).toLowerCase()),
      );
      await billing?.assertCanAddMembers(accountId, wanted.filter((e) => !pending.has(e.toLowerCase())).length);
      // Every address counts before anything is sent; a refused batch sends nothing.
      await throttleInvites(actor.userId, accountId, wanted.length);
      const account = await accountName(accountId);
      const inviter = await inviterName(actor);
      const out: Invitation[] = [];
      for (const email of wanted) {
        const { row, token } = await meta.invitations.create({
          accountId,
          email,
          role,
          invitedBy: actor.userId,
          ttlMs: INVITATION_TTL_MS,
        });
        try {
          await sendInvitation({ to: email, token, account, inviter, role });
        } catch (err) {
          // A link nobody received must not stay pending.
          await meta.invitations.revoke(accountId, row.id);
          throw err;
        }
        await meta.audit.record({
          action: "invitation.create",
          userId: actor.userId,
          accountId,
          detail: { invitation_id: row.id, email, role },
        });
        out.push(await toInvitation(row));
      }
      return out;
    },

    async listInvitations(accountId: string): Promise<Invitation[]> {
      const now = new Date();
      return Promise.all((await meta.invitations.listPending(accountId)).map((r) => toInvitation(r, now)));
    },

    async revokeInvitation(actor: Actor, actorRole: Role, accountId: string, id: string): Promise<void> {
      const row = await meta.invitations.findPending(accountId, id);
      if (!row) throw new DomainError("not_found", "No such pending invitation in this account.");
      authorizeInvite(actorRole, row.role);
      await meta.invitations.revoke(accountId, id);
      await meta.audit.record({
        action: "invitation.revoke",
        userId: actor.userId,
        accountId,
        detail: { invitation_id: id, email: row.email || row.email_norm, role: row.role },
      });
    },

    async resendInvitation(actor: Actor, actorRole: Role, accountId: string, id: string): Promise<Invitation> {
      const pending = await meta.invitations.findPending(accountId, id);
      if (!pending) throw new DomainError("not_found", "No such pending invitation in this account.");
      authorizeInvite(actorRole, pending.role);
      await throttleInvites(actor.userId, accountId, 1);
      const renewed = await meta.invitations.renew(accountId, id, INVITATION_TTL_MS);
      if (!renewed) throw new DomainError("not_found", "No such pending invitation in this account.");
      const email = renewed.row.email || renewed.row.email_norm;
      await sendInvitation({
        to: email,
        token: renewed.token,
        account: await accountName(accountId),
        inviter: await inviterName(actor),
        role: renewed.row.role,
      });
      await meta.audit.record({
        action: "invitation.resend",
        userId: actor.userId,
        accountId,
        detail: { invitation_id: id, email, role: renewed.row.role },
      });
      return toInvitation(renewed.row);
    },

    /** What the public /invite/{token} screen shows; 404 for a token that names nothing. */
    async preview(token: string): Promise<InvitationPreview> {
      const found = await meta.invitations.findByToken(token);
      if (!found)
        throw new DomainError("invitation_not_found", "This invitation link is not valid. Check that you copied all of it.");
      const { invitation } = found;
      return {
        account_name: found.accountName,
        inviter_name: found.inviterName || found.inviterEmail || "",
        role: invitation.role,
        email: invitation.email || invitation.email_norm,
        state: invitationState(invitation),
        expires_at: iso(invitation.expires_at),
      };
    },

    /**
     * Accepts an invitation. Signed in: the session's user must be the invited address. Not signed
     * in: a name and password create the user, or, when the address has an account, the password
     * signs it in (the same checks and throttles as /login, and the same answer for a wrong
     * password); the invitation's token proves the address either way. Only the token's holder
     * can learn whether the address has an account.
     */
    async accept(
      actor: Actor | null,
      body: InvitationAcceptBody,
      client: { ip: string; userAgent: string },
    ): Promise<AcceptOutcome> {
      const found = await usable(body.token);
      const inv = found.invitation;
      const invited = inv.email || inv.email_norm;
      let userId: string;
      let session: AcceptOutcome["session"];
      if (actor) {
        if (actor.via !== "cookie" && actor.via !== "bearer") {
          throw new DomainError("forbidden", "Accept an invitation with a signed-in session, not an API key.");
        }
        const user = await meta.users.findById(actor.userId);
        if (!user || user.email_norm !== inv.email_norm) {
          throw new DomainError(
            "invitation_email_mismatch",
            `This invitation is for ${invited}. Sign out, then sign in as ${invited} to accept it.`,
          );
        }
        userId = user.id;
      } else {
        if (body.password === undefined) {
          throw new DomainError(
            "invitation_sign_in_required",
            `Sign in as ${invited} to accept this invitation, or choose a name and password.`,
          );
        }
        const existing = await meta.users.findByEmail(inv.email_norm);
        if (existing) {
          // Throws invalid_credentials (the login's own answer) on a wrong password, throttled.
          const signed = await auth.login({ email: inv.email_norm, password: body.password, ...client });
          userId = signed.accountId2;
          session = { token: signed.token, expiresAt: signed.expiresAt };
        } else {
          if (body.name === undefined) {
            throw new DomainError("invalid_parameter", "Enter your name.", [{ path: "name", message: "Enter your name." }]);
          }
          let user: Awaited<ReturnType<MetaStore["users"]["create"]>>;
          try {
            user = await meta.users.create({ email: invited, name: body.name, passwordHash: await hashPassword(body.password) });
          } catch (err) {
            // unique_violation: the address signed up meanwhile (another accept of a racing link).
            if ((err as { code?: unknown }).code === "23505") throw stateError("used");
            throw err;
          }
          userId = user.id;
          await meta.audit.record({ action: "user.signup", userId, accountId: inv.account_id, detail: { via: "invitation" } });
          const issued = await meta.tokens.issue(userId, config.sessionTtlMs, client.userAgent, new Date(), client.ip);
          session = { token: issued.token, expiresAt: issued.expiresAt };
        }
      }
      if (!(await meta.invitations.consume(inv.id, userId))) {
        // Another accept, a revocation or the expiry came first: say which.
        const again = await meta.invitations.findByToken(body.token);
        throw stateError(again ? invitationState(again.invitation) : "revoked");
      }
      await meta.members.join(inv.account_id, userId, inv.role);
      await meta.members.setLastAccount(userId, inv.account_id);
      const role = (await meta.accounts.roleOf(userId, inv.account_id)) ?? inv.role;
      await meta.audit.record({
        action: "invitation.accept",
        userId,
        accountId: inv.account_id,
        detail: { invitation_id: inv.id, email: invited, role },
      });
      const user = await meta.users.findById(userId);
      return {
        answer: {
          accountId: inv.account_id,
          account_name: found.accountName,
          role,
          ...(session ? { token: session.token, accountId2: userId, email: user?.email ?? invited } : {}),
        },
        ...(session ? { session } : {}),
      };
    },

    // --- the user's accounts -------------------------------------------------------------------

    async listAccounts(actor: Actor): Promise<AccountListItem[]> {
      const all = await meta.accounts.listForUser(actor.userId);
      // An API key sees its one account and nothing else.
      return actor.accountScope === undefined ? all : all.filter((a) => a.id === actor.accountScope);
    },

    async createAccount(actor: Actor, name: string): Promise<AccountListItem> {
      if (actor.via === "api_key") throw new DomainError("forbidden", "An API key cannot create accounts.");
      const account = await meta.accounts.createWithOwner(actor.userId, name);
      await meta.members.setLastAccount(actor.userId, account.id);
      await meta.audit.record({ action: "account.create", userId: actor.userId, accountId: account.id, detail: { name } });
      return { id: account.id, name: account.name, role: "owner" };
    },

    async switchAccount(actor: Actor, accountId: string): Promise<void> {
      await meta.members.setLastAccount(actor.userId, accountId);
    },

    // --- activity ------------------------------------------------------------------------------

    async activity(accountId: string, cursor: string | undefined): Promise<ActivityPage> {
      const rows = await meta.audit.listForAccount(accountId, {
        ...(cursor !== undefined ? { before: Number(cursor) } : {}),
        limit: ACTIVITY_PAGE + 1,
      });
      const page = rows.slice(0, ACTIVITY_PAGE);
      const last = page.at(-1);
      return {
        results: page.map((r) => ({
          id: String(r.id),
          action: r.action,
          created_at: iso(r.created_at),
          actor: r.user_id && r.user_email !== null ? { id: r.user_id, name: r.user_name ?? "", email: r.user_email } : null,
          description: describeActivity(r.action, r.detail),
        })),
        next_cursor: rows.length > ACTIVITY_PAGE && last ? String(last.id) : null,
      };
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
