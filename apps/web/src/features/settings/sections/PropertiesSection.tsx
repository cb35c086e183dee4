// Settings › Properties: the account's properties (name, address, timezone, created, events of
// the last 30 days) in a TanStack table on CoreUI's CTable; for admins, "Add property" (which
// then shows the new property's snippet and makes it selectable), edit, reset stats and delete,
// the last two confirmed by typing the property's name (the server audits both).
import { cilPlus } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CAlert,
  CButton,
  CCard,
  CCardBody,
  CDropdown,
  CDropdownItem,
  CDropdownMenu,
  CDropdownToggle,
  CSpinner,
  CTable,
  CTableBody,
  CTableDataCell,
  CTableHead,
  CTableHeaderCell,
  CTableRow,
} from "@coreui/react";
import type { AdminProperty } from "@lookout/schema";
import { useQueryClient } from "@tanstack/react-query";
import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { TypedConfirmModal } from "../../../components/TypedConfirmModal";
import { formatFull } from "../../../lib/format";
import { messageOf } from "../../../lib/http";
import { useProperties } from "../../../state/current-property";
import { useSignedInSession } from "../../auth/session";
import { CopyBlock } from "../../properties/CopyBlock";
import { PropertyForm } from "../../properties/PropertyForm";
import {
  propertyKeys,
  useAdminProperties,
  useCreateProperty,
  useDeleteProperty,
  useResetProperty,
  useUpdateProperty,
} from "../../properties/queries";
import { trackerSnippet } from "../../properties/snippet";
import "../../properties/properties.css";
import type { SectionProps } from "../section-props";

interface ColumnMeta {
  numeric?: boolean;
  className?: string;
}
const features = tableFeatures({ columnMeta: {} as ColumnMeta });
const column = createColumnHelper<typeof features, AdminProperty>();
const NO_ROWS: AdminProperty[] = [];

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

type Dialog = { kind: "edit" | "reset" | "delete"; property: AdminProperty } | null;

function EditProperty({ property, onDone }: { property: AdminProperty; onDone: () => void }) {
  const update = useUpdateProperty(property.unique_id);
  return (
    <CCard className="mb-3">
      <CCardBody>
        <h3 className="h6">Edit {property.name}</h3>
        <PropertyForm
          initial={{ name: property.name, website_url: property.website_url, timezone: property.timezone }}
          submitText="Save changes"
          busyText="Saving…"
          onSubmit={async (fields) => {
            await update.mutateAsync(fields);
            onDone();
          }}
          onCancel={onDone}
        />
      </CCardBody>
    </CCard>
  );
}

function AddProperty({ accountId, onClose }: { accountId: string; onClose: () => void }) {
  const create = useCreateProperty(accountId);
  const client = useQueryClient();
  const { select } = useProperties();
  const [created, setCreated] = useState<AdminProperty | null>(null);
  const [chosen, setChosen] = useState(false);
  if (created) {
    return (
      <CCard className="mb-3" data-testid="new-property">
        <CCardBody>
          <h3 className="h6">{created.name} is ready</h3>
          <p>
            Add this line to the <code>&lt;head&gt;</code> of every page of{" "}
            <span className="text-break">{created.website_url}</span>; the first visit then shows on its dashboard. More options
            are under{" "}
            <Link to="/settings?section=tracking" onClick={() => select(created.unique_id)}>
              Tracking code
            </Link>
            .
          </p>
          <CopyBlock
            code={trackerSnippet(window.location.origin, created.unique_id)}
            label="Tracking snippet"
            testId="new-snippet"
          />
          <div className="d-flex flex-wrap gap-2">
            <CButton
              color="primary"
              disabled={chosen}
              onClick={() => {
                select(created.unique_id);
                setChosen(true);
              }}
            >
              {chosen ? "Current property" : "Make it the current property"}
            </CButton>
            <CButton color="secondary" variant="outline" onClick={onClose}>
              Done
            </CButton>
          </div>
        </CCardBody>
      </CCard>
    );
  }
  return (
    <CCard className="mb-3">
      <CCardBody>
        <h3 className="h6">Add property</h3>
        <PropertyForm
          submitText="Add property"
          busyText="Adding…"
          onSubmit={async (fields) => {
            const p = await create.mutateAsync(fields);
            // The picker's list must hold the new property before it can be selected by id.
            await client.refetchQueries({ queryKey: propertyKeys.list(accountId) });
            setCreated(p);
          }}
          onCancel={onClose}
        />
      </CCardBody>
    </CCard>
  );
}

export default function PropertiesSection({ canEdit }: SectionProps) {
  const { accountId } = useSignedInSession();
  const list = useAdminProperties(accountId);
  const { current, clear } = useProperties();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const adding = canEdit && params.get("add") === "1";
  const setAdding = (on: boolean) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (on) next.set("add", "1");
        else next.delete("add");
        return next;
      },
      { replace: true },
    );
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useDeleteProperty();
  const reset = useResetProperty();

  const columns = useMemo(
    () =>
      column.columns([
        column.accessor("name", {
          header: "Property",
          meta: { className: "property-name" },
          cell: ({ row }) => (
            <>
              <span className="d-block fw-semibold">{row.original.name}</span>
              <span className="d-block small text-body-secondary text-break">{row.original.website_url || "No address"}</span>
            </>
          ),
        }),
        column.accessor("timezone", { header: "Timezone", meta: { className: "d-none d-xl-table-cell" } }),
        column.accessor("created_at", {
          header: "Created",
          meta: { className: "d-none d-lg-table-cell" },
          cell: ({ getValue }) => <time dateTime={getValue()}>{dateFormat.format(new Date(getValue()))}</time>,
        }),
        column.accessor("events_30d", {
          header: () => (
            <>
              Events<span className="d-none d-sm-inline">, 30 days</span>
            </>
          ),
          meta: { numeric: true },
          cell: ({ getValue }) => formatFull(getValue()),
        }),
        ...(canEdit
          ? [
              column.display({
                id: "actions",
                header: () => <span className="visually-hidden">Actions</span>,
                meta: { className: "text-end" },
                cell: ({ row }) => (
                  <CDropdown placement="bottom-end" portal>
                    <CDropdownToggle color="secondary" variant="outline" size="sm" aria-label={`Manage ${row.original.name}`}>
                      Manage
                    </CDropdownToggle>
                    <CDropdownMenu>
                      <CDropdownItem
                        as="button"
                        type="button"
                        onClick={() => setDialog({ kind: "edit", property: row.original })}
                      >
                        Edit
                      </CDropdownItem>
                      <CDropdownItem
                        as="button"
                        type="button"
                        onClick={() => setDialog({ kind: "reset", property: row.original })}
                      >
                        Reset stats…
                      </CDropdownItem>
                      <CDropdownItem
                        as="button"
                        type="button"
                        onClick={() => setDialog({ kind: "delete", property: row.original })}
                      >
                        Delete…
                      </CDropdownItem>
                    </CDropdownMenu>
                  </CDropdown>
                ),
              }),
            ]
          : []),
      ]),
    [canEdit],
  );
  const table = useTable({ features, columns, data: list.data ?? NO_ROWS, getRowId: (p) => p.unique_id });

  const closeDialog = () => {
    setDialog(null);
    setDialogError(null);
  };
  const confirm = async () => {
    if (!dialog) return;
    const p = dialog.property;
    setDialogError(null);
    try {
      if (dialog.kind === "delete") {
        await remove.mutateAsync(p.unique_id);
        if (current?.unique_id === p.unique_id) clear();
        setNotice(`${p.name} was deleted with all its data.`);
      } else {
        await reset.mutateAsync(p.unique_id);
        // Every cached statistic of the property is now wrong.
        await client.invalidateQueries();
        setNotice(`The statistics of ${p.name} were reset.`);
      }
      closeDialog();
    } catch (err) {
      setDialogError(messageOf(err, "That did not work. Please try again."));
    }
  };

  return (
    <>
      <p className="text-body-secondary">
        The websites of this account. Each has its own tracking code, timezone and settings; events count pageviews and custom
        events.
      </p>
      {notice && (
        <CAlert color="success" dismissible onClose={() => setNotice(null)}>
          {notice}
        </CAlert>
      )}
      {canEdit && !adding && (
        <CButton color="primary" className="mb-3" onClick={() => setAdding(true)}>
          <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
          Add property
        </CButton>
      )}
      {adding && <AddProperty accountId={accountId} onClose={() => setAdding(false)} />}
      {dialog?.kind === "edit" && (
        <EditProperty key={dialog.property.unique_id} property={dialog.property} onDone={closeDialog} />
      )}
      {list.error ? (
        <CAlert color="danger">
          {messageOf(list.error, "The properties could not be loaded.")}{" "}
          <CButton color="link" className="p-0 align-baseline" onClick={() => void list.refetch()}>
            Try again
          </CButton>
        </CAlert>
      ) : !list.data ? (
        <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
          <CSpinner size="sm" aria-hidden="true" /> Loading the properties…
        </div>
      ) : list.data.length === 0 ? (
        <p className="text-body-secondary">
          {canEdit ? "No property yet: add your website to start collecting statistics." : "This account has no property yet."}
        </p>
      ) : (
        <div className="table-responsive">
          <CTable hover align="middle" className="mb-0 properties-table">
            <caption className="visually-hidden">Properties of this account</caption>
            <CTableHead>
              {table.getHeaderGroups().map((group) => (
                <CTableRow key={group.id}>
                  {group.headers.map((header) => {
                    const meta = header.column.columnDef.meta;
                    return (
                      <CTableHeaderCell
                        key={header.id}
                        scope="col"
                        className={`${meta?.numeric ? "text-end" : ""} ${meta?.className ?? ""}`.trim() || undefined}
                      >
                        <table.FlexRender header={header} />
                      </CTableHeaderCell>
                    );
                  })}
                </CTableRow>
              ))}
            </CTableHead>
            <CTableBody>
              {table.getRowModel().rows.map((row) => (
                <CTableRow key={row.id} data-property={row.original.unique_id}>
                  {row.getAllCells().map((cell) => {
                    const meta = cell.column.columnDef.meta;
                    return (
                      <CTableDataCell
                        key={cell.id}
                        className={`${meta?.numeric ? "text-end" : ""} ${meta?.className ?? ""}`.trim() || undefined}
                      >
                        <table.FlexRender cell={cell} />
                      </CTableDataCell>
                    );
                  })}
                </CTableRow>
              ))}
            </CTableBody>
          </CTable>
        </div>
      )}
      {dialog && dialog.kind !== "edit" && (
        <TypedConfirmModal
          title={
            dialog.kind === "delete" ? `Delete ${dialog.property.name}?` : `Reset the statistics of ${dialog.property.name}?`
          }
          expected={dialog.property.name}
          action={dialog.kind === "delete" ? "Delete property" : "Reset statistics"}
          busy={remove.isPending || reset.isPending}
          error={dialogError}
          onConfirm={() => void confirm()}
          onClose={closeDialog}
        >
          {dialog.kind === "delete" ? (
            <p className="mb-0">
              The property, its settings, all its events and visitor profiles are deleted, and its tracking code stops counting.
              This cannot be undone.
            </p>
          ) : (
            <p className="mb-0">
              All events and visitor profiles of this property are deleted; the property, its tracking code and its settings stay,
              and new visits are counted from now on. This cannot be undone.
            </p>
          )}
        </TypedConfirmModal>
      )}
    </>
  );
}
