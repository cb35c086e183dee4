// The account's API keys as a query; creating and revoking refresh the list. The created key's
// secret lives only in the create mutation's result, never in the query cache.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createApiKey, listApiKeys, revokeApiKey } from "./api";

export const apiKeyKeys = {
  all: ["api-keys"] as const,
  list: (accountId: string) => ["api-keys", accountId] as const,
};

export function useApiKeys(accountId: string, enabled = true) {
  return useQuery({
    queryKey: apiKeyKeys.list(accountId),
    queryFn: ({ signal }) => listApiKeys(accountId, signal),
    enabled,
  });
}

export function useCreateApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => createApiKey(accountId, name),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.list(accountId) }),
  });
}

export function useRevokeApiKey(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeApiKey(id),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.list(accountId) }),
  });
}
