// Opens the live socket once a session token exists and closes it on logout (SPEC.md §4), and
// shares the one visitor list with every screen: the header's count, the dashboard's "Live now"
// card and the Live View all read the same store, so they always show the same number.
import { liveCount } from "@lookout/schema";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";
import { LiveSocket, type LiveSocketState, liveSocketUrl } from "../../lib/live-socket";
import { StorageKey } from "../../lib/storage-keys";
import { useSession } from "../auth/session";
import { ofProperty, uncountedActive } from "./live-stats";
import { type LiveEntry, LiveStore } from "./live-store";

interface LiveApi {
  store: LiveStore;
  connection: LiveSocketState;
  /** Starts over after a pause (or retries at once while waiting). */
  reconnect: () => void;
}

const LiveContext = createContext<LiveApi | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const token = session?.token;
  const accountId = session?.accountId;
  const [store] = useState(() => new LiveStore());
  const [socket, setSocket] = useState<LiveSocket | null>(null);
  const [connection, setConnection] = useState<LiveSocketState>({ kind: "stopped" });

  useEffect(() => {
    if (!token || !accountId) return;
    const s = new LiveSocket({
      url: liveSocketUrl(),
      // SPEC.md §7: agentInfo carries the stored accountId.
      accountId: () => localStorage.getItem(StorageKey.accountId) || accountId,
      onMessage: (m) => store.apply(m),
      onState: setConnection,
    });
    setSocket(s);
    s.start();
    return () => {
      s.stop();
      // The next user of this browser must not see the previous one's visitors.
      store.clear();
      setSocket(null);
    };
  }, [token, accountId, store]);

  const reconnect = useCallback(() => socket?.reconnect(), [socket]);
  const value = useMemo(() => ({ store, connection, reconnect }), [store, connection, reconnect]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

function useLiveApi(): LiveApi {
  const api = useContext(LiveContext);
  if (!api) throw new Error("live hooks outside LiveProvider");
  return api;
}

/** Every visitor the socket has told us about, active and recently left, all properties. */
export function useLiveVisitors(): readonly LiveEntry[] {
  const { store } = useLiveApi();
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/** SPEC.md §5's displayed count for a property; re-renders only when the number changes. */
export function useLiveCount(propertyId: string | undefined): number {
  const { store } = useLiveApi();
  const read = useCallback(() => liveCount(store.getSnapshot(), propertyId), [store, propertyId]);
  return useSyncExternalStore(store.subscribe, read);
}

/** Active visitors of a property left out of the count for want of a country (uncountedActive). */
export function useUncountedLive(propertyId: string | undefined): number {
  const { store } = useLiveApi();
  const read = useCallback(
    () => (propertyId ? uncountedActive(ofProperty(store.getSnapshot(), propertyId)) : 0),
    [store, propertyId],
  );
  return useSyncExternalStore(store.subscribe, read);
}

export function useLiveConnection(): Pick<LiveApi, "connection" | "reconnect"> {
  const { connection, reconnect } = useLiveApi();
  return { connection, reconnect };
}
