// Account mutations: a rename refreshes the signed-in user's view of their accounts (useMe); a
// deletion leaves nothing to refresh, as the screen then signs out (features/auth LogoutPage).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { meKeys } from "../me/queries";
import { deleteAccount, renameAccount } from "./api";

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
