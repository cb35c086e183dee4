// Invitations (issue #20): by e-mail, bounded per inviter and per account, listed, revoked and
// resent, and the public /invite/{token} screen's preview. Invitation tokens are random, stored
// hashed (meta invitations repo), single use and valid 72 hours. Accepting one: invitation-accept.ts.
// Composed by service.ts.
import { INVITATION_TTL_HOURS, type Invitation, type InvitationPreview, type Role } from "@lookout/schema";
import { type InvitationRow, invitationState } from "@lookout/storage";
import { Throttle } from "../auth/throttle.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { authorizeInvite } from "../http/policy.js";
import type { Mailer } from "../mail/mailer.js";
import type { TeamDeps } from "./service.js";

export const INVITATION_TTL_MS = INVITATION_TTL_HOURS * 3_600_000;
/** Invitations are e-mails to strangers: bounded per inviter and per account (each address counts). */
export const INVITES_PER_INVITER = { limit: 50, windowMs: 3_600_000 } as const;
export const INVITES_PER_ACCOUNT = { limit: 100, windowMs: 3_600_000 } as const;

const iso = (d: Date) => d.toISOString();

export function createInvitationService({ meta, mailer, auth, config, shared, billing }: TeamDeps) {
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

  async function accountName(accountId: string): Promise<string> {
    const account = await meta.accounts.findById(accountId);
    // The policy let the caller in, so the account exists unless it was deleted meanwhile.
    if (!account) throw new DomainError("forbidden", "You do not have access to this account.");
    return account.name;
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

  return {
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
  };
}
