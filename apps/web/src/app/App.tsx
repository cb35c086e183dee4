// The app root: session, server-state cache, live feed and layout state around the router. The
// live socket opens as soon as a session token exists and closes on logout (SPEC.md §4); a 401
// from any call signs out and lands on /login (app/QueryProvider).
import { RouterProvider } from "react-router-dom";
import { SessionProvider } from "../features/auth/session";
import { LiveProvider } from "../features/live/LiveProvider";
import { LayoutProvider } from "../features/shell/layout-store";
import { QueryProvider } from "./QueryProvider";
import { createRouter } from "./router";

const router = createRouter();
const toLogin = () => void router.navigate("/login", { replace: true });

export function App() {
  return (
    <SessionProvider>
      <QueryProvider toLogin={toLogin}>
        <LiveProvider>
          <LayoutProvider>
            <RouterProvider router={router} />
          </LayoutProvider>
        </LiveProvider>
      </QueryProvider>
    </SessionProvider>
  );
}
