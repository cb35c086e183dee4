// The user's accounts and the account's activity (issue #20): list (an API key sees its one
// account), create (the creator owns it), switch, and the audit log as pages of plain sentences
// (activity.ts). Composed by service.ts.
import type { AccountListItem, ActivityPage } from "@lookout/schema";
import type { MetaStore } from "@lookout/storage";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { describeActivity } from "./activity.js";

const ACTIVITY_PAGE = 25;
const iso = (d: Date) => d.toISOString();

export function createAccountService(meta: MetaStore) {
  return {
    async listAccounts(actor: Actor): Promise<AccountListItem[]> {
      const all = await meta.accounts.listForUser(actor.userId);
      // An API key sees its one account and nothing else.
      return actor.accountScope === undefined ? all : all.filter((a) => a.id === actor.accountScope);
    },

    async createAccount(actor: Actor, name: string): Promise<AccountListItem> {
      if (actor.via === "api_key") throw new DomainError("forbidden", "An API key cannot create accounts.");
      const account = await meta.accounts.createWithOwner(actor.userId, name);
      await meta.members.setLastAccount(actor.userId, account.id);
      await meta.audit.record({ action: "account.create", userId: actor.userId, accountId: account.id, detail: { name } });
      return { id: account.id, name: account.name, role: "owner" };
    },

    async switchAccount(actor: Actor, accountId: string): Promise<void> {
      await meta.members.setLastAccount(actor.userId, accountId);
    },

    // --- activity ------------------------------------------------------------------------------

    async activity(accountId: string, cursor: string | undefined): Promise<ActivityPage> {
      const rows = await meta.audit.listForAccount(accountId, {
        ...(cursor !== undefined ? { before: Number(cursor) } : {}),
        limit: ACTIVITY_PAGE + 1,
      });
      const page = rows.slice(0, ACTIVITY_PAGE);
      const last = page.at(-1);
      return {
        results: page.map((r) => ({
          id: String(r.id),
          action: r.action,
          created_at: iso(r.created_at),
          actor: r.user_id && r.user_email !== null ? { id: r.user_id, name: r.user_name ?? "", email: r.user_email } : null,
          description: describeActivity(r.action, r.detail),
        })),
        next_cursor: rows.length > ACTIVITY_PAGE && last ? String(last.id) : null,
      };
    },
  };
}
