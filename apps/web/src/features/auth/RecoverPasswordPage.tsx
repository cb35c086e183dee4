// /recover-password (SPEC.md §2, §4, §8): one e-mail field, "Recover Password" / "Submitting...",
// then a success or an error banner.
import { cilEnvelopeClosed } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CForm, CFormInput, CFormLabel, CInputGroup, CInputGroupText } from "@coreui/react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { messageOf } from "../../lib/http";
import { AuthLayout } from "./AuthLayout";
import { recoverPassword } from "./api";
import { BusyButton } from "./BusyButton";
import { RECOVERY_FAILED, RECOVERY_SENT } from "./messages";

type Outcome = { ok: true } | { ok: false; message: string } | null;

export default function RecoverPasswordPage() {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      await recoverPassword(email);
      setOutcome({ ok: true });
    } catch (err) {
      setOutcome({ ok: false, message: messageOf(err, RECOVERY_FAILED) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      intro="Enter the e-mail address of your account and we will send you a link to choose a new password."
    >
      <CForm onSubmit={submit}>
        {outcome && (
          <CAlert color={outcome.ok ? "success" : "danger"} role={outcome.ok ? "status" : "alert"}>
            {outcome.ok ? RECOVERY_SENT : outcome.message}
          </CAlert>
        )}
        <CFormLabel htmlFor="recover-email">E-mail address</CFormLabel>
        <CInputGroup className="mb-4">
          <CInputGroupText>
            <CIcon icon={cilEnvelopeClosed} aria-hidden="true" />
          </CInputGroupText>
          <CFormInput
            id="recover-email"
            type="email"
            name="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </CInputGroup>
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <BusyButton busy={busy} idleText="Recover Password" busyText="Submitting..." />
          <Link to="/login">Back to Login</Link>
        </div>
      </CForm>
    </AuthLayout>
  );
}
