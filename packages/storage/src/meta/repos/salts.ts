// Daily salts for cookieless visitor hashes, persisted so every server process agrees on the
// day's salt. Salts older than 48 h are deleted, which makes old hashes unlinkable.
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { MetaDatabase } from "../tables.js";

export function saltsRepo(db: Kysely<MetaDatabase>) {
  return {
    /** The salt for `day` (YYYY-MM-DD, UTC), created on first use; concurrent creators agree. */
    async forDay(day: string): Promise<string> {
      await db
        .insertInto("salts")
        .values({ day, secret: randomBytes(32).toString("hex") })
        .onConflict((oc) => oc.column("day").doNothing())
        .execute();
      const r = await db.selectFrom("salts").select("secret").where("day", "=", day).executeTakeFirstOrThrow();
      return r.secret;
    },
    async deleteOlderThan(cutoff: Date): Promise<void> {
      await db.deleteFrom("salts").where("created_at", "<", cutoff).execute();
    },
  };
}
