// Accepting an invitation (issue #20): signed in as the invited address, or by signing in or
// signing up with the invitation's token as proof of the address; then the membership, the last
// account and the audit entry. Composed by service.ts.
import type { InvitationAcceptAnswer, InvitationAcceptBody } from "@lookout/schema";
import { invitationState, type MetaStore } from "@lookout/storage";
import { hashPassword } from "../auth/passwords.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import type { TeamDeps } from "./service.js";

/** A signed-in session after accepting without one: the login answer's fields and the cookie's expiry. */
export interface AcceptOutcome {
  answer: InvitationAcceptAnswer;
  session?: { token: string; expiresAt: Date };
}

export function createInvitationAccept({ meta, auth, config }: Pick<TeamDeps, "meta" | "auth" | "config">) {
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
  };
}
