// Holds the one QueryClient of the app (lib/query-client) inside the session, so its 401 handler
// can sign out, and drops every cached answer when the session ends: the next user of this
// browser must not see the previous one's statistics, even for a moment.
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useSession } from "../features/auth/session";
import { createQueryClient } from "../lib/query-client";

export function QueryProvider({ children, toLogin }: { children: ReactNode; toLogin: () => void }) {
  const { session, signOut } = useSession();
  // The client is made once; the handler reads the latest callbacks through a ref.
  const latest = useRef({ signOut, toLogin });
  latest.current = { signOut, toLogin };
  const [client] = useState(() =>
    createQueryClient({
      onUnauthorized: () => {
        latest.current.signOut();
        latest.current.toLogin();
      },
    }),
  );

  const token = session?.token ?? null;
  const lastToken = useRef(token);
  useEffect(() => {
    if (lastToken.current !== null && lastToken.current !== token) client.clear();
    lastToken.current = token;
  }, [token, client]);

  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
