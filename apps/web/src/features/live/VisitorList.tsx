// Who is on the site: one row per visitor with their avatar and e-mail when identified, country,
// current page (title and path, as text), source, device, and time on site ticking. Visitors who
// just left stay, greyed, with how long ago. Each row opens the visitor's history.
import { Link } from "react-router-dom";
import { CountryFlag } from "../../components/CountryFlag";
import { CustomerAvatar } from "../../components/CustomerAvatar";
import { countryName } from "../../lib/countries";
import { describeDevice, formatAgo, formatDuration } from "./live-stats";
import type { LiveEntry } from "./live-store";
import { useNow } from "./use-now";

const SHOWN_ACTIVE = 50;
const SHOWN_LEFT = 20;

function displayName(v: LiveEntry): string {
  return v.email || `Visitor ${v.clientid.slice(0, 6)}`;
}

function VisitorRow({ v, now }: { v: LiveEntry; now: number }) {
  const left = !v.active;
  const onSite = formatDuration((left ? (v.leftAt ?? v.lastSeen) : now) - v.arrivedAt);
  return (
    <li>
      <Link
        to={`/customers/${encodeURIComponent(v.clientid)}`}
        className={`live-visitor${left ? " live-visitor-left" : ""}`}
        data-clientid={v.clientid}
        data-active={v.active}
      >
        <CustomerAvatar email={v.email} />
        <span className="live-visitor-main min-w-0">
          <span className="live-visitor-who">
            <span className="fw-semibold text-truncate">{displayName(v)}</span>
            <span className="live-visitor-country text-body-secondary">
              <CountryFlag code={v.country} decorative />
              <span className="text-truncate">{countryName(v.country)}</span>
            </span>
          </span>
          <span className="live-visitor-page">
            <span className="live-visitor-title">{v.title || "Untitled page"}</span>{" "}
            <span className="live-visitor-path font-monospace text-body-secondary">{v.page}</span>
          </span>
          <span className="live-visitor-meta text-body-secondary">
            {v.source || "Direct / None"} · {describeDevice(v)}
          </span>
        </span>
        <span className="live-visitor-time text-end">
          {left ? (
            <>
              <span className="d-block">Left {formatAgo(now - (v.leftAt ?? v.lastSeen))}</span>
              <span className="d-block text-body-secondary">after {onSite}</span>
            </>
          ) : (
            <>
              <span className="d-block fw-semibold font-monospace">{onSite}</span>
              <span className="d-block text-body-secondary">on site</span>
            </>
          )}
        </span>
      </Link>
    </li>
  );
}

export function VisitorList({ active, left, site }: { active: LiveEntry[]; left: LiveEntry[]; site: string }) {
  const now = useNow(1000);
  return (
    <>
      {active.length === 0 ? (
        <p className="text-body-secondary mb-0 live-empty">
          Nobody is on <strong className="text-break">{site}</strong> right now. Visitors appear here the moment they arrive.
        </p>
      ) : (
        <ul className="list-unstyled mb-0 live-visitors" aria-label="Visitors on the site">
          {active.slice(0, SHOWN_ACTIVE).map((v) => (
            <VisitorRow key={`${v.propertyId}/${v.clientid}`} v={v} now={now} />
          ))}
        </ul>
      )}
      {active.length > SHOWN_ACTIVE && (
        <p className="small text-body-secondary mt-2 mb-0">and {active.length - SHOWN_ACTIVE} more on the site</p>
      )}
      {left.length > 0 && (
        <>
          <h3 className="h6 text-body-secondary mt-4 mb-2">Recently left</h3>
          <ul className="list-unstyled mb-0 live-visitors" aria-label="Visitors who recently left">
            {left.slice(0, SHOWN_LEFT).map((v) => (
              <VisitorRow key={`${v.propertyId}/${v.clientid}`} v={v} now={now} />
            ))}
          </ul>
        </>
      )}
    </>
  );
}
