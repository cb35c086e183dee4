// The user's name and e-mail. A new e-mail needs the current password (asked for only once the
// address changes); the server also refuses an address another user has. After a change of
// e-mail the session in this browser carries the new address (the header's menu shows it).
import { CAlert, CButton, CForm, CFormInput, CFormLabel, CSpinner } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { ACCOUNT_NAME_MAX, text, UserEmailSchema } from "@lookout/schema";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { HttpError, messageOf } from "../../lib/http";
import { useSession, useSignedInSession } from "../auth/session";
import { useUpdateMe } from "./queries";

const ProfileFormSchema = z.object({
  name: text().trim().max(ACCOUNT_NAME_MAX, `The name must be at most ${ACCOUNT_NAME_MAX} characters.`),
  email: UserEmailSchema,
  current_password: z.string(),
});
type ProfileFormInput = z.input<typeof ProfileFormSchema>;
type ProfileFormOutput = z.output<typeof ProfileFormSchema>;

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function ProfileForm({ name, email }: { name: string; email: string }) {
  const id = useId();
  const session = useSignedInSession();
  const { signIn } = useSession();
  const update = useUpdateMe();
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, watch, setError, setValue, formState } = useForm<ProfileFormInput, unknown, ProfileFormOutput>({
    resolver: zodResolver(ProfileFormSchema),
    values: { name, email, current_password: "" },
  });
  const emailChanged = !sameAddress(watch("email") ?? "", email);

  const submit = handleSubmit(async (form) => {
    setSaved(false);
    setFailure(null);
    if (emailChanged && form.current_password === "") {
      setError("current_password", { message: "Enter your current password to change your e-mail address." });
      return;
    }
    try {
      const after = await update.mutateAsync({
        name: form.name,
        ...(form.email !== email ? { email: form.email } : {}),
        ...(emailChanged ? { current_password: form.current_password } : {}),
      });
      if (after.email !== session.email) signIn({ ...session, email: after.email });
      setValue("current_password", "");
      setSaved(true);
    } catch (err) {
      const code = err instanceof HttpError ? err.code : null;
      const message = messageOf(err, "Your profile could not be saved.");
      if (code === "wrong_password") setError("current_password", { message });
      else if (code === "email_taken") setError("email", { message });
      else setFailure(message);
    }
  });

  const { errors } = formState;
  return (
    <CForm onSubmit={submit} noValidate className="mb-2">
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-name`}>Name</CFormLabel>
        <CFormInput
          id={`${id}-name`}
          autoComplete="name"
          invalid={!!errors.name}
          feedbackInvalid={errors.name?.message}
          {...register("name")}
        />
      </div>
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-email`}>E-mail address</CFormLabel>
        <CFormInput
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          invalid={!!errors.email}
          feedbackInvalid={errors.email?.message}
          {...register("email")}
        />
      </div>
      {emailChanged && (
        <div className="mb-3">
          <CFormLabel htmlFor={`${id}-current`}>Current password</CFormLabel>
          <CFormInput
            id={`${id}-current`}
            type="password"
            autoComplete="current-password"
            aria-describedby={`${id}-current-help`}
            invalid={!!errors.current_password}
            feedbackInvalid={errors.current_password?.message}
            {...register("current_password")}
          />
          <div id={`${id}-current-help`} className="form-text">
            Changing your e-mail address needs your current password.
          </div>
        </div>
      )}
      {failure && (
        <CAlert color="danger" role="alert">
          {failure}
        </CAlert>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2">
        <CButton type="submit" color="primary" disabled={update.isPending}>
          {update.isPending && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
          Save profile
        </CButton>
        <span aria-live="polite" className="small">
          {saved && !update.isPending ? "Saved." : ""}
        </span>
      </div>
    </CForm>
  );
}
