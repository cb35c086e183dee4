// Accounts (workspaces) and memberships: who may see which account, and with which role.
import type { Role } from "@lookout/schema";
import type { Kysely } from "kysely";
import { newId } from "../ids.js";
import type { MetaDatabase } from "../tables.js";

export interface AccountMembership {
  id: string;
  name: string;
  role: Role;
}

export function accountsRepo(db: Kysely<MetaDatabase>) {
  return {
    /** Creates an account with `userId` as its owner, in one transaction. */
    async createWithOwner(userId: string, name: string): Promise<{ id: string; name: string }> {
      return db.transaction().execute(async (tx) => {
        const id = newId();
        await tx.insertInto("accounts").values({ id, name }).execute();
        await tx.insertInto("memberships").values({ account_id: id, user_id: userId, role: "owner" }).execute();
        await tx.insertInto("subscriptions").values({ account_id: id, plan: "self-hosted", status: "active" }).execute();
        return { id, name };
      });
    },
    /** The user's accounts, oldest membership first (the first is where a session opens). */
    listForUser(userId: string): Promise<AccountMembership[]> {
      return db
        .selectFrom("memberships")
        .innerJoin("accounts", "accounts.id", "memberships.account_id")
        .select(["accounts.id as id", "accounts.name as name", "memberships.role as role"])
        .where("memberships.user_id", "=", userId)
        .orderBy("memberships.created_at")
        .orderBy("accounts.id")
        .execute();
    },
    async roleOf(userId: string, accountId: string): Promise<Role | null> {
      const r = await db
        .selectFrom("memberships")
        .select("role")
        .where("user_id", "=", userId)
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      return r?.role ?? null;
    },
    async addMember(accountId: string, userId: string, role: Role): Promise<void> {
      await db
        .insertInto("memberships")
        .values({ account_id: accountId, user_id: userId, role })
        .onConflict((oc) => oc.columns(["account_id", "user_id"]).doUpdateSet({ role }))
        .execute();
    },
    findById(id: string): Promise<{ id: string; name: string; created_at: Date } | undefined> {
      return db.selectFrom("accounts").select(["id", "name", "created_at"]).where("id", "=", id).executeTakeFirst();
    },
    async rename(id: string, name: string): Promise<void> {
      await db.updateTable("accounts").set({ name }).where("id", "=", id).execute();
    },
    /**
     * Deletes the account's row; the foreign keys cascade to its memberships, invitations, API
     * keys, subscription and properties (and through those to goals, shared links, report
     * schedules and insights). The events of its properties are the event store's: the caller
     * deletes them. Returns the unique_ids of the properties it held and how many members it had.
     */
    async delete(id: string): Promise<{ properties: string[]; members: number }> {
      return db.transaction().execute(async (tx) => {
        const props = await tx.selectFrom("properties").select("unique_id").where("account_id", "=", id).execute();
        const members = await tx.selectFrom("memberships").select("user_id").where("account_id", "=", id).execute();
        await tx.deleteFrom("accounts").where("id", "=", id).execute();
        return { properties: props.map((p) => p.unique_id), members: members.length };
      });
    },
    async removeMember(accountId: string, userId: string): Promise<void> {
      await db.deleteFrom("memberships").where("account_id", "=", accountId).where("user_id", "=", userId).execute();
    },
  };
}
