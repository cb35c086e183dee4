// The properties as queries: the picker's list (one cache entry per account), the management
// list and one property's details, its install status; mutations refresh what they change, the
// picker's list included, so a new property is selectable at once. A 401 is the global
// handler's (lib/query-client); any other failure of the picker's list is only logged (SPEC.md §8).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { isUnauthorized } from "../../lib/http";
import {
  createProperty,
  deleteProperty,
  getAdminProperty,
  getInstallStatus,
  getProperties,
  listAdminProperties,
  type PropertyChange,
  type PropertyFields,
  resetProperty,
  updateProperty,
} from "./api";

export const propertyKeys = {
  all: ["properties"] as const,
  list: (accountId: string) => ["properties", "list", accountId] as const,
  admin: (accountId: string) => ["properties", "admin", accountId] as const,
  one: (id: string) => ["properties", "one", id] as const,
  install: (id: string) => ["properties", "install", id] as const,
};

/** The account's properties; disabled without an account id. */
export function usePropertyList(accountId: string | null) {
  const query = useQuery({
    queryKey: propertyKeys.list(accountId ?? ""),
    queryFn: ({ signal }) => getProperties(accountId ?? "", signal),
    enabled: accountId !== null,
  });
  const { error } = query;
  useEffect(() => {
    if (error && !isUnauthorized(error)) console.error("Could not load the properties", error);
  }, [error]);
  return query;
}

/** The management list: settings and events of the last 30 days. */
export function useAdminProperties(accountId: string) {
  return useQuery({
    queryKey: propertyKeys.admin(accountId),
    queryFn: ({ signal }) => listAdminProperties(accountId, signal),
  });
}

export function useAdminProperty(id: string) {
  return useQuery({ queryKey: propertyKeys.one(id), queryFn: ({ signal }) => getAdminProperty(id, signal), enabled: id !== "" });
}

export function useInstallStatus(id: string) {
  return useQuery({ queryKey: propertyKeys.install(id), queryFn: ({ signal }) => getInstallStatus(id, signal) });
}

/** Every property query is stale after a change (the picker's list, the admin list, the details). */
function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: propertyKeys.all });
}

export function useCreateProperty(accountId: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (fields: PropertyFields) => createProperty(accountId, fields), onSuccess: refresh });
}

export function useUpdateProperty(id: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (change: PropertyChange) => updateProperty(id, change), onSuccess: refresh });
}

export function useDeleteProperty() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: string) => deleteProperty(id), onSuccess: refresh });
}

export function useResetProperty() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: string) => resetProperty(id), onSuccess: refresh });
}
