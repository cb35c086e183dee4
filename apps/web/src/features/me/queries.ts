// The signed-in user as a query, and their role in the session's account: screens hide or
// disable what the role may not do (the server's policy decides either way).
import { type Action, allows, type Role } from "@lookout/schema";
import { useQuery } from "@tanstack/react-query";
import { useSignedInSession } from "../auth/session";
import { getMe } from "./api";

export const meKeys = {
  all: ["me"] as const,
  me: () => ["me", "profile"] as const,
};

export function useMe() {
  return useQuery({ queryKey: meKeys.me(), queryFn: ({ signal }) => getMe(signal), staleTime: 60_000 });
}

/** The signed-in user's role in the session's account (undefined while loading). */
export function useAccountRole(): { role: Role | null | undefined; can: (action: Action) => boolean } {
  const { accountId } = useSignedInSession();
  const { data } = useMe();
  const role = data ? (data.accounts.find((a) => a.id === accountId)?.role ?? null) : undefined;
  return { role, can: (action) => allows(role, action) };
}
