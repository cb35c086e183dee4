// Account mutations: creating or renaming one refreshes the signed-in user's view of their
// accounts (useMe, which the avatar menu lists); a deletion leaves nothing to refresh, as the
// screen then signs out (features/auth LogoutPage). Switching lives in use-switch-account.
import type { AccountCreateBody } from "@lookout/schema";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { meKeys } from "../me/queries";
import { createAccount, deleteAccount, renameAccount } from "./api";

export function useRenameAccount(accountId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => renameAccount(accountId, name),
    onSuccess: () => client.invalidateQueries({ queryKey: meKeys.all }),
  });
}

export function useDeleteAccount(accountId: string) {
  return useMutation({ mutationFn: (confirm: string) => deleteAccount(accountId, confirm) });
}

export function useCreateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountCreateBody) => createAccount(body),
    onSuccess: () => client.invalidateQueries({ queryKey: meKeys.all }),
  });
}
