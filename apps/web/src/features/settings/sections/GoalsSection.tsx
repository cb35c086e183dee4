// Settings › Goals: the property's conversions. A custom-event goal counts a custom event by name
// (with an optional revenue currency), a pageview goal counts pageviews whose path matches a
// pattern. Editors and up add goals (a kind switch, then its fields) and delete them after a
// confirmation; viewers see the list. The dashboard's Goals panel counts every goal listed here.
import { CAlert, CBadge, CButton, CForm, CFormInput, CFormLabel, CFormSelect, CFormText, CSpinner } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { type CreateGoalBody, CreateGoalBodySchema, defaultGoalName, GOAL_PATTERN_HELP, type Goal } from "@lookout/schema";
import { createColumnHelper } from "@tanstack/react-table";
import { useId, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router-dom";
import { z } from "zod";
import { messageOf } from "../../../lib/http";
import { useCreateGoal, useDeleteGoal, useGoals } from "../../goals/queries";
import "../../goals/goals.css";
import { ConfirmModal } from "../../../components/ConfirmModal";
import { type DataColumn, DataTable, type dataTableFeatures } from "../../../components/DataTable";
import type { SectionProps } from "../section-props";

const KIND_LABEL: Record<Goal["kind"], string> = { event: "Custom event", page: "Pageview" };

const FormSchema = z
  .object({
    kind: z.enum(["event", "page"]),
    match: z.string(),
    display_name: z.string(),
    currency: z.string(),
  })
  .superRefine((v, ctx) => {
    // The server's own rules (@lookout/schema), field by field.
    const r = CreateGoalBodySchema.safeParse(toBody(v));
    for (const issue of r.error?.issues ?? []) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });
type GoalForm = z.infer<typeof FormSchema>;

function toBody(v: GoalForm): CreateGoalBody {
  const display_name = v.display_name.trim() || undefined;
  return v.kind === "event"
    ? { kind: "event", match: v.match, display_name, currency: v.currency || undefined }
    : { kind: "page", match: v.match, display_name };
}

let currencyList: string[] | undefined;
const currencies = () => {
  currencyList ??= Intl.supportedValuesOf("currency");
  return currencyList;
};

function AddGoalForm({ propertyId }: { propertyId: string }) {
  const id = useId();
  const create = useCreateGoal(propertyId);
  const { register, handleSubmit, reset, watch, setValue, formState } = useForm<GoalForm>({
    resolver: zodResolver(FormSchema),
    defaultValues: { kind: "event", match: "", display_name: "", currency: "" },
  });
  const kind = watch("kind");
  const match = watch("match");
  const submit = handleSubmit(async (v) => {
    try {
      await create.mutateAsync(toBody(v));
      reset({ kind: v.kind, match: "", display_name: "", currency: "" });
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const err = formState.errors;
  const pickKind = (k: GoalForm["kind"]) => {
    setValue("kind", k);
    create.reset();
  };
  return (
    <CForm onSubmit={submit} noValidate className="mb-4 goal-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="h6">
        Add a goal
      </h3>
      <fieldset className="mb-3">
        <legend className="form-label fs-6 mb-1">Goal type</legend>
        <div className="btn-group goal-kind" role="radiogroup" aria-label="Goal type">
          {(["event", "page"] as const).map((k) => (
            <CButton
              key={k}
              type="button"
              role="radio"
              aria-checked={kind === k}
              color="primary"
              variant={kind === k ? undefined : "outline"}
              onClick={() => pickKind(k)}
            >
              {KIND_LABEL[k]}
            </CButton>
          ))}
        </div>
      </fieldset>
      <div className="row g-3">
        <div className="col-12 col-md-6">
          <CFormLabel htmlFor={`${id}-match`}>{kind === "event" ? "Event name" : "Page path"}</CFormLabel>
          <CFormInput
            id={`${id}-match`}
            placeholder={kind === "event" ? "e.g. Signup" : "e.g. /pricing or /blog/**"}
            autoComplete="off"
            aria-describedby={`${id}-match-help`}
            invalid={!!err.match}
            feedbackInvalid={err.match?.message}
            {...register("match")}
          />
          <CFormText id={`${id}-match-help`}>
            {kind === "event"
              ? 'The name your site sends, e.g. Signup for lookout("Signup"). Names are case sensitive.'
              : GOAL_PATTERN_HELP}
          </CFormText>
        </div>
        <div className="col-12 col-md-6">
          <CFormLabel htmlFor={`${id}-name`}>Display name (optional)</CFormLabel>
          <CFormInput
            id={`${id}-name`}
            placeholder={match.trim() ? defaultGoalName(kind, match.trim()) : kind === "page" ? "Visit /path" : "The event name"}
            autoComplete="off"
            invalid={!!err.display_name}
            feedbackInvalid={err.display_name?.message}
            {...register("display_name")}
          />
        </div>
        {kind === "event" && (
          <div className="col-12 col-md-6">
            <CFormLabel htmlFor={`${id}-currency`}>Revenue currency (optional)</CFormLabel>
            <CFormSelect
              id={`${id}-currency`}
              invalid={!!err.currency}
              feedbackInvalid={err.currency?.message}
              {...register("currency")}
            >
              <option value="">No revenue</option>
              {currencies().map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </CFormSelect>
            <CFormText>For events that carry a revenue amount (ISO 4217 currency).</CFormText>
          </div>
        )}
      </div>
      <CButton type="submit" color="primary" className="mt-3" disabled={create.isPending}>
        {create.isPending && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
        Add goal
      </CButton>
      {create.error && (
        <CAlert color="danger" className="mt-3 mb-0" role="alert">
          {messageOf(create.error, "The goal could not be added.")}
        </CAlert>
      )}
    </CForm>
  );
}

const column = createColumnHelper<typeof dataTableFeatures, Goal>();

export default function GoalsSection({ property, canEdit }: SectionProps) {
  const propertyId = property?.unique_id ?? "";
  const goals = useGoals(propertyId);
  const remove = useDeleteGoal(propertyId);
  const resetRemove = remove.reset;
  const [deleting, setDeleting] = useState<Goal | null>(null);

  const columns = useMemo(() => {
    const cols = [
      column.accessor("display_name", {
        header: "Name",
        cell: ({ getValue }) => <span className="text-break fw-semibold">{getValue()}</span>,
      }),
      column.accessor("kind", {
        header: "Type",
        meta: { phoneHidden: true },
        cell: ({ getValue }) => (
          // Body text on the tertiary surface: readable in both themes (coloured badges are not).
          <CBadge className="fw-normal border text-body bg-body-tertiary">{KIND_LABEL[getValue()]}</CBadge>
        ),
      }),
      column.accessor("match", {
        header: "Matches",
        cell: ({ row, getValue }) => (
          <code className="text-break" title={row.original.kind === "page" ? "Page path pattern" : "Custom event name"}>
            {getValue()}
          </code>
        ),
      }),
      column.accessor("currency", {
        header: "Currency",
        meta: { phoneHidden: true },
        cell: ({ getValue }) => getValue() ?? <span className="text-body-secondary">–</span>,
      }),
    ];
    if (canEdit) {
      cols.push(
        column.display({
          id: "actions",
          header: () => <span className="visually-hidden">Actions</span>,
          meta: { end: true },
          cell: ({ row }) => (
            <CButton
              color="danger"
              variant="outline"
              size="sm"
              aria-label={`Delete goal ${row.original.display_name}`}
              onClick={() => {
                resetRemove();
                setDeleting(row.original);
              }}
            >
              Delete
            </CButton>
          ),
        }) as never,
      );
    }
    return cols as DataColumn<Goal>[];
  }, [canEdit, resetRemove]);

  if (!property) return <p className="text-body-secondary mb-0">Choose a property first.</p>;

  return (
    <>
      <p className="text-body-secondary">
        A goal is an action you want visitors to take. The dashboard’s Goals panel shows, for the date range and filters, each
        goal’s unique conversions (visitors with a visit in which it happened), total conversions (its events) and conversion rate
        (unique conversions divided by all visitors). <Link to="/">Open the dashboard</Link>.
      </p>
      {canEdit ? (
        <AddGoalForm propertyId={property.unique_id} />
      ) : (
        <p className="text-body-secondary small">Only editors, admins and owners can add or delete goals.</p>
      )}
      {goals.error ? (
        <CAlert color="danger" role="alert">
          {messageOf(goals.error, "The goals could not be loaded.")}
        </CAlert>
      ) : !goals.data ? (
        <div className="text-center py-3" role="status">
          <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading the goals</span>
        </div>
      ) : goals.data.length === 0 ? (
        <p className="text-body-secondary mb-0">No goals yet.</p>
      ) : (
        <DataTable columns={columns} rows={goals.data} rowId={(g) => g.id} caption="The property’s goals" />
      )}
      {deleting && (
        <ConfirmModal
          title="Delete this goal?"
          action="Delete goal"
          busy={remove.isPending}
          error={remove.error ? messageOf(remove.error, "The goal could not be deleted.") : null}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        >
          <p className="mb-0">
            <strong className="text-break">{deleting.display_name}</strong> leaves the Goals panel. Its events stay, and adding
            the goal again brings its numbers back.
          </p>
        </ConfirmModal>
      )}
    </>
  );
}
