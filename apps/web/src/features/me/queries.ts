// The signed-in user as a query, and their role in the session's account: screens hide or
// disable what the role may not do (the server's policy decides either way). Also the user's own
// settings: profile and password changes, and the list of their sessions with revocation.
import { type Action, allows, type Role } from "@lookout/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSignedInSession } from "../auth/session";
import { changePassword, getMe, listSessions, revokeSession, updateMe } from "./api";

export const meKeys = {
  all: ["me"] as const,
  me: () => ["me", "profile"] as const,
  sessions: () => ["me", "sessions"] as const,
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

/** Every query about the user is stale after one of their changes. */
function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: meKeys.all });
}

export function useUpdateMe() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: updateMe, onSuccess: refresh });
}

/** Changing the password signs out the other sessions: the sessions list refreshes. */
export function useChangePassword() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: changePassword, onSuccess: refresh });
}

export function useSessions() {
  return useQuery({ queryKey: meKeys.sessions(), queryFn: ({ signal }) => listSessions(signal) });
}

export function useRevokeSession() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: revokeSession, onSuccess: refresh });
}
