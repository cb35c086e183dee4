// /reset-password?token= (the e-mailed link): choose a new password, confirm it, and go back to
// /login. The server decides whether the token is still good and says why when it is not.
import { cilLockLocked } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CForm, CFormInput, CFormLabel, CFormText, CInputGroup, CInputGroupText } from "@coreui/react";
import { PASSWORD_MAX, PASSWORD_MIN } from "@lookout/schema";
import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { messageOf } from "../../lib/http";
import { AuthLayout } from "./AuthLayout";
import { resetPassword } from "./api";
import { BusyButton } from "./BusyButton";
import { RESET_DONE, RESET_FAILED, RESET_MISMATCH, RESET_NO_TOKEN } from "./messages";

type Outcome = { ok: true; message: string } | { ok: false; message: string } | null;

function PasswordField(props: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <>
      <CFormLabel htmlFor={props.id}>{props.label}</CFormLabel>
      <CInputGroup>
        <CInputGroupText>
          <CIcon icon={cilLockLocked} aria-hidden="true" />
        </CInputGroupText>
        <CFormInput
          id={props.id}
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      </CInputGroup>
    </>
  );
}

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password.length < PASSWORD_MIN) {
      setOutcome({ ok: false, message: `Use at least ${PASSWORD_MIN} characters.` });
      return;
    }
    if (password !== confirm) {
      setOutcome({ ok: false, message: RESET_MISMATCH });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ ok: true, message: (await resetPassword(token, password)) ?? RESET_DONE });
    } catch (err) {
      setOutcome({ ok: false, message: messageOf(err, RESET_FAILED) });
    } finally {
      setBusy(false);
    }
  }

  const done = outcome?.ok === true;
  return (
    <AuthLayout title="Choose a new password" intro="Pick a password you do not use anywhere else.">
      {!token ? (
        <CAlert color="warning" role="alert">
          {RESET_NO_TOKEN}
        </CAlert>
      ) : (
        <CForm onSubmit={submit}>
          {outcome && (
            <CAlert color={outcome.ok ? "success" : "danger"} role={outcome.ok ? "status" : "alert"}>
              {outcome.message}
            </CAlert>
          )}
          {!done && (
            <>
              <div className="mb-3">
                <PasswordField id="reset-password" label="New password" value={password} onChange={setPassword} />
                <CFormText>At least {PASSWORD_MIN} characters.</CFormText>
              </div>
              <div className="mb-4">
                <PasswordField id="reset-confirm" label="Repeat the new password" value={confirm} onChange={setConfirm} />
              </div>
              <BusyButton busy={busy} idleText="Set Password" busyText="Saving..." />
            </>
          )}
        </CForm>
      )}
      <div className="mt-3 d-flex flex-wrap gap-3">
        <Link to="/login">Back to Login</Link>
        {!done && <Link to="/recover-password">Request a new link</Link>}
      </div>
    </AuthLayout>
  );
}
