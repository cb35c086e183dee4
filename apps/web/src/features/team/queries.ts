// The team's server state as queries, keyed by account so a switch of account never shows the
// previous account's people. Every change refreshes what it touches and the activity log (the
// server audits each change); a change of the viewer's own role (a transfer) refreshes useMe too.
import type { InvitationCreateBody, Role } from "@lookout/schema";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { meKeys } from "../me/queries";
import {
  changeRole,
  getActivity,
  invite,
  leaveAccount,
  listInvitations,
  listMembers,
  removeMember,
  resendInvitation,
  revokeInvitation,
  transferOwnership,
} from "./api";

export const teamKeys = {
  all: ["team"] as const,
  account: (accountId: string) => ["team", accountId] as const,
  members: (accountId: string) => ["team", accountId, "members"] as const,
  invitations: (accountId: string) => ["team", accountId, "invitations"] as const,
  activity: (accountId: string) => ["team", accountId, "activity"] as const,
};

export function useMembers(accountId: string) {
  return useQuery({ queryKey: teamKeys.members(accountId), queryFn: ({ signal }) => listMembers(accountId, signal) });
}

/** Pending invitations; admins and owners only (the server refuses the rest, so it is not asked). */
export function useInvitations(accountId: string, enabled: boolean) {
  return useQuery({
    queryKey: teamKeys.invitations(accountId),
    queryFn: ({ signal }) => listInvitations(accountId, signal),
    enabled,
  });
}

/** The account's audit log, newest first, a page at a time ("Load more" follows next_cursor). */
export function useActivity(accountId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: teamKeys.activity(accountId),
    queryFn: ({ pageParam, signal }) => getActivity(accountId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled,
  });
}

function useRefresh(accountId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: teamKeys.account(accountId) });
}

export function useChangeRole(accountId: string) {
  const refresh = useRefresh(accountId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => changeRole(accountId, userId, role),
    onSuccess: refresh,
  });
}

export function useRemoveMember(accountId: string) {
  const refresh = useRefresh(accountId);
  return useMutation({ mutationFn: (userId: string) => removeMember(accountId, userId), onSuccess: refresh });
}

export function useTransferOwnership(accountId: string) {
  const client = useQueryClient();
  const refresh = useRefresh(accountId);
  return useMutation({
    mutationFn: (userId: string) => transferOwnership(accountId, userId),
    onSuccess: () => Promise.all([refresh(), client.invalidateQueries({ queryKey: meKeys.all })]),
  });
}

/** Leaving: the caller then switches to another account (features/accounts), so nothing here to refresh but useMe. */
export function useLeaveAccount(accountId: string) {
  return useMutation({ mutationFn: () => leaveAccount(accountId) });
}

export function useInvite(accountId: string) {
  const refresh = useRefresh(accountId);
  return useMutation({ mutationFn: (body: InvitationCreateBody) => invite(accountId, body), onSuccess: refresh });
}

export function useResendInvitation(accountId: string) {
  const refresh = useRefresh(accountId);
  return useMutation({ mutationFn: (id: string) => resendInvitation(accountId, id), onSuccess: refresh });
}

export function useRevokeInvitation(accountId: string) {
  const refresh = useRefresh(accountId);
  return useMutation({ mutationFn: (id: string) => revokeInvitation(accountId, id), onSuccess: refresh });
}
