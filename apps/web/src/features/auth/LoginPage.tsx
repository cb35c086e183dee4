// /login (SPEC.md §2, §4, §8): e-mail and password, "Log In" / "Logging in...", an error banner
// with the server's message, and /dashboard on success.
import { cilEnvelopeClosed, cilLockLocked } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CForm, CFormInput, CFormLabel, CInputGroup, CInputGroupText } from "@coreui/react";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { messageOf } from "../../lib/http";
import { AuthLayout } from "./AuthLayout";
import { logIn } from "./api";
import { BusyButton } from "./BusyButton";
import { LOGIN_FAILED } from "./messages";
import { useSession } from "./session";

export default function LoginPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signIn(await logIn(email, password));
      navigate("/dashboard", { replace: true });
    } catch (err) {
      setError(messageOf(err, LOGIN_FAILED));
      setBusy(false);
    }
  }

  return (
    <AuthLayout title="Sign in" intro="Welcome back. Sign in to your Lookout account.">
      <CForm onSubmit={submit}>
        {error && (
          <CAlert color="danger" role="alert">
            {error}
          </CAlert>
        )}
        <CFormLabel htmlFor="login-email">E-mail address</CFormLabel>
        <CInputGroup className="mb-3">
          <CInputGroupText>
            <CIcon icon={cilEnvelopeClosed} aria-hidden="true" />
          </CInputGroupText>
          <CFormInput
            id="login-email"
            type="email"
            name="email"
            autoComplete="username"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </CInputGroup>
        <CFormLabel htmlFor="login-password">Password</CFormLabel>
        <CInputGroup className="mb-4">
          <CInputGroupText>
            <CIcon icon={cilLockLocked} aria-hidden="true" />
          </CInputGroupText>
          <CFormInput
            id="login-password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </CInputGroup>
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <BusyButton busy={busy} idleText="Log In" busyText="Logging in..." />
          <Link to="/recover-password">Forgot password?</Link>
        </div>
      </CForm>
    </AuthLayout>
  );
}
