// The property's basic fields (name, website address, timezone) for adding and editing: a
// react-hook-form with the shared zod schema (PropertyFormSchema: the address is read by the URL
// parser and kept as its origin, the timezone must be one Intl knows). The timezone is a
// searchable list (a text field with the zones as suggestions), by default the browser's own.
import { CAlert, CButton, CForm, CFormFeedback, CFormInput, CFormLabel, CFormText } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { isSupportedTimezone, type PropertyFormInput, PropertyFormSchema, timezoneNames } from "@lookout/schema";
import { useId, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { messageOf } from "../../lib/http";
import "./properties.css";
import type { PropertyFields } from "./api";
import { issuesOf } from "./field-errors";

type Output = z.output<typeof PropertyFormSchema>;

/** The browser's timezone when the list has it, else UTC. */
export function browserTimezone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return tz && isSupportedTimezone(tz) ? tz : "UTC";
}

const FIELDS = ["name", "website_url", "timezone"] as const;

export function PropertyForm(props: {
  initial?: PropertyFields;
  submitText: string;
  busyText: string;
  onSubmit: (fields: PropertyFields) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const id = useId();
  const zones = useMemo(() => timezoneNames(), []);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState,
    setError: setFieldError,
  } = useForm<PropertyFormInput, unknown, Output>({
    resolver: zodResolver(PropertyFormSchema),
    defaultValues: props.initial ?? { name: "", website_url: "", timezone: browserTimezone() },
  });
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async (fields) => {
    setError(null);
    try {
      await props.onSubmit(fields);
    } catch (err) {
      const issues = issuesOf(err);
      let placed = false;
      for (const i of issues) {
        const field = FIELDS.find((f) => f === i.path);
        if (field) {
          setFieldError(field, { message: i.message });
          placed = true;
        }
      }
      if (!placed) setError(messageOf(err, "The property could not be saved. Please try again."));
    }
  });

  return (
    <CForm onSubmit={submit} noValidate className="property-form">
      {error && (
        <CAlert color="danger" role="alert">
          {error}
        </CAlert>
      )}
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-name`}>Name</CFormLabel>
        <CFormInput id={`${id}-name`} invalid={!!errors.name} placeholder="My shop" maxLength={120} {...register("name")} />
        {errors.name && <CFormFeedback invalid>Name {errors.name.message}</CFormFeedback>}
      </div>
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-url`}>Website address</CFormLabel>
        <CFormInput
          id={`${id}-url`}
          type="url"
          inputMode="url"
          invalid={!!errors.website_url}
          placeholder="https://example.com"
          aria-describedby={`${id}-url-help`}
          {...register("website_url")}
        />
        {errors.website_url ? (
          <CFormFeedback invalid>Website address {errors.website_url.message}</CFormFeedback>
        ) : (
          <CFormText id={`${id}-url-help`}>
            Only the origin is kept: https://example.com/blog is stored as https://example.com.
          </CFormText>
        )}
      </div>
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-tz`}>Timezone</CFormLabel>
        <CFormInput
          id={`${id}-tz`}
          list={`${id}-zones`}
          autoComplete="off"
          invalid={!!errors.timezone}
          aria-describedby={`${id}-tz-help`}
          {...register("timezone")}
        />
        <datalist id={`${id}-zones`}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        {errors.timezone ? (
          <CFormFeedback invalid>Timezone {errors.timezone.message}</CFormFeedback>
        ) : (
          <CFormText id={`${id}-tz-help`}>Days and reports follow this timezone. Type to search, e.g. “Berlin”.</CFormText>
        )}
      </div>
      <div className="d-flex flex-wrap gap-2">
        <CButton type="submit" color="primary" disabled={isSubmitting}>
          {isSubmitting ? props.busyText : props.submitText}
        </CButton>
        {props.onCancel && (
          <CButton color="secondary" variant="outline" onClick={props.onCancel}>
            Cancel
          </CButton>
        )}
      </div>
    </CForm>
  );
}
