// The property list and the current property (SPEC.md §3, §4): the list comes from the
// get-properties query (features/properties), the selection is restored from localStorage and
// kept in step across tabs by the `storage` event. A 401 while loading signs the user out and
// sends them to /login (the query client's one handler); other failures are only logged (§8).
// The URL names the site too (`/dashboard?property=<unique_id>`, `/live?property=…`), so a link
// opens the same site for any member: a newly seen `property` in the URL wins (a pasted link,
// back/forward) and becomes the stored selection once the list holds it; one the list lacks is not
// stored, and `linkUnknown` lets the picker say so. Choosing or clearing a property here rewrites
// the parameter; the dashboard also writes it with the rest of its view (use-dashboard-state).
import type { CurrentProperty, Property } from "@lookout/schema";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { useSession } from "../features/auth/session";
import { usePropertyList } from "../features/properties/queries";
import { StorageKey } from "../lib/storage-keys";
import {
  type ListStatus,
  PROPERTY_ROUTES,
  parseStoredProperty,
  pickProperty,
  readLinkedProperty,
  resolveLinkedProperty,
  serializeProperty,
  withLinkedProperty,
} from "./property-selection";

type LoadStatus = ListStatus;

/** The screen that writes its own URL, property included (features/dashboard/use-dashboard-state). */
const WRITES_OWN_URL = "/dashboard";

interface PropertyApi {
  properties: Property[];
  status: LoadStatus;
  current: CurrentProperty | null;
  /** The id a link named that is not among the user's properties (the picker says so), else null. */
  linkUnknown: string | null;
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
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const carriesProperty = PROPERTY_ROUTES.includes(pathname);
  const linked = carriesProperty ? readLinkedProperty(params) : null;
  // A link's property counts when the URL's value changes (or on load), not on every render: a
  // choice in the picker must not be undone by the URL it has not rewritten yet.
  const [seenLink, setSeenLink] = useState(linked);
  const [pendingLink, setPendingLink] = useState(() => (linked && linked !== current?.unique_id ? linked : null));
  if (linked !== seenLink) {
    setSeenLink(linked);
    setPendingLink(linked && linked !== current?.unique_id ? linked : null);
  }
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

  // Memoised: the chosen object must keep its identity between renders (effects and memos use it).
  const step = useMemo(
    () => (pendingLink ? resolveLinkedProperty(pendingLink, properties, status) : null),
    [pendingLink, properties, status],
  );
  const linkedChoice = step?.kind === "select" ? step.property : null;
  // While a link's property is waiting for the list, or unknown, no other property is shown.
  const shown = step ? linkedChoice : current;
  const linkUnknown = step?.kind === "unknown" ? step.id : null;

  // The link's property, once found, becomes the stored selection (SPEC.md §3).
  useEffect(() => {
    if (!linkedChoice) return;
    localStorage.setItem(StorageKey.currentProperty, serializeProperty(linkedChoice));
    setCurrent(linkedChoice);
    setPendingLink(null);
  }, [linkedChoice]);

  // The live view's URL names its property; the dashboard writes its own (with period and filters).
  const shownId = shown?.unique_id ?? null;
  useEffect(() => {
    if (!carriesProperty || pathname === WRITES_OWN_URL || pendingLink) return;
    if (readLinkedProperty(params) !== shownId) setParams(withLinkedProperty(params, shownId), { replace: true });
  }, [carriesProperty, pathname, pendingLink, params, shownId, setParams]);

  // select and clear rewrite the URL from its latest state without changing identity on each URL.
  const latest = useRef({ params, carriesProperty, setParams });
  latest.current = { params, carriesProperty, setParams };
  const rewriteLink = useCallback((id: string | null, push: boolean) => {
    const { params: p, carriesProperty: carries, setParams: set } = latest.current;
    if (carries && readLinkedProperty(p) !== id) set(withLinkedProperty(p, id), { replace: !push });
  }, []);

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
      setPendingLink(null);
      // Another site is a step the back button can undo (and the URL then wins again).
      rewriteLink(chosen.unique_id, true);
    },
    [properties, rewriteLink],
  );

  const clear = useCallback(() => {
    localStorage.removeItem(StorageKey.currentProperty);
    setCurrent(null);
    setPendingLink(null);
    rewriteLink(null, false);
  }, [rewriteLink]);

  const { refetch } = list;
  const reload = useCallback(() => void refetch(), [refetch]);

  const value = useMemo(
    () => ({ properties, status, current: shown, linkUnknown, select, clear, reload }),
    [properties, status, shown, linkUnknown, select, clear, reload],
  );
  return <PropertyContext.Provider value={value}>{children}</PropertyContext.Provider>;
}

export function useProperties(): PropertyApi {
  const api = useContext(PropertyContext);
  if (!api) throw new Error("useProperties outside PropertyProvider");
  return api;
}
