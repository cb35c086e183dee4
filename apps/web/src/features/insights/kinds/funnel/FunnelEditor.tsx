// The funnel options of the insight editor: 2–20 steps (event, own filters), the conversion window
// and its unit, the order, exclusion steps between two steps, the breakdown by a step-1 dimension
// and the interval of the conversion-over-time chart. The help text states DESIGN.md §4's rules.
import { CButton, CCol, CFormInput, CFormLabel, CFormSelect, CFormText, CRow } from "@coreui/react";
import {
  BASE_DIMENSIONS,
  FUNNEL_LIMITS,
  FUNNEL_ORDERS,
  FUNNEL_WINDOW_UNITS,
  type FunnelExclusion,
  type FunnelSpecInput,
  INTERVALS,
} from "@lookout/schema";
import type { EventSelector } from "@lookout/schema";
import type { KindEditorProps } from "../types";

const ORDER_LABELS: Record<(typeof FUNNEL_ORDERS)[number], string> = {
  sequential: "Sequential (other events may come between)",
  strict: "Strict (no other event between steps)",
  any: "Any order",
};
const BREAKDOWNS = BASE_DIMENSIONS.filter((d) => d !== "entry_page" && d !== "exit_page");

export function FunnelEditor({ spec, setSpec }: KindEditorProps<"funnel">) {
  const steps = spec.steps;
  const exclusions = spec.exclusions ?? [];
  const window = spec.window ?? { value: 14, unit: "day" as const };
  const set = (change: Partial<FunnelSpecInput>) => setSpec({ ...spec, ...change });
  const setStep = (i: number, change: Partial<EventSelector>) =>
    set({ steps: steps.map((s, j) => (j === i ? { ...s, ...change } : s)) });
  const setExclusion = (i: number, change: Partial<FunnelExclusion>) =>
    set({ exclusions: exclusions.map((x, j) => (j === i ? { ...x, ...change } : x)) });
  const stepOptions = Array.from({ length: steps.length }, (_, i) => i + 1).map((n) => (
    <option key={n} value={n}>
      Step {n}
    </option>
  ));
  return (
    <>
      <h2 className="h6">Steps</h2>
      {steps.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a step is its position.
        <fieldset key={i} className="border rounded p-2 mb-2">
          <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">Step {i + 1}</legend>
          <CFormLabel htmlFor={`step-${i}-event`} className="small mb-0">
            Event
          </CFormLabel>
          <CFormInput
            id={`step-${i}-event`}
            size="sm"
            list="insight-events"
            value={s.event}
            onChange={(e) => setStep(i, { event: e.target.value })}
          />
          <CFormLabel htmlFor={`step-${i}-filters`} className="small mb-0 mt-1">
            Filters (e.g. page==/pricing)
          </CFormLabel>
          <CFormInput
            id={`step-${i}-filters`}
            size="sm"
            value={s.filters ?? ""}
            onChange={(e) => setStep(i, { filters: e.target.value || undefined })}
          />
          {steps.length > FUNNEL_LIMITS.minSteps && (
            <CButton
              color="link"
              size="sm"
              className="px-0"
              onClick={() => set({ steps: steps.filter((_, j) => j !== i), exclusions: [] })}
            >
              Remove step {i + 1}
            </CButton>
          )}
        </fieldset>
      ))}
      <datalist id="insight-events">
        <option value="pageview" />
      </datalist>
      {steps.length < FUNNEL_LIMITS.maxSteps && (
        <CButton
          color="secondary"
          variant="outline"
          size="sm"
          className="mb-3"
          onClick={() => set({ steps: [...steps, { event: "pageview" }] })}
        >
          Add step
        </CButton>
      )}
      <CRow className="g-2 mb-2">
        <CCol xs={4}>
          <CFormLabel htmlFor="funnel-window" className="small mb-0">
            Window
          </CFormLabel>
          <CFormInput
            id="funnel-window"
            size="sm"
            type="number"
            min={1}
            value={window.value}
            onChange={(e) => set({ window: { ...window, value: Number(e.target.value) } })}
          />
        </CCol>
        <CCol xs={8}>
          <CFormLabel htmlFor="funnel-window-unit" className="small mb-0">
            Window unit
          </CFormLabel>
          <CFormSelect
            id="funnel-window-unit"
            size="sm"
            value={window.unit}
            onChange={(e) => set({ window: { ...window, unit: e.target.value as (typeof FUNNEL_WINDOW_UNITS)[number] } })}
          >
            {FUNNEL_WINDOW_UNITS.map((u) => (
              <option key={u} value={u}>
                {u === "month" ? "month (30 days)" : u}
              </option>
            ))}
          </CFormSelect>
        </CCol>
        <CCol xs={12}>
          <CFormLabel htmlFor="funnel-order" className="small mb-0">
            Order
          </CFormLabel>
          <CFormSelect
            id="funnel-order"
            size="sm"
            value={spec.order ?? "sequential"}
            onChange={(e) => {
              const order = e.target.value as (typeof FUNNEL_ORDERS)[number];
              set({ order, ...(order === "any" ? { exclusions: [] } : {}) });
            }}
          >
            {FUNNEL_ORDERS.map((o) => (
              <option key={o} value={o}>
                {ORDER_LABELS[o]}
              </option>
            ))}
          </CFormSelect>
          <CFormText className="small">
            Every step-1 event may start a chain; a visitor reaches a step when the steps before it happened in order within the
            window of step 1 (inclusive); the furthest step of any chain counts; events at the same instant count in either order.
          </CFormText>
        </CCol>
        <CCol xs={6}>
          <CFormLabel htmlFor="funnel-breakdown" className="small mb-0">
            Breakdown (step 1)
          </CFormLabel>
          <CFormInput
            id="funnel-breakdown"
            size="sm"
            list="funnel-dimensions"
            placeholder="none, country, prop:plan…"
            value={spec.breakdown ?? ""}
            onChange={(e) => set({ breakdown: (e.target.value || undefined) as FunnelSpecInput["breakdown"] })}
          />
          <datalist id="funnel-dimensions">
            {BREAKDOWNS.map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
        </CCol>
        <CCol xs={6}>
          <CFormLabel htmlFor="funnel-interval" className="small mb-0">
            Interval (over time)
          </CFormLabel>
          <CFormSelect
            id="funnel-interval"
            size="sm"
            value={spec.interval ?? ""}
            onChange={(e) => set({ interval: (e.target.value || undefined) as FunnelSpecInput["interval"] })}
          >
            <option value="">Automatic</option>
            {INTERVALS.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </CFormSelect>
        </CCol>
      </CRow>
      {spec.order !== "any" && (
        <>
          <h2 className="h6 mt-2">Exclusions</h2>
          {exclusions.map((x, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an exclusion is its position.
            <fieldset key={i} className="border rounded p-2 mb-2">
              <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">Exclusion {i + 1}</legend>
              <CFormLabel htmlFor={`exclusion-${i}-event`} className="small mb-0">
                Event
              </CFormLabel>
              <CFormInput
                id={`exclusion-${i}-event`}
                size="sm"
                value={x.event}
                onChange={(e) => setExclusion(i, { event: e.target.value })}
              />
              <CRow className="g-2 mt-1">
                <CCol xs={6}>
                  <CFormLabel htmlFor={`exclusion-${i}-from`} className="small mb-0">
                    Between
                  </CFormLabel>
                  <CFormSelect
                    id={`exclusion-${i}-from`}
                    size="sm"
                    value={x.between[0]}
                    onChange={(e) => setExclusion(i, { between: [Number(e.target.value), x.between[1]] })}
                  >
                    {stepOptions}
                  </CFormSelect>
                </CCol>
                <CCol xs={6}>
                  <CFormLabel htmlFor={`exclusion-${i}-to`} className="small mb-0">
                    and
                  </CFormLabel>
                  <CFormSelect
                    id={`exclusion-${i}-to`}
                    size="sm"
                    value={x.between[1]}
                    onChange={(e) => setExclusion(i, { between: [x.between[0], Number(e.target.value)] })}
                  >
                    {stepOptions}
                  </CFormSelect>
                </CCol>
              </CRow>
              <CButton
                color="link"
                size="sm"
                className="px-0"
                onClick={() => set({ exclusions: exclusions.filter((_, j) => j !== i) })}
              >
                Remove exclusion {i + 1}
              </CButton>
            </fieldset>
          ))}
          {exclusions.length < FUNNEL_LIMITS.maxExclusions && (
            <CButton
              color="secondary"
              variant="outline"
              size="sm"
              className="mb-2"
              onClick={() => set({ exclusions: [...exclusions, { event: "", between: [1, steps.length] }] })}
            >
              Add exclusion
            </CButton>
          )}
          <CFormText className="small d-block">
            A visitor who does an excluded event between the two steps of their chain is left out of the funnel.
          </CFormText>
        </>
      )}
    </>
  );
}
