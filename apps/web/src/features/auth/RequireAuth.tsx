// The authentication gate (SPEC.md §2): a visitor without a stored token goes to /login. The login
// screen is told where they were going (`/login?next=…`, lib/return-to) so a deep link's property,
// period and filters survive sign-in; a query parameter, not router state, so it survives a reload.
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { loginPathFor } from "../../lib/return-to";
import { useSession } from "./session";

export function RequireAuth() {
  const { session } = useSession();
  const { pathname, search, hash } = useLocation();
  return session ? <Outlet /> : <Navigate to={loginPathFor(`${pathname}${search}${hash}`)} replace />;
}
