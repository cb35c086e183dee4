// The password page of a protected shared link, in the style of the sign-in screen: one field;
// a wrong password says so, a right one sets the link's cookie and the dashboard follows.
import { cilLockLocked } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CForm, CFormInput, CFormLabel, CInputGroup, CInputGroupText } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ShareAuthBody, ShareAuthBodySchema } from "@lookout/schema";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { messageOf } from "../../lib/http";
import { AuthLayout } from "../auth/AuthLayout";
import { BusyButton } from "../auth/BusyButton";
import { unlockShare } from "./api";

export const WRONG_PASSWORD = "Incorrect password. Please try again.";

export function SharePasswordForm({
  slug,
  propertyName,
  onUnlocked,
}: {
  slug: string;
  propertyName: string;
  onUnlocked: () => Promise<unknown>;
}) {
  const { register, handleSubmit, formState, setFocus } = useForm<ShareAuthBody>({
    resolver: zodResolver(ShareAuthBodySchema),
    defaultValues: { password: "" },
  });
  const [error, setError] = useState<string | null>(null);

  // Called directly rather than as a mutation: a wrong password answers 401, which the app's
  // query client would read as "your session is over".
  const submit = handleSubmit(async ({ password }) => {
    setError(null);
    try {
      await unlockShare(slug, password);
      await onUnlocked();
    } catch (err) {
      setError(messageOf(err, WRONG_PASSWORD));
      setFocus("password");
    }
  });

  return (
    <AuthLayout
      title="Password required"
      intro={`The statistics of ${propertyName} shared with this link are protected by a password.`}
    >
      <CForm onSubmit={submit} noValidate>
        {error && (
          <CAlert color="danger" role="alert">
            {error}
          </CAlert>
        )}
        <CFormLabel htmlFor="share-password">Password</CFormLabel>
        <CInputGroup className="mb-1">
          <CInputGroupText>
            <CIcon icon={cilLockLocked} aria-hidden="true" />
          </CInputGroupText>
          <CFormInput
            id="share-password"
            type="password"
            // Not the browser's saved sign-in password for this site: a link's password is another.
            autoComplete="off"
            autoFocus
            invalid={!!formState.errors.password}
            aria-describedby={formState.errors.password ? "share-password-error" : undefined}
            {...register("password")}
          />
        </CInputGroup>
        <div id="share-password-error" className="small text-danger mb-3" aria-live="polite">
          {formState.errors.password?.message ? "Enter the password." : ""}
        </div>
        <BusyButton busy={formState.isSubmitting} idleText="View statistics" busyText="Checking..." />
      </CForm>
    </AuthLayout>
  );
}
