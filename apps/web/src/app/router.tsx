// The route tree (SPEC.md §2): the public screens, /logout, and everything else behind the
// authentication gate inside the shell, one route per entry of the screen registry
// (features/shell/screens.ts). Screens load lazily so the first page stays small.
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router-dom";
import { LogoutPage } from "../features/auth/LogoutPage";
import { RequireAuth } from "../features/auth/RequireAuth";
import { SCREEN_LIST } from "../features/shell/screens";

const LoginPage = lazy(() => import("../features/auth/LoginPage"));
const RecoverPasswordPage = lazy(() => import("../features/auth/RecoverPasswordPage"));
const ResetPasswordPage = lazy(() => import("../features/auth/ResetPasswordPage"));
const DefaultLayout = lazy(() => import("../features/shell/DefaultLayout"));
const SharePage = lazy(() => import("../features/sharing/SharePage"));
const InvitePage = lazy(() => import("../features/team/InvitePage"));

function page(Screen: LazyExoticComponent<ComponentType>) {
  // No visible fallback: the chunks are small and a flash of spinner reads worse than a blank frame.
  return (
    <Suspense fallback={null}>
      <Screen />
    </Suspense>
  );
}

const toDashboard = <Navigate to="/dashboard" replace />;

const routes: RouteObject[] = [
  { path: "/login", element: page(LoginPage) },
  { path: "/recover-password", element: page(RecoverPasswordPage) },
  { path: "/reset-password", element: page(ResetPasswordPage) },
  { path: "/logout", element: <LogoutPage /> },
  // A shared link's public dashboard: no sign-in, none of the shell.
  { path: "/share/:slug", element: page(SharePage) },
  // An e-mailed invitation: public, as the invited person may have no login yet (features/team).
  { path: "/invite/:token", element: page(InvitePage) },
  {
    element: <RequireAuth />,
    children: [
      {
        element: page(DefaultLayout),
        children: [
          { index: true, element: toDashboard },
          ...SCREEN_LIST.map(({ path, component: Screen }) => ({ path, element: <Screen /> })),
          { path: "*", element: toDashboard },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
