// Shared links as TanStack Query hooks: the property's list (every change invalidates it) and
// the public page's view of one link.
import type { CreateSharedLinkBody } from "@lookout/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createSharedLink, getShareInfo, listSharedLinks, revokeSharedLink } from "./api";

export const sharingKeys = {
  all: ["shared-links"] as const,
  list: (propertyId: string) => ["shared-links", propertyId] as const,
  info: (slug: string) => ["share-info", slug] as const,
};

export function useSharedLinks(propertyId: string) {
  return useQuery({ queryKey: sharingKeys.list(propertyId), queryFn: ({ signal }) => listSharedLinks(propertyId, signal) });
}

export function useCreateSharedLink(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSharedLinkBody) => createSharedLink(propertyId, body),
    onSettled: () => client.invalidateQueries({ queryKey: sharingKeys.list(propertyId) }),
  });
}

export function useRevokeSharedLink(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeSharedLink(propertyId, id),
    onSettled: () => client.invalidateQueries({ queryKey: sharingKeys.list(propertyId) }),
  });
}

export function useShareInfo(slug: string) {
  return useQuery({ queryKey: sharingKeys.info(slug), queryFn: ({ signal }) => getShareInfo(slug, signal), staleTime: 60_000 });
}
