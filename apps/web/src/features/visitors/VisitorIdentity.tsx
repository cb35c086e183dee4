// Who a visitor is and where they come from (Umami's identity grid and Matomo's summary, peers.md
// §2): location, the browsers, systems and devices seen (with in how many visits), screen and
// language, the first source with its UTM tags, traits from identify, and the person's other
// devices ("also seen as", client ids identified with the same e-mail). All values are text.
import { CCard, CCardBody, CCardHeader } from "@coreui/react";
import type { Facet, VisitorDetail } from "@lookout/schema";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { CountryFlag } from "../../components/CountryFlag";
import { deviceLabel, formatDateTime, formatRelative, placeLabel } from "./labels";
import { visitorPath } from "./paths";

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function Facets({ facets, format = (s) => s }: { facets: Facet[]; format?: (s: string) => string }) {
  const known = facets.filter((f) => f.value !== "");
  if (known.length === 0) return <span className="text-body-secondary">Unknown</span>;
  return (
    <ul className="list-unstyled mb-0 visitor-facets">
      {known.map((f) => (
        <li key={f.value} className="text-break">
          {format(f.value)}{" "}
          <span className="text-body-secondary small">
            ({f.visits} {f.visits === 1 ? "visit" : "visits"})
          </span>
        </li>
      ))}
    </ul>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="visitor-fact">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const orUnknown = (s: string) => s || <span className="text-body-secondary">Unknown</span>;

export function VisitorIdentity({ v }: { v: VisitorDetail }) {
  const src = v.first_source;
  const utm = src
    ? (
        [
          ["utm_source", src.utm_source],
          ["utm_medium", src.utm_medium],
          ["utm_campaign", src.utm_campaign],
          ["utm_term", src.utm_term],
          ["utm_content", src.utm_content],
        ] as const
      ).filter(([, value]) => value !== "")
    : [];
  const traits = Object.entries(v.traits).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="visitor-identity-grid mb-4">
      <CCard>
        <CCardHeader className="py-2">
          <h2 className="h6 mb-0">Identity and context</h2>
        </CCardHeader>
        <CCardBody>
          <dl className="visitor-facts mb-0">
            <Row term="Location">
              <span className="d-inline-flex align-items-center gap-2">
                <CountryFlag code={v.country || undefined} decorative />
                <span className="text-break">{placeLabel(v)}</span>
              </span>
            </Row>
            <Row term="Browsers">
              <Facets facets={v.browsers} />
            </Row>
            <Row term="Operating systems">
              <Facets facets={v.oses} />
            </Row>
            <Row term="Devices">
              <Facets facets={v.devices} format={cap} />
            </Row>
            <Row term="Screen">
              <Facets facets={v.screens} />
            </Row>
            <Row term="Language">
              <Facets facets={v.languages} />
            </Row>
          </dl>
        </CCardBody>
      </CCard>
      <CCard>
        <CCardHeader className="py-2">
          <h2 className="h6 mb-0">Acquisition and traits</h2>
        </CCardHeader>
        <CCardBody>
          <dl className="visitor-facts mb-0">
            <Row term="First source">{src ? orUnknown(src.source || src.referrer || "Direct / None") : "Unknown"}</Row>
            {src?.channel && <Row term="Channel">{src.channel}</Row>}
            {src && (
              <Row term="Landing page">
                <span className="font-monospace text-break">{src.landing_page || "/"}</span>
              </Row>
            )}
            {src && <Row term="First visit">{formatDateTime(src.ts)}</Row>}
            {utm.map(([key, value]) => (
              <Row key={key} term={key}>
                <span className="text-break">{value}</span>
              </Row>
            ))}
          </dl>
          <h3 className="h6 mt-3 mb-2">Traits</h3>
          {traits.length === 0 ? (
            <p className="small text-body-secondary mb-0">
              {v.identified
                ? "No traits were sent with identify."
                : "None yet: traits arrive with lookout.identify(email, traits)."}
            </p>
          ) : (
            <dl className="visitor-facts visitor-traits mb-0">
              {traits.map(([key, value]) => (
                <Row key={key} term={key}>
                  <span className="text-break">{value}</span>
                </Row>
              ))}
            </dl>
          )}
        </CCardBody>
      </CCard>
      {v.also_seen_as.length > 0 && (
        <CCard className="visitor-also-seen">
          <CCardHeader className="py-2">
            <h2 className="h6 mb-0">Also seen as</h2>
          </CCardHeader>
          <CCardBody>
            <p className="small text-body-secondary">
              Other devices identified with the same e-mail. Their visits are merged into the figures and the history here.
            </p>
            <ul className="list-unstyled mb-0 visitor-devices">
              {v.also_seen_as.map((a) => (
                <li key={a.client_id} className="d-flex flex-wrap justify-content-between gap-2 py-1">
                  <span className="min-w-0">
                    <Link to={visitorPath(a.client_id)} className="text-break font-monospace">
                      {a.client_id}
                    </Link>
                    <span className="d-block small text-body-secondary">{deviceLabel(a)}</span>
                  </span>
                  <span className="small text-body-secondary" title={formatDateTime(a.last_seen)}>
                    Last seen {formatRelative(a.last_seen)}
                  </span>
                </li>
              ))}
            </ul>
          </CCardBody>
        </CCard>
      )}
    </div>
  );
}
