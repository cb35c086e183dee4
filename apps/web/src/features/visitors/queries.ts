// The visitors calls as queries: the list and a visitor's history page by cursor (infinite
// queries: "Load more" appends the next page), the profile, and deletion, which forgets every
// cached answer about the property's visitors and stats (the dashboard must stop counting them).
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { statsKeys } from "../dashboard/queries";
import { deleteVisitor, getHistory, getVisitor, type HistoryParams, type ListParams, listVisitors } from "./api";

export const visitorKeys = {
  property: (propertyId: string) => ["visitors", propertyId] as const,
  list: (propertyId: string, p: ListParams) => ["visitors", propertyId, "list", p] as const,
  one: (propertyId: string, clientId: string) => ["visitors", propertyId, "one", clientId] as const,
  history: (propertyId: string, clientId: string, p: HistoryParams) =>
    ["visitors", propertyId, "one", clientId, "history", p] as const,
};

export function useVisitorList(propertyId: string, p: ListParams) {
  return useInfiniteQuery({
    queryKey: visitorKeys.list(propertyId, p),
    queryFn: ({ pageParam, signal }) => listVisitors(propertyId, p, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // A new search keeps the old rows on screen until its answer arrives (no flash of empty).
    placeholderData: keepPreviousData,
  });
}

/** The profile; refreshed every minute while open, so "online now" and last seen stay true. */
export function useVisitor(propertyId: string, clientId: string, enabled = true) {
  return useQuery({
    queryKey: visitorKeys.one(propertyId, clientId),
    queryFn: ({ signal }) => getVisitor(propertyId, clientId, signal),
    refetchInterval: 60_000,
    enabled,
  });
}

export function useVisitorHistory(propertyId: string, clientId: string, p: HistoryParams, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: visitorKeys.history(propertyId, clientId, p),
    queryFn: ({ pageParam, signal }) => getHistory(propertyId, clientId, p, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useDeleteVisitor(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => deleteVisitor(propertyId, clientId),
    onSuccess: (_n, clientId) => {
      // The deleted profile must not answer from the cache if someone comes back to it.
      client.removeQueries({ queryKey: visitorKeys.one(propertyId, clientId) });
      return Promise.all([
        client.invalidateQueries({ queryKey: visitorKeys.property(propertyId) }),
        client.invalidateQueries({ queryKey: statsKeys.property(propertyId) }),
      ]);
    },
  });
}
