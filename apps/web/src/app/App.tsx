// The app root: session and layout state around the router.
import { RouterProvider } from "react-router-dom";
import { SessionProvider } from "../features/auth/session";
import { LayoutProvider } from "../features/shell/layout-store";
import { createRouter } from "./router";

const router = createRouter();

export function App() {
  return (
    <SessionProvider>
      <LayoutProvider>
        <RouterProvider router={router} />
      </LayoutProvider>
    </SessionProvider>
  );
}
