// Switching the current account (issue #20): the server first records the choice (and refuses
// an account the user no longer belongs to), then this browser stores the spec's `accountId`
// (SPEC.md §3; other tabs follow through the storage event), forgets the current property (it
// belongs to the old account: the property list reloads for the new one, and the picker asks),
// refetches every query and opens the dashboard. The live socket reconnects for the new account
// by itself (features/live follows the session's accountId).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { useProperties } from "../../state/current-property";
import { useSignedInSession, useSession } from "../auth/session";
import { switchAccount } from "./api";

export function useSwitchAccount() {
  const session = useSignedInSession();
  const { signIn } = useSession();
  const { clear } = useProperties();
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (accountId: string) => switchAccount(accountId),
    onSuccess: async (_, accountId) => {
      clear();
      signIn({ token: session.token, accountId, accountId2: session.accountId2, email: session.email });
      navigate("/dashboard");
      await client.invalidateQueries();
    },
  });
}
