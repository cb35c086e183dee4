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
    async count(): Promise<number> {
      const r = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
