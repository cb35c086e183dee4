// /logout (SPEC.md §2, §4): revokes the token on the server, forgets the session in the browser and
// lands on /login. The server has already cleared the cookie session when this was a full-page load.
import { CSpinner } from "@coreui/react";
import { useEffect } from "react";
import { useNavigate } from "react-router-dom";
import { revokeToken } from "./revoke";
import { useSession } from "./session";

export function LogoutPage() {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const token = session?.token;

  useEffect(() => {
    let cancelled = false;
    const revoke = token ? revokeToken() : Promise.resolve();
    revoke
      // An already-dead token or an unreachable server must not keep the user signed in here.
      .catch((err: unknown) => console.error("Logout: could not revoke the token", err))
      .finally(() => {
        signOut();
        if (!cancelled) navigate("/login", { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [token, signOut, navigate]);

  return (
    <div className="min-vh-100 d-flex align-items-center justify-content-center gap-2" role="status">
      <CSpinner size="sm" aria-hidden="true" />
      <span>Signing out…</span>
    </div>
  );
}
