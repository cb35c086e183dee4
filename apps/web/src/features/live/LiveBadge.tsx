// The header's live count for the current property (SPEC.md §5), linking to the Live View. The dot
// is green while the socket is open, grey otherwise; nothing shows without a current property.
import { Link } from "react-router-dom";
import { propertyLabel } from "../../components/RequireProperty";
import { useProperties } from "../../state/current-property";
import { useLiveConnection, useLiveCount } from "./LiveProvider";
import { connectionLook } from "./LiveStatus";
import "./live.css";

export function LiveBadge() {
  const { current } = useProperties();
  const count = useLiveCount(current?.unique_id);
  const { connection } = useLiveConnection();
  if (!current) return null;
  const look = connectionLook(connection);
  const visitors = `${count} ${count === 1 ? "visitor" : "visitors"}`;
  const title =
    look === "paused"
      ? `${visitors} on ${propertyLabel(current)} when live updates paused`
      : `${visitors} on ${propertyLabel(current)} right now`;
  return (
    <li className="nav-item d-flex align-items-center">
      <Link to="/live" className="live-badge" title={title} aria-label={`${count} live: ${title}`} data-live-count={count}>
        <span className={`live-dot live-dot-${look}`} aria-hidden="true" />
        <span className="live-badge-count">{count}</span> <span className="d-none d-sm-inline text-body-secondary">live</span>
      </Link>
    </li>
  );
}
