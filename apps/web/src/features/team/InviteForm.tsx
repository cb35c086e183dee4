// /team › Invite people (admins and owners): one or several addresses and one role; each gets
// a single-use link by e-mail, valid for 72 hours. The roles offered are those the inviter may
// give (admins up to admin, owners any). Addresses are checked here with the server's rule.
import { CAlert, CButton, CForm, CFormLabel, CFormSelect, CFormText, CFormTextarea, CSpinner } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { INVITATION_TTL_HOURS, type Role, RoleSchema } from "@lookout/schema";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { messageOf } from "../../lib/http";
import { parseEmailList } from "./email-list";
import { ROLE_HELP, ROLE_LABEL } from "./member-rules";
import { useInvite } from "./queries";

const FormSchema = z.object({ emails: z.string(), role: RoleSchema }).superRefine((v, ctx) => {
  const r = parseEmailList(v.emails);
  if (!r.ok) ctx.addIssue({ code: "custom", path: ["emails"], message: r.message });
});
type InviteFormValues = z.infer<typeof FormSchema>;

export function InviteForm({ accountId, roles }: { accountId: string; roles: Role[] }) {
  const id = useId();
  const send = useInvite(accountId);
  const [sent, setSent] = useState<string[]>([]);
  const defaultRole: Role = roles.includes("viewer") ? "viewer" : (roles[0] ?? "viewer");
  const { register, handleSubmit, reset, watch, formState } = useForm<InviteFormValues>({
    resolver: zodResolver(FormSchema),
    defaultValues: { emails: "", role: defaultRole },
  });
  const role = watch("role");
  const submit = handleSubmit(async (v) => {
    const list = parseEmailList(v.emails);
    if (!list.ok) return;
    setSent([]);
    try {
      const created = await send.mutateAsync(
        list.emails.length === 1 ? { email: list.emails[0] as string, role: v.role } : { emails: list.emails, role: v.role },
      );
      setSent(created.map((i) => i.email));
      reset({ emails: "", role: v.role });
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const err = formState.errors;
  return (
    <CForm onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className="team-invite-form">
      <h2 id={`${id}-title`} className="h5 mb-3">
        Invite people
      </h2>
      <div className="row g-3">
        <div className="col-12 col-md-7">
          <CFormLabel htmlFor={`${id}-emails`}>E-mail addresses</CFormLabel>
          <CFormTextarea
            id={`${id}-emails`}
            rows={3}
            placeholder={"ann@example.com\nbob@example.com"}
            aria-describedby={`${id}-emails-help`}
            invalid={!!err.emails}
            feedbackInvalid={err.emails?.message}
            {...register("emails")}
          />
          <CFormText id={`${id}-emails-help`}>
            One or several, a line each or separated by commas. Each gets a link by e-mail, valid for {INVITATION_TTL_HOURS} hours
            and usable once.
          </CFormText>
        </div>
        <div className="col-12 col-md-5">
          <CFormLabel htmlFor={`${id}-role`}>Role</CFormLabel>
          <CFormSelect id={`${id}-role`} aria-describedby={`${id}-role-help`} {...register("role")}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </CFormSelect>
          <CFormText id={`${id}-role-help`}>{ROLE_HELP[role]}</CFormText>
        </div>
      </div>
      <CButton type="submit" color="primary" className="mt-3" disabled={send.isPending}>
        {send.isPending && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
        Send invitations
      </CButton>
      {send.error && (
        <CAlert color="danger" className="mt-3 mb-0" role="alert">
          {messageOf(send.error, "The invitations could not be sent.")}
        </CAlert>
      )}
      {sent.length > 0 && (
        <CAlert color="success" className="mt-3 mb-0" role="status">
          Invitation sent to {sent.join(", ")}.
        </CAlert>
      )}
    </CForm>
  );
}
