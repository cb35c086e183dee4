// The property list as a query: one cache entry per account. A 401 is the global handler's
// (lib/query-client); any other failure is only logged (SPEC.md §8).
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { isUnauthorized } from "../../lib/http";
import { getProperties } from "./api";

export const propertyKeys = {
  all: ["properties"] as const,
  list: (accountId: string) => ["properties", "list", accountId] as const,
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
