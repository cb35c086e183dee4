// /login (SPEC.md §2, §4, §8): e-mail and password, "Log In" / "Logging in...", an error banner
// with the server's message, and on success /dashboard or the safe `next` the gate passed along
// (lib/return-to). The app's pattern for forms:
// react-hook-form holds the fields and the busy state, a shared zod schema (LoginFormSchema, which
// adds no validation of its own: SPEC.md §5) types them through the zod resolver. The fields are
// not `required` either: SPEC.md §5 allows no validation beyond input types (issue #19 asked for
// browser validation of empty fields; the spec wins), so an empty form gets the server's answer.
import { cilEnvelopeClosed, cilLockLocked } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CForm, CFormInput, CFormLabel, CInputGroup, CInputGroupText } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { type LoginForm, LoginFormSchema } from "@lookout/schema";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { messageOf } from "../../lib/http";
import { afterLoginTarget } from "../../lib/return-to";
import { AuthLayout } from "./AuthLayout";
import { logIn } from "./api";
import { BusyButton } from "./BusyButton";
import { LOGIN_FAILED } from "./messages";
import { useSession } from "./session";

export default function LoginPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { register, handleSubmit, formState } = useForm<LoginForm>({
    resolver: zodResolver(LoginFormSchema),
    defaultValues: { email: "", password: "" },
  });
  const [error, setError] = useState<string | null>(null);
  // On success the button stays busy until the dashboard replaces this screen.
  const [signedIn, setSignedIn] = useState(false);
  const busy = formState.isSubmitting || signedIn;

  const submit = handleSubmit(async ({ email, password }) => {
    setError(null);
    try {
      signIn(await logIn(email, password));
      setSignedIn(true);
      navigate(afterLoginTarget(params), { replace: true });
    } catch (err) {
      setError(messageOf(err, LOGIN_FAILED));
    }
  });

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
            autoComplete="username"
            placeholder="you@example.com"
            {...register("email")}
          />
        </CInputGroup>
        <CFormLabel htmlFor="login-password">Password</CFormLabel>
        <CInputGroup className="mb-4">
          <CInputGroupText>
            <CIcon icon={cilLockLocked} aria-hidden="true" />
          </CInputGroupText>
          <CFormInput id="login-password" type="password" autoComplete="current-password" {...register("password")} />
        </CInputGroup>
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <BusyButton busy={busy} idleText="Log In" busyText="Logging in..." />
          <Link to="/recover-password">Forgot password?</Link>
        </div>
      </CForm>
    </AuthLayout>
  );
}
