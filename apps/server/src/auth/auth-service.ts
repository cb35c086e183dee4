// Sign-in, recovery and reset: the rules of SPEC.md §7 and DESIGN.md §7 (no enumeration, equal
// timing for unknown e-mails and wrong passwords, throttles, single-use hashed reset tokens).
import { type MetaStore, normaliseEmail } from "@lookout/storage";
import { HttpError, tooMany } from "../http/errors.js";
import type { Mailer } from "../mail/mailer.js";
import { dummyHash, hashPassword, verifyPassword } from "./passwords.js";
import { Throttle } from "./throttle.js";

export const LOGIN_FAILED = "Invalid e-mail address or password.";

export interface AuthServiceDeps {
  meta: MetaStore;
  mailer: Mailer;
  sessionTtlMs: number;
}

export function createAuthService({ meta, mailer, sessionTtlMs }: AuthServiceDeps) {
  const loginByEmail = new Throttle({ limit: 10, windowMs: 15 * 60_000 });
  const loginByIp = new Throttle({ limit: 100, windowMs: 15 * 60_000 });
  const recoverByEmail = new Throttle({ limit: 5, windowMs: 60 * 60_000 });
  const recoverByIp = new Throttle({ limit: 30, windowMs: 60 * 60_000 });

  function throttle(...checks: [Throttle, string][]): void {
    for (const [t, key] of checks) {
      const wait = t.hit(key);
      if (wait > 0) throw tooMany(wait);
    }
  }

  return {
    async login(input: { email: string; password: string; ip: string; userAgent: string }) {
      const email = normaliseEmail(input.email);
      throttle([loginByIp, input.ip], [loginByEmail, email]);
      const user = await meta.users.findByEmail(email);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password);
      if (!user || !ok) {
        await meta.audit.record({ action: "login.failed", userId: user?.id ?? null, detail: { ip: input.ip } });
        throw new HttpError(401, "invalid_credentials", LOGIN_FAILED);
      }
      loginByEmail.reset(email);
      const accounts = await meta.accounts.listForUser(user.id);
      const account = accounts[0] ?? (await meta.accounts.createWithOwner(user.id, `${user.email}'s sites`));
      const issued = await meta.tokens.issue(user.id, sessionTtlMs, input.userAgent);
      await meta.audit.record({ action: "login", userId: user.id, accountId: account.id, detail: { ip: input.ip } });
      return { token: issued.token, expiresAt: issued.expiresAt, accountId: account.id, accountId2: user.id, email: user.email };
    },

    /** Sends a reset link when the address is known; answers the same either way. */
    async recover(input: { email: string; ip: string; baseUrl: string }): Promise<void> {
      const email = normaliseEmail(input.email);
      throttle([recoverByIp, input.ip], [recoverByEmail, email]);
      const user = await meta.users.findByEmail(email);
      if (!user) return;
      const token = await meta.resets.create(user.id);
      const link = `${input.baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await mailer.send({
        to: user.email,
        subject: "Reset your Lookout password",
        text:
          `Someone asked to reset the password of your Lookout account.\n\n` +
          `Open this link within 60 minutes to choose a new password:\n${link}\n\n` +
          `The link works once. If you did not ask for this, ignore this e-mail; your password stays as it is.\n`,
      });
      await meta.audit.record({ action: "password.reset_requested", userId: user.id, detail: { ip: input.ip } });
    },

    async resetPassword(input: { token: string; password: string }): Promise<void> {
      const userId = await meta.resets.consume(input.token);
      if (!userId) {
        throw new HttpError(
          400,
          "invalid_token",
          "This password reset link is invalid, expired or already used. Please request a new one.",
        );
      }
      await meta.users.setPasswordHash(userId, await hashPassword(input.password));
      await meta.tokens.revokeAllForUser(userId);
      await meta.audit.record({ action: "password.reset", userId });
    },

    async logout(token: string): Promise<void> {
      await meta.tokens.revoke(token);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
