// The password change: the current password, the new one twice (the server's rules: at least
// PASSWORD_MIN characters). Success signs out every other session; this one stays.
import { CAlert, CButton, CForm, CFormInput, CFormLabel, CSpinner } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { PASSWORD_MIN, type PasswordChangeForm, PasswordChangeFormSchema } from "@lookout/schema";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { HttpError, messageOf } from "../../lib/http";
import { useChangePassword } from "./queries";

const EMPTY: PasswordChangeForm = { current_password: "", new_password: "", repeat_password: "" };

export function PasswordForm({ email }: { email: string }) {
  const id = useId();
  const change = useChangePassword();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, reset, setError, formState } = useForm<PasswordChangeForm>({
    resolver: zodResolver(PasswordChangeFormSchema),
    defaultValues: EMPTY,
  });

  const submit = handleSubmit(async ({ current_password, new_password }) => {
    setDone(null);
    setFailure(null);
    try {
      const r = await change.mutateAsync({ current_password, new_password });
      const others =
        r.revoked_sessions === 0
          ? "No other session was signed in."
          : `${r.revoked_sessions} other session${r.revoked_sessions === 1 ? " was" : "s were"} signed out.`;
      setDone(`Your password has been changed. ${others}`);
      reset(EMPTY);
    } catch (err) {
      const message = messageOf(err, "Your password could not be changed.");
      if (err instanceof HttpError && err.code === "wrong_password") setError("current_password", { message });
      else setFailure(message);
    }
  });

  const { errors } = formState;
  const field = (name: keyof PasswordChangeForm, label: string, autoComplete: string, help?: string) => (
    <div className="mb-3">
      <CFormLabel htmlFor={`${id}-${name}`}>{label}</CFormLabel>
      <CFormInput
        id={`${id}-${name}`}
        type="password"
        autoComplete={autoComplete}
        invalid={!!errors[name]}
        feedbackInvalid={errors[name]?.message}
        {...(help ? { "aria-describedby": `${id}-${name}-help` } : {})}
        {...register(name)}
      />
      {help && (
        <div id={`${id}-${name}-help`} className="form-text">
          {help}
        </div>
      )}
    </div>
  );

  return (
    <CForm onSubmit={submit} noValidate className="mb-2" aria-label="Change password">
      {/* For password managers: which account this new password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      {field("current_password", "Current password", "current-password")}
      {field("new_password", "New password", "new-password", `At least ${PASSWORD_MIN} characters.`)}
      {field("repeat_password", "Repeat the new password", "new-password")}
      {failure && (
        <CAlert color="danger" role="alert">
          {failure}
        </CAlert>
      )}
      {done && (
        <CAlert color="success" role="status">
          {done}
        </CAlert>
      )}
      <CButton type="submit" color="primary" disabled={change.isPending}>
        {change.isPending && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
        Change password
      </CButton>
    </CForm>
  );
}
