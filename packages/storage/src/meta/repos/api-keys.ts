// API keys for the Stats API: long-lived, read-only credentials of one user, limited to one
// account. Shown once at creation; stored as a SHA-256 hash like session tokens. A key's last use
// is recorded at most once a minute, so a busy script costs one write a minute, not one a call.
import type { Kysely } from "kysely";
import { hashSecret, newId, newSecret } from "../ids.js";
import type { MetaDatabase } from "../tables.js";

export const API_KEY_PREFIX = "lk_";

/** How stale a recorded last use may get before a use writes it again. */
export const LAST_USED_GRANULARITY_MS = 60_000;

export interface ResolvedApiKey {
  id: string;
  userId: string;
  accountId: string;
}

/** A live key as the account's list shows it: never its hash, with who created it. */
export interface ListedApiKey {
  id: string;
  name: string;
  prefix: string;
  account_id: string;
  created_at: Date;
  last_used_at: Date | null;
  creator: { id: string; name: string; email: string };
}

export function apiKeysRepo(db: Kysely<MetaDatabase>) {
  return {
    async create(input: {
      userId: string;
      accountId: string;
      name: string;
    }): Promise<{ id: string; key: string; prefix: string; created_at: Date }> {
      const key = `${API_KEY_PREFIX}${newSecret()}`;
      const id = newId();
      const prefix = key.slice(0, API_KEY_PREFIX.length + 6);
      const row = await db
        .insertInto("api_keys")
        .values({
          id,
          key_hash: hashSecret(key),
          prefix,
          user_id: input.userId,
          account_id: input.accountId,
          name: input.name.slice(0, 100),
        })
        .returning("created_at")
        .executeTakeFirstOrThrow();
      return { id, key, prefix, created_at: row.created_at };
    },
    /**
     * A live key's owner and account, or null when unknown or revoked. Records the use when the
     * recorded one is older than a minute (one conditional write, skipped for the other calls).
     */
    async resolve(key: string, now = new Date()): Promise<ResolvedApiKey | null> {
      const r = await db
        .selectFrom("api_keys")
        .select(["id", "user_id", "account_id", "revoked_at", "last_used_at"])
        .where("key_hash", "=", hashSecret(key))
        .executeTakeFirst();
      if (!r || r.revoked_at !== null) return null;
      if (r.last_used_at === null || now.getTime() - r.last_used_at.getTime() >= LAST_USED_GRANULARITY_MS) {
        const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
        // Conditional: of N servers seeing the same key in the same minute, one writes.
        await db
          .updateTable("api_keys")
          .set({ last_used_at: now })
          .where("id", "=", r.id)
          .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", stale)]))
          .execute();
      }
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
    /** The account's live keys (revoked ones are gone from the list), oldest first, with their creators. */
    async listForAccount(accountId: string): Promise<ListedApiKey[]> {
      const rows = await db
        .selectFrom("api_keys")
        .innerJoin("users", "users.id", "api_keys.user_id")
        .select([
          "api_keys.id as id",
          "api_keys.name as name",
          "api_keys.prefix as prefix",
          "api_keys.account_id as account_id",
          "api_keys.created_at as created_at",
          "api_keys.last_used_at as last_used_at",
          "users.id as user_id",
          "users.name as user_name",
          "users.email as user_email",
        ])
        .where("api_keys.account_id", "=", accountId)
        .where("api_keys.revoked_at", "is", null)
        .orderBy("api_keys.created_at")
        .orderBy("api_keys.id")
        .execute();
      return rows.map(({ user_id, user_name, user_email, ...k }) => ({
        ...k,
        creator: { id: user_id, name: user_name, email: user_email },
      }));
    },
    /** A key's account (revoked or not), to authorize a call on it by its id. */
    async findById(id: string): Promise<{ id: string; account_id: string; name: string; revoked_at: Date | null } | undefined> {
      return db.selectFrom("api_keys").select(["id", "account_id", "name", "revoked_at"]).where("id", "=", id).executeTakeFirst();
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
