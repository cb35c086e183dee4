// API keys of an account (DESIGN.md §5, §7): created by admins for scripts reading the Stats API,
// the secret shown once and stored hashed, listed with creator and last use, revoked at once.
// Creating and revoking are audited. The caller (routes.ts) has authorized the account already,
// except for revocation by id, which authorizes here from the key's own account.
import { type ApiKey, type ApiKeyCreated, allows } from "@lookout/schema";
import type { ListedApiKey, MetaStore } from "@lookout/storage";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { roleFor } from "../http/policy.js";

function toApiKey(k: ListedApiKey): ApiKey {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    account_id: k.account_id,
    created_at: k.created_at.toISOString(),
    last_used_at: k.last_used_at?.toISOString() ?? null,
    creator: k.creator,
  };
}

export function createApiKeyService({ meta }: { meta: MetaStore }) {
  return {
    async list(accountId: string): Promise<ApiKey[]> {
      return (await meta.apiKeys.listForAccount(accountId)).map(toApiKey);
    },

    async create(actor: Actor, input: { accountId: string; name: string }): Promise<ApiKeyCreated> {
      const created = await meta.apiKeys.create({ userId: actor.userId, accountId: input.accountId, name: input.name });
      const user = await meta.users.findById(actor.userId);
      await meta.audit.record({
        action: "api_key.create",
        userId: actor.userId,
        accountId: input.accountId,
        detail: { api_key_id: created.id, name: input.name, prefix: created.prefix },
      });
      return {
        id: created.id,
        key: created.key,
        name: input.name,
        prefix: created.prefix,
        account_id: input.accountId,
        created_at: created.created_at.toISOString(),
        last_used_at: null,
        creator: { id: actor.userId, name: user?.name ?? "", email: user?.email ?? "" },
      };
    },

    /**
     * Revokes a key: admins of its account only. A key of an account the caller is not a member
     * of answers like an unknown or already revoked one (404); a member below admin gets 403.
     */
    async revoke(actor: Actor, id: string): Promise<void> {
      const key = await meta.apiKeys.findById(id);
      const role = key ? await roleFor(meta, actor, key.account_id) : null;
      if (!key || !role || key.revoked_at !== null) throw new DomainError("not_found", "API key not found.");
      if (!allows(role, "admin")) throw new DomainError("forbidden", "Only the account's admins may revoke API keys.");
      await meta.apiKeys.revoke(id);
      await meta.audit.record({
        action: "api_key.revoke",
        userId: actor.userId,
        accountId: key.account_id,
        detail: { api_key_id: id, name: key.name },
      });
    },
  };
}
