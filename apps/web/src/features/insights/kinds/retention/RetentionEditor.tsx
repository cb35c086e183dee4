// The retention options of the insight editor: start and return events (each with its own filters),
// the period unit and how many periods after period 0, first time or recurring cohorts, and "on" or
// "on or after". The definitions are spelled out as help text (DESIGN.md §4 Retention).
import { CCol, CFormInput, CFormLabel, CFormSelect, CRow } from "@coreui/react";
import { type EventSelector, RETENTION_LIMITS, RETENTION_PERIOD_UNITS, type RetentionSpec } from "@lookout/schema";
import type { KindEditorProps } from "../types";

function EventFields(props: { id: string; legend: string; value: EventSelector; onChange: (v: EventSelector) => void }) {
  const { id, value, onChange } = props;
  return (
    <fieldset className="border rounded p-2 mb-2">
      <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">{props.legend}</legend>
      <CFormLabel htmlFor={`${id}-event`} className="small mb-0">
        Event
      </CFormLabel>
      <CFormInput
        id={`${id}-event`}
        size="sm"
        list="insight-events"
        value={value.event}
        onChange={(e) => onChange({ ...value, event: e.target.value })}
      />
      <CFormLabel htmlFor={`${id}-filters`} className="small mb-0 mt-1">
        Filters (e.g. page==/pricing)
      </CFormLabel>
      <CFormInput
        id={`${id}-filters`}
        size="sm"
        value={value.filters ?? ""}
        onChange={(e) => onChange({ ...value, filters: e.target.value || undefined })}
      />
    </fieldset>
  );
}

export function RetentionEditor({ spec, setSpec }: KindEditorProps<"retention">) {
  const periods = spec.periods ?? RETENTION_LIMITS.defaultPeriods;
  return (
    <>
      <EventFields
        id="retention-start"
        legend="Start event"
        value={spec.start_event}
        onChange={(start_event) => setSpec({ ...spec, start_event })}
      />
      <EventFields
        id="retention-return"
        legend="Return event"
        value={spec.return_event}
        onChange={(return_event) => setSpec({ ...spec, return_event })}
      />
      <datalist id="insight-events">
        <option value="pageview" />
      </datalist>
      <CRow className="g-2 mb-2">
        <CCol xs={6}>
          <CFormLabel htmlFor="retention-unit" className="small mb-0">
            Period
          </CFormLabel>
          <CFormSelect
            id="retention-unit"
            size="sm"
            value={spec.period_unit ?? "day"}
            onChange={(e) => setSpec({ ...spec, period_unit: e.target.value as RetentionSpec["period_unit"] })}
          >
            {RETENTION_PERIOD_UNITS.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </CFormSelect>
        </CCol>
        <CCol xs={6}>
          <CFormLabel htmlFor="retention-periods" className="small mb-0">
            Periods after period 0
          </CFormLabel>
          <CFormSelect
            id="retention-periods"
            size="sm"
            value={periods}
            onChange={(e) => setSpec({ ...spec, periods: Number(e.target.value) })}
          >
            {Array.from({ length: RETENTION_LIMITS.maxPeriods }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </CFormSelect>
        </CCol>
        <CCol xs={12}>
          <CFormLabel htmlFor="retention-type" className="small mb-0">
            Cohorts
          </CFormLabel>
          <CFormSelect
            id="retention-type"
            size="sm"
            aria-describedby="retention-type-help"
            value={spec.retention_type ?? "first_time"}
            onChange={(e) => setSpec({ ...spec, retention_type: e.target.value as RetentionSpec["retention_type"] })}
          >
            <option value="first_time">First time</option>
            <option value="recurring">Recurring</option>
          </CFormSelect>
          <div id="retention-type-help" className="form-text">
            First time: a visitor belongs to the period of their first start event in the range. Recurring: to every period in
            which they did it.
          </div>
        </CCol>
        <CCol xs={12}>
          <CFormLabel htmlFor="retention-cumulative" className="small mb-0">
            Counts a return
          </CFormLabel>
          <CFormSelect
            id="retention-cumulative"
            size="sm"
            aria-describedby="retention-cumulative-help"
            value={spec.cumulative ? "on_or_after" : "on"}
            onChange={(e) => setSpec({ ...spec, cumulative: e.target.value === "on_or_after" })}
          >
            <option value="on">On the period</option>
            <option value="on_or_after">On or after the period</option>
          </CFormSelect>
          <div id="retention-cumulative-help" className="form-text">
            Period N counts the cohort's visitors who did the return event in period N (or, "on or after", in N or any later
            period shown). Period 0 is the cohort's size.
          </div>
        </CCol>
      </CRow>
    </>
  );
}
