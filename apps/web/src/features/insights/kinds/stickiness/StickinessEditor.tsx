// The stickiness options of the insight editor: the event (with its own filters), the interval, and
// exactly n or n or more (DESIGN.md §4 Stickiness, as help text).
import { CFormInput, CFormLabel, CFormSelect } from "@coreui/react";
import { STICKINESS_INTERVALS, type StickinessSpec } from "@lookout/schema";
import type { KindEditorProps } from "../types";

export function StickinessEditor({ spec, setSpec }: KindEditorProps<"stickiness">) {
  return (
    <>
      <CFormLabel htmlFor="stickiness-event" className="small mb-0">
        Event
      </CFormLabel>
      <CFormInput
        id="stickiness-event"
        size="sm"
        list="insight-events"
        value={spec.event.event}
        onChange={(e) => setSpec({ ...spec, event: { ...spec.event, event: e.target.value } })}
      />
      <datalist id="insight-events">
        <option value="pageview" />
      </datalist>
      <CFormLabel htmlFor="stickiness-filters" className="small mb-0 mt-1">
        Event filters (e.g. page==/pricing)
      </CFormLabel>
      <CFormInput
        id="stickiness-filters"
        size="sm"
        value={spec.event.filters ?? ""}
        onChange={(e) => setSpec({ ...spec, event: { ...spec.event, filters: e.target.value || undefined } })}
      />
      <CFormLabel htmlFor="stickiness-interval" className="small mb-0 mt-1">
        Interval
      </CFormLabel>
      <CFormSelect
        id="stickiness-interval"
        size="sm"
        value={spec.interval ?? "day"}
        onChange={(e) => setSpec({ ...spec, interval: e.target.value as StickinessSpec["interval"] })}
      >
        {STICKINESS_INTERVALS.map((i) => (
          <option key={i} value={i}>
            {i}
          </option>
        ))}
      </CFormSelect>
      <CFormLabel htmlFor="stickiness-cumulative" className="small mb-0 mt-1">
        Count visitors active on
      </CFormLabel>
      <CFormSelect
        id="stickiness-cumulative"
        size="sm"
        aria-describedby="stickiness-help"
        value={spec.cumulative ? "more" : "exact"}
        onChange={(e) => setSpec({ ...spec, cumulative: e.target.value === "more" })}
      >
        <option value="exact">exactly n intervals</option>
        <option value="more">n or more intervals</option>
      </CFormSelect>
      <div id="stickiness-help" className="form-text mb-2">
        An interval counts when the visitor did the event at least once in it.
      </div>
    </>
  );
}
