// The lifecycle options of the insight editor: the event (with its own filters) and the interval,
// with the statuses' definitions as help text (DESIGN.md §4 Lifecycle).
import { CFormInput, CFormLabel, CFormSelect } from "@coreui/react";
import { LIFECYCLE_INTERVALS, type LifecycleSpec } from "@lookout/schema";
import type { KindEditorProps } from "../types";

export function LifecycleEditor({ spec, setSpec }: KindEditorProps<"lifecycle">) {
  return (
    <>
      <CFormLabel htmlFor="lifecycle-event" className="small mb-0">
        Event
      </CFormLabel>
      <CFormInput
        id="lifecycle-event"
        size="sm"
        list="insight-events"
        value={spec.event.event}
        onChange={(e) => setSpec({ ...spec, event: { ...spec.event, event: e.target.value } })}
      />
      <datalist id="insight-events">
        <option value="pageview" />
      </datalist>
      <CFormLabel htmlFor="lifecycle-filters" className="small mb-0 mt-1">
        Event filters (e.g. page==/pricing)
      </CFormLabel>
      <CFormInput
        id="lifecycle-filters"
        size="sm"
        value={spec.event.filters ?? ""}
        onChange={(e) => setSpec({ ...spec, event: { ...spec.event, filters: e.target.value || undefined } })}
      />
      <CFormLabel htmlFor="lifecycle-interval" className="small mb-0 mt-1">
        Interval
      </CFormLabel>
      <CFormSelect
        id="lifecycle-interval"
        size="sm"
        aria-describedby="lifecycle-help"
        value={spec.interval ?? "day"}
        onChange={(e) => setSpec({ ...spec, interval: e.target.value as LifecycleSpec["interval"] })}
      >
        {LIFECYCLE_INTERVALS.map((i) => (
          <option key={i} value={i}>
            {i}
          </option>
        ))}
      </CFormSelect>
      <div id="lifecycle-help" className="form-text mb-2">
        New: the visitor's first-ever event is in this interval. Returning: active the previous interval too. Resurrecting:
        inactive the previous interval, seen before. Dormant: active the previous interval, not this one (drawn below zero).
      </div>
    </>
  );
}
