// The "Live now" card of the dashboard's top stats: SPEC.md §5's live count for the property,
// the same number as the header and the Live View, fed by the shared live socket; a line under it
// says how many live visitors it leaves out because their country is unknown.
import { CCard, CCardBody } from "@coreui/react";
import { Link } from "react-router-dom";
import { useLiveConnection, useLiveCount, useUncountedLive } from "./LiveProvider";
import { connectionLook } from "./LiveStatus";
import { uncountedNote } from "./live-stats";
import "./live.css";

export function LiveNowCard({ propertyId }: { propertyId: string }) {
  const count = useLiveCount(propertyId);
  const uncounted = uncountedNote(useUncountedLive(propertyId));
  const { connection, reconnect } = useLiveConnection();
  const look = connectionLook(connection);
  return (
    <CCard className="h-100 live-now-card">
      <CCardBody>
        <div className="d-flex align-items-center gap-2 text-body-secondary small text-uppercase fw-semibold">
          <span className={`live-dot live-dot-${look}`} aria-hidden="true" />
          Live now
        </div>
        <div className="fs-4 fw-semibold" data-live-count={count}>
          {count}
        </div>
        {uncounted && (
          <div className="small text-body-secondary" data-live-uncounted>
            {uncounted}
          </div>
        )}
        <div className="small">
          {look === "paused" ? (
            <span className="text-body-secondary">
              Live updates paused —{" "}
              <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={reconnect}>
                Reconnect
              </button>
            </span>
          ) : (
            <Link to="/live">Open Live View</Link>
          )}
        </div>
      </CCardBody>
    </CCard>
  );
}
