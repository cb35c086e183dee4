// API keys for the Stats API: long-lived, read-only credentials of one user, limited to one
// account. Shown once at creation; stored as a SHA-256 hash like session tokens.
import type { Kysely } from "kysely";
import { hashSecret, newId, newSecret } from "../ids.js";
import type { MetaDatabase } from "../tables.js";

export const API_KEY_PREFIX = "lk_";

export interface ResolvedApiKey {
  id: string;
  userId: string;
  accountId: string;
}

export function apiKeysRepo(db: Kysely<MetaDatabase>) {
  return {
    async create(input: { userId: string; accountId: string; name: string }): Promise<{ id: string; key: string }> {
      const key = `${API_KEY_PREFIX}${newSecret()}`;
      const id = newId();
      await db
        .insertInto("api_keys")
        .values({
          id,
          key_hash: hashSecret(key),
          prefix: key.slice(0, API_KEY_PREFIX.length + 6),
          user_id: input.userId,
          account_id: input.accountId,
          name: input.name.slice(0, 100),
        })
        .execute();
      return { id, key };
    },
    /** A live key's owner and account, or null when unknown or revoked. */
    async resolve(key: string): Promise<ResolvedApiKey | null> {
      const r = await db
        .selectFrom("api_keys")
        .select(["id", "user_id", "account_id", "revoked_at"])
        .where("key_hash", "=", hashSecret(key))
        .executeTakeFirst();
      if (!r || r.revoked_at !== null) return null;
      return { id: r.id, userId: r.user_id, accountId: r.account_id };
    },
    listForUser(userId: string) {
      return db
        .selectFrom("api_keys")
        .select(["id", "prefix", "account_id", "name", "created_at", "revoked_at"])
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute();
    },
    async revoke(id: string, now = new Date()): Promise<boolean> {
      const r = await db
        .updateTable("api_keys")
        .set({ revoked_at: now })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
