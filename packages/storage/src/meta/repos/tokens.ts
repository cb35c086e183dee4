// Session tokens: opaque 256-bit secrets, stored hashed, with expiry and revocation; each with the
// device (user agent) and address it signed in from, and when it was last used, for the user's
// list of sessions. The last use is written at most once a minute per token.
import type { Kysely } from "kysely";
import { hashSecret, newId, newSecret } from "../ids.js";
import type { MetaDatabase } from "../tables.js";

export interface ResolvedToken {
  tokenId: string;
  userId: string;
  expiresAt: Date;
}

/** How stale a session's recorded last use may get before a use writes it again. */
const LAST_SEEN_GRANULARITY_MS = 60_000;

/** A live session as its user's list shows it. */
export interface ListedSession {
  id: string;
  user_agent: string;
  ip: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
}

export function tokensRepo(db: Kysely<MetaDatabase>) {
  return {
    async issue(
      userId: string,
      ttlMs: number,
      userAgent = "",
      now = new Date(),
      /** The client's address at sign-in (http/client-ip.ts), shown in the sessions list. */
      ip = "",
    ): Promise<{ token: string; id: string; expiresAt: Date }> {
      const token = newSecret();
      const id = newId();
      const expiresAt = new Date(now.getTime() + ttlMs);
      await db
        .insertInto("auth_tokens")
        .values({
          id,
          token_hash: hashSecret(token),
          user_id: userId,
          expires_at: expiresAt,
          user_agent: userAgent.slice(0, 300),
          ip: ip.slice(0, 64),
        })
        .execute();
      return { token, id, expiresAt };
    },
    /** A live token's owner, or null when unknown, expired or revoked. */
    async resolve(token: string, now = new Date()): Promise<ResolvedToken | null> {
      const r = await db
        .selectFrom("auth_tokens")
        .select(["id", "user_id", "expires_at", "revoked_at", "last_used_at"])
        .where("token_hash", "=", hashSecret(token))
        .executeTakeFirst();
      if (!r || r.revoked_at !== null || r.expires_at.getTime() <= now.getTime()) return null;
      if (r.last_used_at === null || now.getTime() - r.last_used_at.getTime() >= LAST_SEEN_GRANULARITY_MS) {
        await db
          .updateTable("auth_tokens")
          .set({ last_used_at: now })
          .where("id", "=", r.id)
          .where((eb) =>
            eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", new Date(now.getTime() - LAST_SEEN_GRANULARITY_MS))]),
          )
          .execute();
      }
      return { tokenId: r.id, userId: r.user_id, expiresAt: r.expires_at };
    },
    async revoke(token: string, now = new Date()): Promise<void> {
      await db
        .updateTable("auth_tokens")
        .set({ revoked_at: now })
        .where("token_hash", "=", hashSecret(token))
        .where("revoked_at", "is", null)
        .execute();
    },
    /**
     * Signs the user out everywhere, after a password reset or change: every session token and
     * every outstanding password reset link stop working.
     */
    async revokeAllForUser(userId: string, now = new Date()): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable("auth_tokens")
          .set({ revoked_at: now })
          .where("user_id", "=", userId)
          .where("revoked_at", "is", null)
          .execute();
        await tx
          .updateTable("password_resets")
          .set({ used_at: now })
          .where("user_id", "=", userId)
          .where("used_at", "is", null)
          .execute();
      });
    },
    /** The user's live sessions (neither revoked nor expired), most recently used first. */
    listForUser(userId: string, now = new Date()): Promise<ListedSession[]> {
      return db
        .selectFrom("auth_tokens")
        .select(["id", "user_agent", "ip", "created_at", "last_used_at", "expires_at"])
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .orderBy((eb) => eb.fn.coalesce("last_used_at", "created_at"), "desc")
        .orderBy("id")
        .execute();
    },
    /** Revokes one live session of the user by its id; false when it is not theirs or not live. */
    async revokeById(userId: string, id: string, now = new Date()): Promise<boolean> {
      const r = await db
        .updateTable("auth_tokens")
        .set({ revoked_at: now })
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /**
     * After a password change: signs the user out everywhere but the session that changed it, and
     * voids every outstanding password reset link. Returns how many sessions it ended.
     */
    async revokeOthers(userId: string, keepId: string, now = new Date()): Promise<number> {
      return db.transaction().execute(async (tx) => {
        const r = await tx
          .updateTable("auth_tokens")
          .set({ revoked_at: now })
          .where("user_id", "=", userId)
          .where("id", "<>", keepId)
          .where("revoked_at", "is", null)
          .executeTakeFirst();
        await tx
          .updateTable("password_resets")
          .set({ used_at: now })
          .where("user_id", "=", userId)
          .where("used_at", "is", null)
          .execute();
        return Number(r.numUpdatedRows);
      });
    },
    /** Ids of tokens revoked since `since`: lets long-lived sockets notice revocation. */
    async revokedSince(since: Date): Promise<string[]> {
      const rows = await db.selectFrom("auth_tokens").select("id").where("revoked_at", ">=", since).execute();
      return rows.map((r) => r.id);
    },
  };
}
