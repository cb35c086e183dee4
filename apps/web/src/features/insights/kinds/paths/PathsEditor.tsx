// The paths options of the insight editor (DESIGN.md §4 Paths): what a node is (pages, custom
// events or both), the start and end points (a page path or an event name, either optional) and
// the number of steps (3–10). The page owns name, date range and global filters.
import { CCol, CFormInput, CFormLabel, CFormSelect, CFormText, CRow } from "@coreui/react";
import { INSIGHT_LIMITS, PATH_ITEM_TYPES, PATHS_LIMITS, type PathItemType } from "@lookout/schema";
import type { KindEditorProps } from "../types";

const TYPE_LABELS: Record<PathItemType, string> = {
  pageview: "Pages (pageviews)",
  event: "Custom events",
  all: "Pages and custom events",
};

const STEPS = Array.from({ length: PATHS_LIMITS.maxSteps - PATHS_LIMITS.minSteps + 1 }, (_, i) => PATHS_LIMITS.minSteps + i);

export function PathsEditor({ spec, setSpec }: KindEditorProps<"paths">) {
  const pointHelp = spec.type === "event" ? "an event name, e.g. signup" : "a page path such as /pricing, or an event name";
  return (
    <CRow className="g-2 mb-2">
      <CCol xs={12}>
        <CFormLabel htmlFor="paths-type" className="small mb-0">
          Nodes
        </CFormLabel>
        <CFormSelect
          id="paths-type"
          size="sm"
          value={spec.type ?? "pageview"}
          onChange={(e) => setSpec({ ...spec, type: e.target.value as PathItemType })}
        >
          {PATH_ITEM_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </CFormSelect>
      </CCol>
      <CCol xs={6}>
        <CFormLabel htmlFor="paths-start" className="small mb-0">
          Start point
        </CFormLabel>
        <CFormInput
          id="paths-start"
          size="sm"
          placeholder="any"
          maxLength={INSIGHT_LIMITS.maxEventNameLength}
          value={spec.start ?? ""}
          aria-describedby="paths-points-help"
          onChange={(e) => setSpec({ ...spec, start: e.target.value || undefined })}
        />
      </CCol>
      <CCol xs={6}>
        <CFormLabel htmlFor="paths-end" className="small mb-0">
          End point
        </CFormLabel>
        <CFormInput
          id="paths-end"
          size="sm"
          placeholder="any"
          maxLength={INSIGHT_LIMITS.maxEventNameLength}
          value={spec.end ?? ""}
          aria-describedby="paths-points-help"
          onChange={(e) => setSpec({ ...spec, end: e.target.value || undefined })}
        />
      </CCol>
      <CCol xs={12}>
        <CFormText id="paths-points-help">
          Each point is {pointHelp}. Paths start at the start point's first occurrence in a visit and end at the end point's.
        </CFormText>
      </CCol>
      <CCol xs={6}>
        <CFormLabel htmlFor="paths-steps" className="small mb-0">
          Steps
        </CFormLabel>
        <CFormSelect
          id="paths-steps"
          size="sm"
          value={spec.steps ?? PATHS_LIMITS.defaultSteps}
          onChange={(e) => setSpec({ ...spec, steps: Number(e.target.value) })}
        >
          {STEPS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </CFormSelect>
      </CCol>
    </CRow>
  );
}
