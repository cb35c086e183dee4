// The "Live now" card of the dashboard's top stats: SPEC.md §5's live count for the current
// property, fed by the dashboard socket (the live feature owns how).
import { CCard, CCardBody } from "@coreui/react";

export function LiveNowCard(_props: { propertyId: string }) {
  return (
    <CCard className="h-100">
      <CCardBody>
        <div className="text-body-secondary small text-uppercase fw-semibold">Live now</div>
        <div className="fs-4 fw-semibold">–</div>
      </CCardBody>
    </CCard>
  );
}
