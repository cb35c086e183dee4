// The property list and the current property (SPEC.md §3, §4): loaded from get-properties,
// restored from localStorage, kept in step across tabs by the `storage` event. A 401 while
// loading signs the user out and sends them to /login; other failures are only logged (§8).
import type { CurrentProperty, Property } from "@lookout/schema";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useSession } from "../features/auth/session";
import { HttpError } from "../lib/http";
import { StorageKey } from "../lib/storage-keys";
import { getProperties } from "./properties-api";
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

export function PropertyProvider({ children }: { children: ReactNode }) {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const [properties, setProperties] = useState<Property[]>([]);
  const [status, setStatus] = useState<LoadStatus>("loading");
  const [current, setCurrent] = useState(readStored);
  const [attempt, setAttempt] = useState(0);
  const token = session?.token;
  const accountId = session?.accountId;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the reload trigger.
  useEffect(() => {
    if (!token || !accountId) {
      console.error(token ? "Account id is missing." : "Authentication token is missing.");
      setStatus("failed");
      return;
    }
    let live = true;
    setStatus("loading");
    getProperties(accountId).then(
      (list) => {
        if (!live) return;
        setProperties(list);
        setStatus("ready");
      },
      (err: unknown) => {
        if (!live) return;
        if (err instanceof HttpError && err.status === 401) {
          signOut();
          navigate("/login", { replace: true });
          return;
        }
        console.error("Could not load the properties", err);
        setStatus("failed");
      },
    );
    return () => {
      live = false;
    };
  }, [token, accountId, attempt, signOut, navigate]);

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

  const reload = useCallback(() => setAttempt((n) => n + 1), []);

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
