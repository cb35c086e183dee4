// Password reset tokens: random, stored hashed, 60-minute expiry, single use (consumed atomically).
// At most one link of a user works at a time: asking for a new one voids the earlier ones, and
// using one (or any password change, through tokens.revokeAllForUser) voids all of them.
import type { Kysely } from "kysely";
import { hashSecret, newId, newSecret } from "../ids.js";
import type { MetaDatabase } from "../tables.js";

export const RESET_TTL_MS = 60 * 60 * 1000;

export function passwordResetsRepo(db: Kysely<MetaDatabase>) {
  return {
    /** A new token for `userId`; every earlier outstanding token of the user stops working. */
    async create(userId: string, now = new Date()): Promise<string> {
      const token = newSecret();
      await db.transaction().execute(async (tx) => {
        await voidAll(tx, userId, now);
        await tx
          .insertInto("password_resets")
          .values({
            id: newId(),
            token_hash: hashSecret(token),
            user_id: userId,
            expires_at: new Date(now.getTime() + RESET_TTL_MS),
          })
          .execute();
      });
      return token;
    },
    /**
     * Marks the token used and returns its user, or null if unknown, expired or already used.
     * One statement also voids every other outstanding token of that user, so two links used at
     * once cannot both succeed: the second waits for the first's row locks, then finds them used.
     */
    async consume(token: string, now = new Date()): Promise<string | null> {
      const hash = hashSecret(token);
      const owner = db
        .selectFrom("password_resets")
        .select("user_id")
        .where("token_hash", "=", hash)
        .where("used_at", "is", null)
        .where("expires_at", ">", now);
      const rows = await db
        .updateTable("password_resets")
        .set({ used_at: now })
        .where("user_id", "=", owner)
        .where("used_at", "is", null)
        .returning(["user_id", "token_hash"])
        .execute();
      return rows.find((r) => r.token_hash === hash)?.user_id ?? null;
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

async function voidAll(db: Kysely<MetaDatabase>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable("password_resets")
    .set({ used_at: now })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
}
