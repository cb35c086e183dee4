// Session tokens: opaque 256-bit secrets, stored hashed, with expiry and revocation.
import type { Kysely } from "kysely";
import { hashSecret, newId, newSecret } from "../ids.js";
import type { MetaDatabase } from "../tables.js";

export interface ResolvedToken {
  tokenId: string;
  userId: string;
  expiresAt: Date;
}

export function tokensRepo(db: Kysely<MetaDatabase>) {
  return {
    async issue(
      userId: string,
      ttlMs: number,
      userAgent = "",
      now = new Date(),
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
        })
        .execute();
      return { token, id, expiresAt };
    },
    /** A live token's owner, or null when unknown, expired or revoked. */
    async resolve(token: string, now = new Date()): Promise<ResolvedToken | null> {
      const r = await db
        .selectFrom("auth_tokens")
        .select(["id", "user_id", "expires_at", "revoked_at"])
        .where("token_hash", "=", hashSecret(token))
        .executeTakeFirst();
      if (!r || r.revoked_at !== null || r.expires_at.getTime() <= now.getTime()) return null;
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
    /** Ids of tokens revoked since `since`: lets long-lived sockets notice revocation. */
    async revokedSince(since: Date): Promise<string[]> {
      const rows = await db.selectFrom("auth_tokens").select("id").where("revoked_at", ">=", since).execute();
      return rows.map((r) => r.id);
    },
  };
}
