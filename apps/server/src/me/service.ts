// The signed-in user's own settings: name, e-mail (with the current password), password (with the
// current one; signs out the other sessions) and the list of sessions with revocation. Checks of
// the current password are throttled per user like sign-ins, and each change is audited.
import type { MePatchBody, PasswordChangeBody, UserProfile, UserSession } from "@lookout/schema";
import { type MetaStore, normaliseEmail, type SharedState } from "@lookout/storage";
import { hashPassword, verifyPassword } from "../auth/passwords.js";
import { Throttle } from "../auth/throttle.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { describeDevice } from "./device.js";

/** As many wrong current passwords as a sign-in from one place may make, per user. */
const PASSWORD_CHECKS = { limit: 10, windowMs: 15 * 60_000 } as const;

export function createMeService({ meta, shared }: { meta: MetaStore; shared: SharedState }) {
  const checks = new Throttle(shared, "me:password", PASSWORD_CHECKS);

  /** Verifies the current password (throttled: every check counts, a right one takes it back). */
  async function checkCurrentPassword(userId: string, passwordHash: string, given: string | undefined): Promise<void> {
    if (given === undefined) {
      throw new DomainError("wrong_password", "Enter your current password to change your e-mail address.", [
        { path: "current_password", message: "current_password is required to change the e-mail" },
      ]);
    }
    const wait = await checks.hit(userId);
    if (wait > 0) throw new DomainError("rate_limited", "Too many attempts. Please try again later.", undefined, wait);
    if (!(await verifyPassword(passwordHash, given))) {
      await meta.audit.record({ action: "password.check_failed", userId });
      throw new DomainError("wrong_password", "Your current password is not correct.", [
        { path: "current_password", message: "is not correct" },
      ]);
    }
    await checks.undo(userId);
  }

  async function userOf(actor: Actor) {
    const user = await meta.users.findById(actor.userId);
    if (!user) throw new DomainError("not_found", "User not found.");
    return user;
  }

  return {
    async update(actor: Actor, body: MePatchBody): Promise<UserProfile> {
      const user = await userOf(actor);
      const changes: Record<string, unknown> = {};
      if (body.email !== undefined && normaliseEmail(body.email) !== user.email_norm) {
        await checkCurrentPassword(user.id, user.password_hash, body.current_password);
        if (!(await meta.users.setEmail(user.id, body.email))) {
          throw new DomainError("email_taken", "Another user has this e-mail address.", [
            { path: "email", message: "is taken by another user" },
          ]);
        }
        changes.email = { from: user.email, to: body.email };
      } else if (body.email !== undefined && body.email !== user.email) {
        // The same address in other letter case: no new identity, no password needed.
        await meta.users.setEmail(user.id, body.email);
        changes.email = { from: user.email, to: body.email };
      }
      if (body.name !== undefined && body.name !== user.name) {
        await meta.users.setName(user.id, body.name);
        changes.name = true;
      }
      if (Object.keys(changes).length > 0) await meta.audit.record({ action: "user.update", userId: user.id, detail: changes });
      const after = await userOf(actor);
      return { id: after.id, email: after.email, name: after.name };
    },

    /** Sets a new password; every other session of the user ends, the caller's stays. */
    async changePassword(actor: Actor, body: PasswordChangeBody): Promise<{ revoked: number }> {
      const user = await userOf(actor);
      await checkCurrentPassword(user.id, user.password_hash, body.current_password);
      await meta.users.setPasswordHash(user.id, await hashPassword(body.new_password));
      const revoked = await meta.tokens.revokeOthers(user.id, actor.tokenId);
      await meta.audit.record({ action: "password.change", userId: user.id, detail: { revoked_sessions: revoked } });
      return { revoked };
    },

    async sessions(actor: Actor): Promise<UserSession[]> {
      const rows = await meta.tokens.listForUser(actor.userId);
      // This session first, then the others as the store orders them (most recently seen first).
      const ordered = [...rows.filter((s) => s.id === actor.tokenId), ...rows.filter((s) => s.id !== actor.tokenId)];
      return ordered.map((s) => ({
        id: s.id,
        device: describeDevice(s.user_agent),
        address: s.ip,
        created_at: s.created_at.toISOString(),
        last_seen_at: (s.last_used_at ?? s.created_at).toISOString(),
        expires_at: s.expires_at.toISOString(),
        current: s.id === actor.tokenId,
      }));
    },

    /** Ends one of the caller's own sessions; another user's id answers like an unknown one. */
    async revokeSession(actor: Actor, id: string): Promise<void> {
      if (!(await meta.tokens.revokeById(actor.userId, id))) throw new DomainError("not_found", "Session not found.");
      await meta.audit.record({ action: "session.revoke", userId: actor.userId, detail: { session_id: id } });
    },
  };
}
