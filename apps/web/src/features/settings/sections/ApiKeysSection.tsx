// Settings › API keys (the account's): read-only keys for the Stats API. Admins and owners list
// them (name, prefix, creator, created, last used), create one (its secret shown once, with a copy
// button) and revoke one after a confirmation. Below admin the server lists nothing, so the
// section only says who can manage keys.
import { CAlert, CButton, CCard, CCardBody, CForm, CFormInput, CFormLabel, CInputGroup, CSpinner } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ApiKey, ApiKeyCreateBodySchema, type ApiKeyCreated } from "@lookout/schema";
import { createColumnHelper } from "@tanstack/react-table";
import { useId, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ConfirmModal } from "../../../components/ConfirmModal";
import { type DataColumn, DataTable, type dataTableFeatures } from "../../../components/DataTable";
import { messageOf } from "../../../lib/http";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../../api-keys/queries";
import { useSignedInSession } from "../../auth/session";
import { formatWhen } from "../../me/when";
import type { SectionProps } from "../section-props";
import "../../me/account-settings.css";

const NameFormSchema = ApiKeyCreateBodySchema.pick({ name: true });
type NameForm = z.infer<typeof NameFormSchema>;

const column = createColumnHelper<typeof dataTableFeatures, ApiKey>();

/** The secret of a key just created: shown this once, with a copy button. */
function NewKey({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <CCard className="border-success mb-4" data-testid="new-api-key">
      <CCardBody>
        <p className="fw-semibold mb-1">“{created.name}” is ready.</p>
        <p className="mb-2">Copy the key now and keep it somewhere safe: you will not see it again.</p>
        <CFormLabel htmlFor={`${id}-key`} className="visually-hidden">
          The new API key
        </CFormLabel>
        <CInputGroup className="mb-2">
          <CFormInput
            id={`${id}-key`}
            readOnly
            value={created.key}
            className="font-monospace"
            onFocus={(e) => e.target.select()}
          />
          <CButton color="primary" onClick={copy}>
            Copy
          </CButton>
        </CInputGroup>
        <div className="d-flex flex-wrap align-items-center gap-2">
          <CButton color="secondary" variant="outline" size="sm" onClick={onDone}>
            I have copied it
          </CButton>
          <span className="small" aria-live="polite">
            {copied === "done" ? "Copied." : copied === "failed" ? "Copying is blocked here; select the key instead." : ""}
          </span>
        </div>
      </CCardBody>
    </CCard>
  );
}

function CreateKeyForm({ accountId, onCreated }: { accountId: string; onCreated: (k: ApiKeyCreated) => void }) {
  const id = useId();
  const create = useCreateApiKey(accountId);
  const { register, handleSubmit, reset, formState } = useForm<NameForm>({
    resolver: zodResolver(NameFormSchema),
    defaultValues: { name: "" },
  });
  const submit = handleSubmit(async ({ name }) => {
    try {
      onCreated(await create.mutateAsync(name));
      reset();
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const nameError = formState.errors.name?.message;
  return (
    <CForm onSubmit={submit} className="mb-4" noValidate>
      <CFormLabel htmlFor={`${id}-name`}>New key’s name</CFormLabel>
      <div className="d-flex flex-wrap gap-2 align-items-start">
        <div className="settings-grow-field">
          <CFormInput
            id={`${id}-name`}
            placeholder="e.g. Nightly export"
            autoComplete="off"
            invalid={!!nameError}
            feedbackInvalid={nameError}
            {...register("name")}
          />
        </div>
        <CButton type="submit" color="primary" disabled={create.isPending}>
          {create.isPending && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
          Create key
        </CButton>
      </div>
      {create.error && (
        <CAlert color="danger" className="mt-2 mb-0" role="alert">
          {messageOf(create.error, "The key could not be created.")}
        </CAlert>
      )}
    </CForm>
  );
}

export default function ApiKeysSection({ canEdit }: SectionProps) {
  const { accountId } = useSignedInSession();
  const keys = useApiKeys(accountId, canEdit);
  const revoke = useRevokeApiKey(accountId);
  const resetRevoke = revoke.reset;
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const columns = useMemo(
    () =>
      column.columns([
        column.accessor("name", {
          header: "Name",
          cell: ({ row }) => (
            <>
              {row.original.name}
              {/* On a phone the key's column is hidden: its first characters go under the name. */}
              <code className="d-block d-sm-none small">{row.original.prefix}…</code>
            </>
          ),
        }),
        column.accessor("prefix", {
          header: "Key",
          meta: { phoneHidden: true },
          cell: ({ getValue }) => <code className="text-nowrap">{getValue()}…</code>,
        }),
        column.accessor((k) => k.creator.name || k.creator.email, {
          id: "creator",
          header: "Created by",
          meta: { phoneHidden: true },
        }),
        column.accessor("created_at", {
          header: "Created",
          meta: { phoneHidden: true },
          cell: ({ getValue }) => formatWhen(getValue()),
        }),
        column.accessor("last_used_at", { header: "Last used", cell: ({ getValue }) => formatWhen(getValue()) }),
        column.display({
          id: "actions",
          header: () => <span className="visually-hidden">Actions</span>,
          meta: { end: true },
          cell: ({ row }) => (
            <CButton
              color="danger"
              variant="outline"
              size="sm"
              onClick={() => {
                resetRevoke();
                setRevoking(row.original);
              }}
              aria-label={`Revoke ${row.original.name}`}
            >
              Revoke
            </CButton>
          ),
        }),
      ]) as DataColumn<ApiKey>[],
    [resetRevoke],
  );

  if (!canEdit) {
    return (
      <p className="text-body-secondary mb-0">
        API keys let scripts read this account’s statistics. Only the account’s admins and owners can see and manage them.
      </p>
    );
  }

  return (
    <>
      <p className="text-body-secondary">
        A key reads this account’s statistics through the Stats API, and nothing else: send it as{" "}
        <code className="text-break">Authorization: Bearer &lt;key&gt;</code>. Revoking a key stops it at once.
      </p>
      {created ? (
        <NewKey created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateKeyForm accountId={accountId} onCreated={setCreated} />
      )}
      {keys.error ? (
        <CAlert color="danger" role="alert">
          {messageOf(keys.error, "The keys could not be loaded.")}
        </CAlert>
      ) : !keys.data ? (
        <div className="text-center py-3" role="status">
          <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading the keys</span>
        </div>
      ) : keys.data.length === 0 ? (
        <p className="text-body-secondary mb-0">No API keys yet.</p>
      ) : (
        <DataTable columns={columns} rows={keys.data} rowId={(k) => k.id} caption="The account’s API keys" />
      )}
      {revoking && (
        <ConfirmModal
          title="Revoke this API key?"
          action="Revoke key"
          busy={revoke.isPending}
          error={revoke.error ? messageOf(revoke.error, "The key could not be revoked.") : null}
          onClose={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
        >
          <p className="mb-0">
            <strong className="text-break">{revoking.name}</strong> (<code>{revoking.prefix}…</code>) stops working at once: every
            script using it will be refused. This cannot be undone.
          </p>
        </ConfirmModal>
      )}
    </>
  );
}
