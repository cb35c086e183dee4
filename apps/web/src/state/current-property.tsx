// The property list and the current property (SPEC.md §3, §4): the list comes from the
// get-properties query (features/properties), the selection is restored from localStorage and
// kept in step across tabs by the `storage` event. A 401 while loading signs the user out and
// sends them to /login (the query client's one handler); other failures are only logged (§8).
import type { CurrentProperty, Property } from "@lookout/schema";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useSession } from "../features/auth/session";
import { usePropertyList } from "../features/properties/queries";
import { StorageKey } from "../lib/storage-keys";
import { parseStoredProperty, pickProperty, serializeProperty } from "./property-selection";

type LoadStatus = "loading" | "ready" | "failed";

interface PropertyApi {
  properties: Property[];
  status: LoadStatus;
  current: CurrentProperty | null;
  select: (uniqueId: string) => void;
  clear: () => void;
  reload: () => void;
}

const PropertyContext = createContext<PropertyApi | null>(null);

const readStored = () => parseStoredProperty(localStorage.getItem(StorageKey.currentProperty));
const NO_PROPERTIES: Property[] = [];

export function PropertyProvider({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const [current, setCurrent] = useState(readStored);
  const token = session?.token;
  const accountId = session?.accountId || null;
  const missing = !token ? "Authentication token is missing." : !accountId ? "Account id is missing." : null;
  const list = usePropertyList(missing ? null : accountId);

  useEffect(() => {
    if (missing) console.error(missing);
  }, [missing]);

  const properties = list.data ?? NO_PROPERTIES;
  // Every load reads as loading, a reload after a failure too (the picker shows its spinner).
  const status: LoadStatus = missing ? "failed" : list.isFetching ? "loading" : list.isSuccess ? "ready" : "failed";

  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === StorageKey.currentProperty || e.key === null) setCurrent(readStored());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const select = useCallback(
    (uniqueId: string) => {
      const chosen = pickProperty(properties, uniqueId);
      localStorage.setItem(StorageKey.currentProperty, serializeProperty(chosen));
      setCurrent(chosen);
    },
    [properties],
  );

  const clear = useCallback(() => {
    localStorage.removeItem(StorageKey.currentProperty);
    setCurrent(null);
  }, []);

  const { refetch } = list;
  const reload = useCallback(() => void refetch(), [refetch]);

  const value = useMemo(
    () => ({ properties, status, current, select, clear, reload }),
    [properties, status, current, select, clear, reload],
  );
  return <PropertyContext.Provider value={value}>{children}</PropertyContext.Provider>;
}

export function useProperties(): PropertyApi {
  const api = useContext(PropertyContext);
  if (!api) throw new Error("useProperties outside PropertyProvider");
  return api;
}
