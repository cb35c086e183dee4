// Settings › Account: the account's name (admins and owners change it; others read it) and, for
// owners only, the danger zone: deleting the account with its properties, events and members'
// access, after typing its name. A deleted account cannot hold the session, so the screen then
// signs out (/logout); the next sign-in opens the user's other account or a fresh empty one.
import { CAlert, CButton, CCard, CCardBody, CForm, CFormInput, CFormLabel, CSpinner } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { AccountPatchBodySchema } from "@lookout/schema";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router-dom";
import type { z } from "zod";
import { TypedConfirmModal } from "../../../components/TypedConfirmModal";
import { messageOf } from "../../../lib/http";
import { useDeleteAccount, useRenameAccount } from "../../accounts/queries";
import { useSignedInSession } from "../../auth/session";
import { useMe } from "../../me/queries";
import type { SectionProps } from "../section-props";
import "../../me/account-settings.css";

type NameForm = z.infer<typeof AccountPatchBodySchema>;

function RenameForm({ accountId, name }: { accountId: string; name: string }) {
  const id = useId();
  const rename = useRenameAccount(accountId);
  const [saved, setSaved] = useState(false);
  const { register, handleSubmit, formState } = useForm<NameForm>({
    resolver: zodResolver(AccountPatchBodySchema),
    values: { name },
  });
  const submit = handleSubmit(async (form) => {
    setSaved(false);
    try {
      await rename.mutateAsync(form.name);
      setSaved(true);
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const error = formState.errors.name?.message;
  return (
    <CForm onSubmit={submit} noValidate className="mb-4">
      <CFormLabel htmlFor={`${id}-name`}>Account name</CFormLabel>
      <div className="d-flex flex-wrap gap-2 align-items-start">
        <div className="settings-grow-field">
          <CFormInput
            id={`${id}-name`}
            autoComplete="organization"
            invalid={!!error}
            feedbackInvalid={error}
            {...register("name")}
          />
        </div>
        <CButton type="submit" color="primary" disabled={rename.isPending}>
          {rename.isPending && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
          Save
        </CButton>
      </div>
      <div aria-live="polite" className="small mt-1">
        {saved && !rename.isPending && <span>Saved.</span>}
      </div>
      {rename.error && (
        <CAlert color="danger" className="mt-2 mb-0" role="alert">
          {messageOf(rename.error, "The name could not be saved.")}
        </CAlert>
      )}
    </CForm>
  );
}

function DangerZone({ accountId, name }: { accountId: string; name: string }) {
  const navigate = useNavigate();
  const remove = useDeleteAccount(accountId);
  const [open, setOpen] = useState(false);
  return (
    <CCard className="border-danger">
      <CCardBody>
        <h3 className="h6">Danger zone</h3>
        <p className="mb-3">
          Deleting the account deletes all its properties with their statistics, its API keys, shared links and report schedules,
          and every member’s access. This cannot be undone.
        </p>
        <CButton
          color="danger"
          variant="outline"
          onClick={() => {
            remove.reset();
            setOpen(true);
          }}
        >
          Delete account
        </CButton>
      </CCardBody>
      {open && (
        <TypedConfirmModal
          title="Delete this account?"
          expected={name}
          action="Delete account"
          busy={remove.isPending || remove.isSuccess}
          error={remove.error ? messageOf(remove.error, "The account could not be deleted.") : null}
          onClose={() => setOpen(false)}
          onConfirm={() => remove.mutate(name, { onSuccess: () => navigate("/logout", { replace: true }) })}
        >
          <p className="mb-0">
            <strong className="text-break">{name}</strong>, its properties, their events and its members’ access will be deleted
            for good. You will be signed out.
          </p>
        </TypedConfirmModal>
      )}
    </CCard>
  );
}

export default function AccountSection({ canEdit, can }: SectionProps) {
  const { accountId } = useSignedInSession();
  const me = useMe();
  if (me.error) {
    return (
      <CAlert color="danger" role="alert">
        {messageOf(me.error, "The account could not be loaded.")}
      </CAlert>
    );
  }
  if (!me.data) {
    return (
      <div className="text-center py-3" role="status">
        <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading the account</span>
      </div>
    );
  }
  const account = me.data.accounts.find((a) => a.id === accountId);
  if (!account) return <p className="mb-0">This account no longer exists. Sign out and in again to open another one.</p>;
  return (
    <>
      {canEdit ? (
        <RenameForm accountId={accountId} name={account.name} />
      ) : (
        <dl className="mb-4">
          <dt>Account name</dt>
          <dd className="text-break">{account.name}</dd>
        </dl>
      )}
      {can("own") ? (
        <DangerZone accountId={accountId} name={account.name} />
      ) : (
        <p className="text-body-secondary mb-0">Only an owner can delete the account.</p>
      )}
    </>
  );
}
