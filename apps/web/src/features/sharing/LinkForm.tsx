// The "New shared link" form: a name, an optional password and an optional last day, with the
// shared form schema (empty fields mean "none"), turned into the API body on submit; the server's
// 400 lands under its field.
import { CAlert, CButton, CCol, CForm, CFormFeedback, CFormInput, CFormLabel, CFormText, CRow } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { type CreateSharedLinkBody, type SharedLinkFormInput, SharedLinkFormSchema, sharedLinkBody } from "@lookout/schema";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { messageOf } from "../../lib/http";
import { toIsoDate } from "../../state/date-presets";
import { issuesOf } from "../properties/field-errors";

type LinkFormInput = SharedLinkFormInput;
const today = () => toIsoDate(new Date());

const FIELDS: Record<string, keyof LinkFormInput> = { name: "name", password: "password", expires_at: "expires" };

export function LinkForm({
  onCreate,
  onCancel,
}: {
  onCreate: (body: CreateSharedLinkBody) => Promise<unknown>;
  onCancel: () => void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState,
    setError: setFieldError,
    reset,
  } = useForm<LinkFormInput>({
    resolver: zodResolver(SharedLinkFormSchema),
    defaultValues: { name: "", password: "", expires: "" },
  });
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async (fields) => {
    setError(null);
    try {
      await onCreate(sharedLinkBody(fields));
      reset();
    } catch (err) {
      let placed = false;
      for (const i of issuesOf(err)) {
        const field = FIELDS[i.path];
        if (field) {
          setFieldError(field, { message: i.message });
          placed = true;
        }
      }
      const details = (err as { details?: { field?: string } }).details;
      if (!placed && details?.field === "name") {
        setFieldError("name", { message: messageOf(err, "That name is taken.") });
        placed = true;
      }
      if (!placed) setError(messageOf(err, "The link could not be created. Please try again."));
    }
  });

  return (
    <CForm onSubmit={submit} noValidate className="share-link-form">
      {error && (
        <CAlert color="danger" role="alert">
          {error}
        </CAlert>
      )}
      <CRow className="g-3 mb-3">
        <CCol md={4}>
          <CFormLabel htmlFor={`${id}-name`}>Name</CFormLabel>
          <CFormInput
            id={`${id}-name`}
            autoComplete="off"
            placeholder="Public dashboard"
            invalid={!!errors.name}
            aria-describedby={`${id}-name-feedback`}
            {...register("name")}
          />
          <CFormFeedback invalid id={`${id}-name-feedback`}>
            {errors.name?.message}
          </CFormFeedback>
        </CCol>
        <CCol md={4}>
          <CFormLabel htmlFor={`${id}-password`}>Password (optional)</CFormLabel>
          <CFormInput
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            invalid={!!errors.password}
            aria-describedby={`${id}-password-help ${id}-password-feedback`}
            {...register("password")}
          />
          <CFormText id={`${id}-password-help`}>Visitors type it first. A link with a password cannot be embedded.</CFormText>
          <CFormFeedback invalid id={`${id}-password-feedback`}>
            {errors.password?.message}
          </CFormFeedback>
        </CCol>
        <CCol md={4}>
          <CFormLabel htmlFor={`${id}-expires`}>Works until (optional)</CFormLabel>
          <CFormInput
            id={`${id}-expires`}
            type="date"
            min={today()}
            invalid={!!errors.expires}
            aria-describedby={`${id}-expires-help ${id}-expires-feedback`}
            {...register("expires")}
          />
          <CFormText id={`${id}-expires-help`}>The end of that day; empty: until revoked.</CFormText>
          <CFormFeedback invalid id={`${id}-expires-feedback`}>
            {errors.expires?.message}
          </CFormFeedback>
        </CCol>
      </CRow>
      <div className="d-flex flex-wrap gap-2">
        <CButton type="submit" color="primary" disabled={isSubmitting}>
          {isSubmitting ? "Creating…" : "Create link"}
        </CButton>
        <CButton color="secondary" variant="outline" onClick={onCancel}>
          Cancel
        </CButton>
      </div>
    </CForm>
  );
}
