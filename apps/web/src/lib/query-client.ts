// The web app's one TanStack Query client (DESIGN.md §2): every server answer the screens show
// lives in its cache, keyed by what was asked (features/<domain>/queries.ts), and every failed
// call passes one handler that turns a 401 into sign-out and /login (SPEC.md §4).
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isUnauthorized } from "./http";

export interface QueryClientHooks {
  /** Called once per failed call that answered 401, whatever screen made it. */
  onUnauthorized: () => void;
}

export function createQueryClient({ onUnauthorized }: QueryClientHooks): QueryClient {
  const onError = (err: unknown) => {
    if (isUnauthorized(err)) onUnauthorized();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        // A failed panel shows its error with a Retry button at once; repeating a 4xx cannot
        // help, and silent retries would hide a server that is down behind a spinner.
        retry: false,
        // Statistics change by the second, but a refetch on every focus of the tab would make
        // the panels blink while someone switches windows; screens poll where they need to.
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
