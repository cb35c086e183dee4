// The audit log: security-relevant actions (sign-ins, password changes, token revocations).
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
  };
}
