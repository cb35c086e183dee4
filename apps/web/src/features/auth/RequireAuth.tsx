// The authentication gate (SPEC.md §2): a visitor without a stored token goes to /login.
import { Navigate, Outlet } from "react-router-dom";
import { useSession } from "./session";

export function RequireAuth() {
  const { session } = useSession();
  return session ? <Outlet /> : <Navigate to="/login" replace />;
}
