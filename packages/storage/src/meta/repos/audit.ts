// The audit log: security-relevant actions (sign-ins, password changes, token revocations) and an
// account's activity (roles, invitations, removals, settings), which its Team screen pages through.
import type { Kysely } from "kysely";
import type { MetaDatabase } from "../tables.js";

export function auditRepo(db: Kysely<MetaDatabase>) {
  return {
    async record(entry: { action: string; userId?: string | null; accountId?: string | null; detail?: Record<string, unknown> }) {
      await db
        .insertInto("audit_log")
        .values({
          action: entry.action,
          user_id: entry.userId ?? null,
          account_id: entry.accountId ?? null,
          detail: JSON.stringify(entry.detail ?? {}),
        })
        .execute();
    },
    list(filter: { userId?: string; limit?: number } = {}) {
      let q = db
        .selectFrom("audit_log")
        .selectAll()
        .orderBy("id", "desc")
        .limit(filter.limit ?? 100);
      if (filter.userId) q = q.where("user_id", "=", filter.userId);
      return q.execute();
    },
    /**
     * One page of an account's log, newest first, with the acting user's name and e-mail (null
     * when the user is gone): entries with an id below `before` (a cursor), `limit` of them.
     */
    listForAccount(accountId: string, opts: { before?: number; limit: number }) {
      let q = db
        .selectFrom("audit_log")
        .leftJoin("users", "users.id", "audit_log.user_id")
        .selectAll("audit_log")
        .select(["users.name as user_name", "users.email as user_email"])
        .where("audit_log.account_id", "=", accountId)
        .orderBy("audit_log.id", "desc")
        .limit(opts.limit);
      if (opts.before !== undefined) q = q.where("audit_log.id", "<", opts.before);
      return q.execute();
    },
  };
}
