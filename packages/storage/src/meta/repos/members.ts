// The members of an account (memberships with their users) and the changes the Team screen makes:
// a role, a removal, a transfer of ownership. Each change that could leave an account without an
// owner locks the account's row first, so two concurrent changes (two owners demoting each other)
// cannot both pass the "at least one owner" check.
import type { Role } from "@lookout/schema";
import { type Kysely, sql, type Transaction } from "kysely";
import type { MetaDatabase } from "../tables.js";

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  joined_at: Date;
  last_active_at: Date | null;
}

/** What a change did: done, no such member, or refused because no owner would be left. */
export type MemberChange = "ok" | "not_member" | "last_owner";

async function lockAccount(tx: Transaction<MetaDatabase>, accountId: string): Promise<void> {
  await sql`select id from accounts where id = ${accountId} for update`.execute(tx);
}

async function roleIn(tx: Transaction<MetaDatabase>, accountId: string, userId: string): Promise<Role | undefined> {
  const r = await tx
    .selectFrom("memberships")
    .select("role")
    .where("account_id", "=", accountId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return r?.role;
}

async function ownerCount(tx: Transaction<MetaDatabase>, accountId: string): Promise<number> {
  const r = await tx
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("account_id", "=", accountId)
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function membersRepo(db: Kysely<MetaDatabase>) {
  const members = (accountId: string) =>
    db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select((eb) => [
        "users.id as user_id",
        "users.email as email",
        "users.name as name",
        "memberships.role as role",
        "memberships.created_at as joined_at",
        // The member's latest use of any session (sessions record their last use once a minute).
        eb
          .selectFrom("auth_tokens")
          .select((t) => t.fn.max(t.fn.coalesce("auth_tokens.last_used_at", "auth_tokens.created_at")).as("t"))
          .whereRef("auth_tokens.user_id", "=", "users.id")
          .as("last_active_at"),
      ])
      .where("memberships.account_id", "=", accountId);

  return {
    /** The account's members: owners first, then by when they joined. */
    async list(accountId: string): Promise<MemberRow[]> {
      const rows = await members(accountId)
        .orderBy(sql`case memberships.role when 'owner' then 0 when 'admin' then 1 when 'editor' then 2 else 3 end`)
        .orderBy("memberships.created_at")
        .orderBy("users.id")
        .execute();
      return rows.map(toMember);
    },

    async find(accountId: string, userId: string): Promise<MemberRow | undefined> {
      const r = await members(accountId).where("users.id", "=", userId).executeTakeFirst();
      return r ? toMember(r) : undefined;
    },

    /** Sets a member's role; refuses to demote the last owner. */
    changeRole(accountId: string, userId: string, role: Role): Promise<MemberChange> {
      return db.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        const current = await roleIn(tx, accountId, userId);
        if (!current) return "not_member";
        if (current === "owner" && role !== "owner" && (await ownerCount(tx, accountId)) <= 1) return "last_owner";
        await tx
          .updateTable("memberships")
          .set({ role })
          .where("account_id", "=", accountId)
          .where("user_id", "=", userId)
          .execute();
        return "ok";
      });
    },

    /** Ends a membership (a removal or a leave); refuses to remove the last owner. */
    remove(accountId: string, userId: string): Promise<MemberChange> {
      return db.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        const current = await roleIn(tx, accountId, userId);
        if (!current) return "not_member";
        if (current === "owner" && (await ownerCount(tx, accountId)) <= 1) return "last_owner";
        await tx.deleteFrom("memberships").where("account_id", "=", accountId).where("user_id", "=", userId).execute();
        // Where the user's next sign-in opened no longer exists for them.
        await tx
          .updateTable("users")
          .set({ last_account_id: null })
          .where("id", "=", userId)
          .where("last_account_id", "=", accountId)
          .execute();
        return "ok";
      });
    },

    /** Makes `toUserId` an owner and `fromUserId` (an owner) an admin, in one transaction. */
    transferOwnership(accountId: string, fromUserId: string, toUserId: string): Promise<MemberChange> {
      return db.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        if ((await roleIn(tx, accountId, fromUserId)) !== "owner") return "not_member";
        if (!(await roleIn(tx, accountId, toUserId))) return "not_member";
        await tx
          .updateTable("memberships")
          .set({ role: "owner" })
          .where("account_id", "=", accountId)
          .where("user_id", "=", toUserId)
          .execute();
        if (fromUserId !== toUserId) {
          await tx
            .updateTable("memberships")
            .set({ role: "admin" })
            .where("account_id", "=", accountId)
            .where("user_id", "=", fromUserId)
            .execute();
        }
        return "ok";
      });
    },

    /**
     * Adds the user with `role` unless already a member (then keeps the role they have: an
     * invitation never demotes). True when it added them.
     */
    async join(accountId: string, userId: string, role: Role): Promise<boolean> {
      const r = await db
        .insertInto("memberships")
        .values({ account_id: accountId, user_id: userId, role })
        .onConflict((oc) => oc.columns(["account_id", "user_id"]).doNothing())
        .returning("user_id")
        .executeTakeFirst();
      return r !== undefined;
    },

    /** Remembers the account the user switched to: the next sign-in opens there. */
    async setLastAccount(userId: string, accountId: string): Promise<void> {
      await db.updateTable("users").set({ last_account_id: accountId }).where("id", "=", userId).execute();
    },
  };
}

function toMember(r: {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  joined_at: Date;
  last_active_at: Date | string | null;
}): MemberRow {
  // max() over timestamptz comes back as a Date from pg and PGlite alike; a string is parsed to be safe.
  const last = r.last_active_at === null ? null : new Date(r.last_active_at);
  return { ...r, last_active_at: last };
}
