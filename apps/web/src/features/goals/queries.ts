// A property's goals as a query; creating and deleting refresh the list and the property's stats
// (the dashboard's Goals panel counts the configured goals).
import type { CreateGoalBody } from "@lookout/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { statsKeys } from "../dashboard/queries";
import { createGoal, deleteGoal, listGoals } from "./api";

export const goalKeys = {
  all: ["goals"] as const,
  list: (propertyId: string) => ["goals", propertyId] as const,
};

export function useGoals(propertyId: string) {
  return useQuery({
    queryKey: goalKeys.list(propertyId),
    queryFn: ({ signal }) => listGoals(propertyId, signal),
  });
}

function useRefresh(propertyId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: goalKeys.list(propertyId) }),
      client.invalidateQueries({ queryKey: statsKeys.property(propertyId) }),
    ]);
}

export function useCreateGoal(propertyId: string) {
  const refresh = useRefresh(propertyId);
  return useMutation({ mutationFn: (body: CreateGoalBody) => createGoal(propertyId, body), onSuccess: refresh });
}

export function useDeleteGoal(propertyId: string) {
  const refresh = useRefresh(propertyId);
  return useMutation({ mutationFn: (id: string) => deleteGoal(propertyId, id), onSuccess: refresh });
}
