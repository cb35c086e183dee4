// Switching the current account (issue #20): the server first records the choice (and refuses
// an account the user no longer belongs to), then this browser stores the spec's `accountId`
// (SPEC.md §3; other tabs follow through the storage event), forgets the current property (it
// belongs to the old account: the property list reloads for the new one, and the picker asks),
// refetches every query and opens the dashboard. The live socket reconnects for the new account
// by itself (features/live follows the session's accountId). Plain state rather than a TanStack
// mutation: the header is on every first load, and DESIGN.md §8 budgets its bytes.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useProperties } from "../../state/current-property";
import { useSession, useSignedInSession } from "../auth/session";
import { switchAccount } from "./api";

export interface AccountSwitcher {
  /** Switches to `accountId`; failures land in `error`. */
  switchTo: (accountId: string) => Promise<void>;
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

export function useSwitchAccount(): AccountSwitcher {
  const session = useSignedInSession();
  const { signIn } = useSession();
  const { clear } = useProperties();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const switchTo = useCallback(
    async (accountId: string) => {
      setPending(true);
      setError(null);
      try {
        await switchAccount(accountId);
      } catch (err) {
        setError(err);
        setPending(false);
        return;
      }
      clear();
      signIn({ token: session.token, accountId, accountId2: session.accountId2, email: session.email });
      setPending(false);
      navigate("/dashboard");
      await client.invalidateQueries();
    },
    [session, signIn, clear, client, navigate],
  );
  const reset = useCallback(() => setError(null), []);
  return { switchTo, isPending, error, reset };
}
