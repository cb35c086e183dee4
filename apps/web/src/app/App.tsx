// The app root: session, live feed and layout state around the router. The live socket opens as
// soon as a session token exists and closes on logout (SPEC.md §4).
import { RouterProvider } from "react-router-dom";
import { SessionProvider } from "../features/auth/session";
import { LiveProvider } from "../features/live/LiveProvider";
import { LayoutProvider } from "../features/shell/layout-store";
import { createRouter } from "./router";

const router = createRouter();

export function App() {
  return (
    <SessionProvider>
      <LiveProvider>
        <LayoutProvider>
          <RouterProvider router={router} />
        </LayoutProvider>
      </LiveProvider>
    </SessionProvider>
  );
}
