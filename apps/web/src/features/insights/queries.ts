// Insights as TanStack queries: the property's list, one saved insight, and a spec's result keyed
// by the spec itself (the same spec asked twice is one request); saving, changing and deleting
// refresh the list and the insight; so do the star in the list, duplicate and the undo of a delete.
import type { InsightCreate, InsightListQuery, InsightPatch, InsightSpec } from "@lookout/schema";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createInsight,
  deleteInsight,
  duplicateInsight,
  getInsight,
  listInsights,
  restoreInsight,
  runInsight,
  updateInsight,
} from "./api";

export const insightKeys = {
  all: ["insights"] as const,
  list: (propertyId: string) => ["insights", "list", propertyId] as const,
  listed: (propertyId: string, query: Partial<InsightListQuery>) => ["insights", "list", propertyId, query] as const,
  one: (shortId: string) => ["insights", "one", shortId] as const,
  result: (propertyId: string, spec: InsightSpec) => ["insights", "result", propertyId, spec] as const,
};

export function useInsights(propertyId: string, query: Partial<InsightListQuery> = {}) {
  return useQuery({
    queryKey: insightKeys.listed(propertyId, query),
    queryFn: ({ signal }) => listInsights(propertyId, query, signal),
    // A new search or filter keeps the rows on screen until its answer comes.
    placeholderData: keepPreviousData,
  });
}

export function useInsight(shortId: string | null) {
  return useQuery({
    queryKey: insightKeys.one(shortId ?? ""),
    queryFn: ({ signal }) => getInsight(shortId ?? "", signal),
    enabled: shortId !== null,
    // An unknown or malformed id is a 404 or 400: asking again changes nothing.
    retry: false,
  });
}

export function useInsightResult(propertyId: string, spec: InsightSpec | null) {
  return useQuery({
    queryKey: spec ? insightKeys.result(propertyId, spec) : ["insights", "result", propertyId, null],
    queryFn: ({ signal }) => runInsight(propertyId, spec as InsightSpec, signal),
    enabled: spec !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useCreateInsight(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InsightCreate) => createInsight(propertyId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: insightKeys.list(propertyId) }),
  });
}

export function useUpdateInsight(propertyId: string, shortId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: InsightPatch) => updateInsight(shortId, patch),
    onSuccess: (insight) => {
      client.setQueryData(insightKeys.one(shortId), insight);
      return client.invalidateQueries({ queryKey: insightKeys.list(propertyId) });
    },
  });
}

export function useDeleteInsight(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shortId: string) => deleteInsight(shortId),
    onSuccess: () => client.invalidateQueries({ queryKey: insightKeys.list(propertyId) }),
  });
}

/** Changes an insight from the list (the favourite star): the list refreshes. */
export function usePatchListedInsight(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ shortId, patch }: { shortId: string; patch: InsightPatch }) => updateInsight(shortId, patch),
    onSuccess: (insight) => {
      client.setQueryData(insightKeys.one(insight.short_id), insight);
      return client.invalidateQueries({ queryKey: insightKeys.list(propertyId) });
    },
  });
}

export function useRestoreInsight(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shortId: string) => restoreInsight(shortId),
    onSuccess: (insight) => {
      client.setQueryData(insightKeys.one(insight.short_id), insight);
      return client.invalidateQueries({ queryKey: insightKeys.list(propertyId) });
    },
  });
}

export function useDuplicateInsight(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shortId: string) => duplicateInsight(shortId),
    onSuccess: () => client.invalidateQueries({ queryKey: insightKeys.list(propertyId) }),
  });
}
