// Sign-in, recovery and reset: the rules of SPEC.md §7 and DESIGN.md §7 (no enumeration, equal
// timing for unknown e-mails and wrong passwords, throttles, single-use hashed reset tokens).
import { type MetaStore, normaliseEmail, type SharedState } from "@lookout/storage";
import { DomainError } from "../http/domain-errors.js";
import type { Mailer } from "../mail/mailer.js";
import { dummyHash, hashPassword, verifyPassword } from "./passwords.js";
import { Remembered, Throttle, throttleAddress } from "./throttle.js";

export const LOGIN_FAILED = "Invalid e-mail address or password.";

const rateLimited = (waitMs: number) =>
  new DomainError("rate_limited", "Too many attempts. Please try again later.", undefined, waitMs);

export interface AuthServiceDeps {
  meta: MetaStore;
  mailer: Mailer;
  sessionTtlMs: number;
  /** Where the throttles count (in-process, or Redis shared by every server). */
  shared: SharedState;
}

/** What `recover` did about links: `no_public_url` when it had no trusted address to put in one. */
export type RecoverOutcome = "handled" | "no_public_url";

const LOGIN_WINDOW_MS = 15 * 60_000;
const RECOVER_WINDOW_MS = 60 * 60_000;
/** How long a pair (e-mail, address) that signed in counts as the owner's usual place. */
const USUAL_PLACE_MS = 30 * 24 * 3_600_000;
const PUBLIC_URL_KEY = "public_url";

/** The metadata store's `settings` table (migration 0002): install-wide values by key. */
type SettingsTables = {
  settings: { key: string; value: string };
};

export function createAuthService({ meta, mailer, sessionTtlMs, shared }: AuthServiceDeps) {
  // Sign-in: a guesser is stopped per (e-mail, address) and per address; the per-e-mail limit is
  // far above what one address can reach, so a stranger's failures never lock the owner out, and
  // it does not apply at all where that e-mail signed in recently (the owner's usual browser).
  const loginByPair = new Throttle(shared, "login:pair", { limit: 10, windowMs: LOGIN_WINDOW_MS });
  const loginByIp = new Throttle(shared, "login:ip", { limit: 100, windowMs: LOGIN_WINDOW_MS });
  const loginByEmail = new Throttle(shared, "login:email", { limit: 1000, windowMs: LOGIN_WINDOW_MS });
  const signedInFrom = new Remembered(shared, "login:usual", USUAL_PLACE_MS);
  const recoverByEmail = new Throttle(shared, "recover:email", { limit: 5, windowMs: RECOVER_WINDOW_MS });
  const recoverByIp = new Throttle(shared, "recover:ip", { limit: 30, windowMs: RECOVER_WINDOW_MS });

  async function throttle(...checks: [Throttle, string][]): Promise<void> {
    for (const [t, key] of checks) {
      const wait = await t.hit(key);
      if (wait > 0) throw rateLimited(wait);
    }
  }

  // The address e-mailed links use when LOOKOUT_PUBLIC_URL is unset: the one the owner first
  // signed in from, kept in the metadata store. Never a request's Host header, which anyone sets.
  const settings = meta.db.withTables<SettingsTables>();
  let storedPublicUrl: string | undefined;
  async function recordedPublicUrl(): Promise<string | undefined> {
    if (storedPublicUrl) return storedPublicUrl;
    const r = await settings.selectFrom("settings").select("value").where("key", "=", PUBLIC_URL_KEY).executeTakeFirst();
    storedPublicUrl = r?.value;
    return storedPublicUrl;
  }
  async function recordPublicUrl(address: string): Promise<void> {
    if (await recordedPublicUrl()) return;
    let origin: string;
    try {
      origin = new URL(address).origin;
    } catch {
      return;
    }
    if (origin === "null") return;
    await settings
      .insertInto("settings")
      .values({ key: PUBLIC_URL_KEY, value: origin })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    await recordedPublicUrl();
  }

  return {
    /**
     * `origin`: the address this request came to (`https://host`), given only when no public URL
     * is configured; an owner's first successful sign-in records it for e-mailed links.
     */
    async login(input: { email: string; password: string; ip: string; userAgent: string; origin?: string }) {
      const email = normaliseEmail(input.email);
      const address = throttleAddress(input.ip);
      const pair = `${email}\u0000${address}`;
      // Every attempt counts before the password is checked, so parallel guesses cannot outrun
      // the limits; a successful one takes its hits back.
      await throttle([loginByIp, address], [loginByPair, pair]);
      const emailWait = await loginByEmail.hit(email);
      if (emailWait > 0 && !(await signedInFrom.has(pair))) throw rateLimited(emailWait);
      const user = await meta.users.findByEmail(email);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password);
      if (!user || !ok) {
        await meta.audit.record({ action: "login.failed", userId: user?.id ?? null, detail: { ip: input.ip } });
        throw new DomainError("invalid_credentials", LOGIN_FAILED);
      }
      await loginByPair.reset(pair);
      await loginByIp.undo(address);
      if (emailWait === 0) await loginByEmail.undo(email);
      await signedInFrom.add(pair);
      const accounts = await meta.accounts.listForUser(user.id);
      // The account the user last switched to (team/service.ts), else their oldest membership.
      const account =
        accounts.find((a) => a.id === user.last_account_id) ??
        accounts[0] ??
        (await meta.accounts.createWithOwner(user.id, `${user.email}'s sites`));
      const owner = accounts.length === 0 || accounts.some((a) => a.role === "owner");
      if (owner && input.origin) await recordPublicUrl(input.origin);
      const issued = await meta.tokens.issue(user.id, sessionTtlMs, input.userAgent, new Date(), input.ip);
      await meta.audit.record({ action: "login", userId: user.id, accountId: account.id, detail: { ip: input.ip } });
      return { token: issued.token, expiresAt: issued.expiresAt, accountId: account.id, accountId2: user.id, email: user.email };
    },

    /**
     * Sends a reset link when the address is known; answers the same either way. Links start
     * with `publicUrl` (LOOKOUT_PUBLIC_URL) or else the recorded owner's address; with neither
     * nothing is sent, for known and unknown e-mails alike, and the caller logs why.
     */
    async recover(input: { email: string; ip: string; publicUrl: string | undefined }): Promise<RecoverOutcome> {
      const email = normaliseEmail(input.email);
      await throttle([recoverByIp, throttleAddress(input.ip)], [recoverByEmail, email]);
      const base = input.publicUrl ?? (await recordedPublicUrl());
      if (!base) return "no_public_url";
      const user = await meta.users.findByEmail(email);
      if (!user) return "handled";
      // Creating the token voids the user's earlier links: only the newest one works.
      const token = await meta.resets.create(user.id);
      const link = `${base}/reset-password?token=${encodeURIComponent(token)}`;
      await mailer.send({
        to: user.email,
        subject: "Reset your Lookout password",
        text:
          `Someone asked to reset the password of your Lookout account.\n\n` +
          `Open this link within 60 minutes to choose a new password:\n${link}\n\n` +
          `The link works once. If you did not ask for this, ignore this e-mail; your password stays as it is.\n`,
      });
      await meta.audit.record({ action: "password.reset_requested", userId: user.id, detail: { ip: input.ip } });
      return "handled";
    },

    async resetPassword(input: { token: string; password: string }): Promise<void> {
      const userId = await meta.resets.consume(input.token);
      if (!userId) {
        throw new DomainError(
          "invalid_token",
          "This password reset link is invalid, expired or already used. Please request a new one.",
        );
      }
      await meta.users.setPasswordHash(userId, await hashPassword(input.password));
      // Signs out every session and voids every other reset link of the user.
      await meta.tokens.revokeAllForUser(userId);
      await meta.audit.record({ action: "password.reset", userId });
    },

    /** Where e-mailed links start: LOOKOUT_PUBLIC_URL, else the address the owner first signed in from. */
    async linkBase(configured: string | undefined): Promise<string | undefined> {
      return configured ?? (await recordedPublicUrl());
    },

    async logout(token: string): Promise<void> {
      await meta.tokens.revoke(token);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
