// The signed-in session (SPEC.md §3, §4): token, account ids and e-mail, kept in localStorage under
// the spec's keys so a reload stays signed in, and followed across tabs so signing out in one tab
// signs out all of them.
import type { LoginResponse } from "@lookout/schema";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { StorageKey } from "../../lib/storage-keys";

export interface Session {
  token: string;
  accountId: string;
  accountId2: string;
  email: string;
}

interface SessionApi {
  session: Session | null;
  signIn: (answer: LoginResponse) => void;
  /** Forgets the session in this browser (every tab); revoking on the server is the caller's job. */
  signOut: () => void;
}

const SessionContext = createContext<SessionApi | null>(null);

const SESSION_KEYS = [StorageKey.token, StorageKey.accountId, StorageKey.accountId2, StorageKey.email] as const;

function readSession(): Session | null {
  try {
    const token = localStorage.getItem(StorageKey.token);
    if (!token) return null;
    return {
      token,
      accountId: localStorage.getItem(StorageKey.accountId) ?? "",
      accountId2: localStorage.getItem(StorageKey.accountId2) ?? "",
      email: localStorage.getItem(StorageKey.email) ?? "",
    };
  } catch {
    // Storage blocked: a shared dashboard embedded in another site where third-party storage is
    // refused (reading localStorage then throws). No session there, and none needed.
    return null;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState(readSession);

  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || (SESSION_KEYS as readonly string[]).includes(e.key)) setSession(readSession());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const signIn = useCallback((answer: LoginResponse) => {
    localStorage.setItem(StorageKey.token, answer.token);
    localStorage.setItem(StorageKey.accountId, answer.accountId);
    localStorage.setItem(StorageKey.accountId2, answer.accountId2);
    localStorage.setItem(StorageKey.email, answer.email);
    setSession(readSession());
  }, []);

  const signOut = useCallback(() => {
    for (const key of SESSION_KEYS) localStorage.removeItem(key);
    // The next user of this browser must not inherit the previous user's property.
    localStorage.removeItem(StorageKey.currentProperty);
    setSession(null);
  }, []);

  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error("useSession outside SessionProvider");
  return api;
}

/** The session of a screen behind the gate, where one always exists. */
export function useSignedInSession(): Session {
  const { session } = useSession();
  if (!session) throw new Error("useSignedInSession outside the authentication gate");
  return session;
}
