// The account's API keys (DESIGN.md §5): list, create (the answer holds the secret, the only time
// it is ever sent) and revoke. Answers are parsed with the shared schemas.
import { type ApiKey, type ApiKeyCreated, ApiKeyCreatedSchema, ApiKeyListAnswerSchema } from "@lookout/schema";
import { request } from "../../lib/http";

export async function listApiKeys(accountId: string, signal?: AbortSignal): Promise<ApiKey[]> {
  const data = await request("GET", `/api/v1/api-keys?accountId=${encodeURIComponent(accountId)}`, { signal });
  return ApiKeyListAnswerSchema.parse(data);
}

export async function createApiKey(accountId: string, name: string): Promise<ApiKeyCreated> {
  return ApiKeyCreatedSchema.parse(await request("POST", "/api/v1/api-keys", { json: { accountId, name } }));
}

export async function revokeApiKey(id: string): Promise<void> {
  await request("DELETE", `/api/v1/api-keys/${encodeURIComponent(id)}`);
}
