// The account's own settings: its name (admins) and its deletion (the owner, with the account's
// name typed to confirm). Deleting takes everything the account holds: its properties with their
// events (the event store's deleteProperty, and the collector refuses them from then on), and by
// the metadata's cascades its memberships, invitations, API keys, shared links, report schedules,
// goals and insights. A member left without any account gets a fresh empty one at the next
// sign-in (auth-service.ts login). Both changes are audited.
import type { AccountInfo } from "@lookout/schema";
import type { EventStore, MetaStore } from "@lookout/storage";
import type { Collector } from "../collect/collector.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";

export function createAccountService({ meta, events, collector }: { meta: MetaStore; events: EventStore; collector: Collector }) {
  async function accountOf(id: string) {
    const account = await meta.accounts.findById(id);
    // The policy has let the caller in, so the account exists unless it was deleted meanwhile.
    if (!account) throw new DomainError("forbidden", "You do not have access to this account.");
    return account;
  }

  return {
    async rename(actor: Actor, accountId: string, name: string): Promise<AccountInfo> {
      const before = await accountOf(accountId);
      if (name !== before.name) {
        await meta.accounts.rename(accountId, name);
        await meta.audit.record({
          action: "account.rename",
          userId: actor.userId,
          accountId,
          detail: { from: before.name, to: name },
        });
      }
      return { id: accountId, name, created_at: before.created_at.toISOString() };
    },

    async remove(actor: Actor, accountId: string, confirm: string): Promise<void> {
      const account = await accountOf(accountId);
      if (confirm.trim() !== account.name.trim()) {
        throw new DomainError("confirmation_mismatch", "Type the account's name exactly to delete it.", [
          { path: "confirm", message: "does not match the account's name" },
        ]);
      }
      const { properties, members } = await meta.accounts.delete(accountId);
      // The rows are gone: the collector's cached copies go too, then the events themselves.
      for (const uniqueId of properties) collector.invalidate(uniqueId);
      for (const uniqueId of properties) await events.deleteProperty(uniqueId);
      // The account's id stays in the detail only: no line should point at an account that is gone.
      await meta.audit.record({
        action: "account.delete",
        userId: actor.userId,
        accountId: null,
        detail: { account_id: accountId, name: account.name, properties, members },
      });
    },
  };
}
