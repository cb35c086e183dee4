// Users: e-mail unique case-insensitively (email_norm), password stored as an argon2id hash only.
import type { Kysely } from "kysely";
import { newId, normaliseEmail } from "../ids.js";
import type { MetaDatabase, UserRow } from "../tables.js";

export function usersRepo(db: Kysely<MetaDatabase>) {
  return {
    async create(input: { email: string; name?: string; passwordHash: string }): Promise<UserRow> {
      return db
        .insertInto("users")
        .values({
          id: newId(),
          email: input.email.trim(),
          email_norm: normaliseEmail(input.email),
          name: input.name ?? "",
          password_hash: input.passwordHash,
          updated_at: new Date(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom("users").selectAll().where("email_norm", "=", normaliseEmail(email)).executeTakeFirst();
    },
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await db
        .updateTable("users")
        .set({ password_hash: passwordHash, updated_at: new Date() })
        .where("id", "=", userId)
        .execute();
    },
    async setName(userId: string, name: string): Promise<void> {
      await db.updateTable("users").set({ name, updated_at: new Date() }).where("id", "=", userId).execute();
    },
    /**
     * Changes the user's e-mail; false when another user has it already (compared
     * case-insensitively, by the unique email_norm, so two racing changes cannot both win). Voids
     * the user's outstanding password reset links, which went to the old address.
     */
    async setEmail(userId: string, email: string): Promise<boolean> {
      const norm = normaliseEmail(email);
      const taken = await db
        .selectFrom("users")
        .select("id")
        .where("email_norm", "=", norm)
        .where("id", "<>", userId)
        .executeTakeFirst();
      if (taken) return false;
      try {
        await db.transaction().execute(async (tx) => {
          const now = new Date();
          await tx
            .updateTable("users")
            .set({ email: email.trim(), email_norm: norm, updated_at: now })
            .where("id", "=", userId)
            .execute();
          // A reset link mailed to the old address must not outlive the change.
          await tx
            .updateTable("password_resets")
            .set({ used_at: now })
            .where("user_id", "=", userId)
            .where("used_at", "is", null)
            .execute();
        });
        return true;
      } catch (err) {
        // unique_violation: another change took the address between the check and the write.
        if ((err as { code?: unknown }).code === "23505") return false;
        throw err;
      }
    },
    async count(): Promise<number> {
      const r = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
