// Password reset tokens: random, stored hashed, 60-minute expiry, single use (consumed atomically).
import type { Kysely } from "kysely";
import { hashSecret, newId, newSecret } from "../ids.js";
import type { MetaDatabase } from "../tables.js";

export const RESET_TTL_MS = 60 * 60 * 1000;

export function passwordResetsRepo(db: Kysely<MetaDatabase>) {
  return {
    async create(userId: string, now = new Date()): Promise<string> {
      const token = newSecret();
      await db
        .insertInto("password_resets")
        .values({
          id: newId(),
          token_hash: hashSecret(token),
          user_id: userId,
          expires_at: new Date(now.getTime() + RESET_TTL_MS),
        })
        .execute();
      return token;
    },
    /** Marks the token used and returns its user, or null if unknown, expired or already used. */
    async consume(token: string, now = new Date()): Promise<string | null> {
      const r = await db
        .updateTable("password_resets")
        .set({ used_at: now })
        .where("token_hash", "=", hashSecret(token))
        .where("used_at", "is", null)
        .where("expires_at", ">", now)
        .returning("user_id")
        .executeTakeFirst();
      return r?.user_id ?? null;
    },
    /** Whether the token could still be consumed, without consuming it (for the reset screen). */
    async isUsable(token: string, now = new Date()): Promise<boolean> {
      const r = await db
        .selectFrom("password_resets")
        .select("id")
        .where("token_hash", "=", hashSecret(token))
        .where("used_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return r !== undefined;
    },
  };
}
