// Invitations to join an account: a random token (256 bits, from node:crypto) stored only as its
// SHA-256 hash, valid for a fixed time, single use (consumed atomically: two accepts of one link
// cannot both join), revocable; resending replaces the token and the expiry.
import { timingSafeEqual } from "node:crypto";
import type { Role } from "@lookout/schema";
import type { Kysely } from "kysely";
import { hashSecret, newId, newSecret, normaliseEmail } from "../ids.js";
import type { InvitationRow, MetaDatabase } from "../tables.js";

/** What an invitation's token finds: the row and whose account, with the inviter's name. */
export interface InvitationLookup {
  invitation: InvitationRow;
  accountName: string;
  inviterName: string | null;
  inviterEmail: string | null;
}

/** An account's pending invitation with its inviter, for the Team screen. */
export interface PendingInvitation extends InvitationRow {
  inviter_name: string | null;
  inviter_email: string | null;
}

export type InvitationState = "valid" | "expired" | "used" | "revoked";

/** The state of an invitation at `now`: used and revoked win over expired. */
export function invitationState(row: InvitationRow, now = new Date()): InvitationState {
  if (row.accepted_at !== null) return "used";
  if (row.revoked_at !== null) return "revoked";
  if (row.expires_at.getTime() <= now.getTime()) return "expired";
  return "valid";
}

/** Equal hex hashes, compared in constant time (the lookup by hash already matched; this guards the rest). */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function invitationsRepo(db: Kysely<MetaDatabase>) {
  return {
    /**
     * A new invitation, with its token (the only time the token exists in clear). An earlier
     * pending invitation of the same address to the same account is revoked: one link works.
     */
    async create(
      input: { accountId: string; email: string; role: Role; invitedBy: string; ttlMs: number },
      now = new Date(),
    ): Promise<{ row: InvitationRow; token: string }> {
      const token = newSecret();
      const row = await db.transaction().execute(async (tx) => {
        await tx
          .updateTable("invitations")
          .set({ revoked_at: now })
          .where("account_id", "=", input.accountId)
          .where("email_norm", "=", normaliseEmail(input.email))
          .where("accepted_at", "is", null)
          .where("revoked_at", "is", null)
          .execute();
        return tx
          .insertInto("invitations")
          .values({
            id: newId(),
            account_id: input.accountId,
            email: input.email.trim(),
            email_norm: normaliseEmail(input.email),
            role: input.role,
            token_hash: hashSecret(token),
            invited_by: input.invitedBy,
            expires_at: new Date(now.getTime() + input.ttlMs),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return { row, token };
    },

    /** The invitation a token names, whatever its state, or undefined for an unknown token. */
    async findByToken(token: string): Promise<InvitationLookup | undefined> {
      const hash = hashSecret(token);
      const r = await db
        .selectFrom("invitations")
        .innerJoin("accounts", "accounts.id", "invitations.account_id")
        .leftJoin("users", "users.id", "invitations.invited_by")
        .selectAll("invitations")
        .select(["accounts.name as account_name", "users.name as inviter_name", "users.email as inviter_email"])
        .where("invitations.token_hash", "=", hash)
        .executeTakeFirst();
      if (!r || !sameHash(r.token_hash, hash)) return undefined;
      const { account_name, inviter_name, inviter_email, ...invitation } = r;
      return { invitation, accountName: account_name, inviterName: inviter_name, inviterEmail: inviter_email };
    },

    /**
     * Marks the invitation accepted by `userId` if it is still valid at `now`; false when another
     * accept, a revocation or the expiry came first. One conditional UPDATE: single use.
     */
    async consume(id: string, userId: string, now = new Date()): Promise<boolean> {
      const r = await db
        .updateTable("invitations")
        .set({ accepted_at: now, accepted_by: userId })
        .where("id", "=", id)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** The account's invitations neither accepted nor revoked (expired ones included), newest first. */
    listPending(accountId: string): Promise<PendingInvitation[]> {
      return db
        .selectFrom("invitations")
        .leftJoin("users", "users.id", "invitations.invited_by")
        .selectAll("invitations")
        .select(["users.name as inviter_name", "users.email as inviter_email"])
        .where("invitations.account_id", "=", accountId)
        .where("invitations.accepted_at", "is", null)
        .where("invitations.revoked_at", "is", null)
        .orderBy("invitations.created_at", "desc")
        .orderBy("invitations.id")
        .execute();
    },

    /** A pending invitation of the account by id (unknown, foreign, used or revoked: undefined). */
    findPending(accountId: string, id: string): Promise<InvitationRow | undefined> {
      return db
        .selectFrom("invitations")
        .selectAll()
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
    },

    /** Revokes a pending invitation of the account; false when there is none by that id. */
    async revoke(accountId: string, id: string, now = new Date()): Promise<boolean> {
      const r = await db
        .updateTable("invitations")
        .set({ revoked_at: now })
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** A new token and expiry for a pending invitation (the old link stops working); undefined when none. */
    async renew(
      accountId: string,
      id: string,
      ttlMs: number,
      now = new Date(),
    ): Promise<{ row: InvitationRow; token: string } | undefined> {
      const token = newSecret();
      const row = await db
        .updateTable("invitations")
        .set({ token_hash: hashSecret(token), expires_at: new Date(now.getTime() + ttlMs) })
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      return row ? { row, token } : undefined;
    },
  };
}
