// A visitor page's header card: the avatar (SPEC.md §2), name and e-mail once identified, the
// client id, whether they are online now (live, through the socket), first and last seen, and an
// admin's actions.
import { CCard, CCardBody } from "@coreui/react";
import type { VisitorDetail } from "@lookout/schema";
import { useMemo } from "react";
import { CustomerAvatar } from "../../components/CustomerAvatar";
import { useAccountRole } from "../me/queries";
import { formatDateTime, formatRelative, visitorLabel } from "./labels";
import { useOnline } from "./presence";
import { VisitorActions } from "./VisitorActions";

export function VisitorHeader({ propertyId, v }: { propertyId: string; v: VisitorDetail }) {
  const { can } = useAccountRole();
  const ids = useMemo(() => [v.client_id, ...v.also_seen_as.map((a) => a.client_id)], [v]);
  const online = useOnline(propertyId, ids, v.online);
  const label = visitorLabel(v);
  return (
    <CCard className="mb-4 visitor-header">
      <CCardBody className="d-flex flex-wrap gap-3 align-items-start">
        <CustomerAvatar email={v.email || null} alt={v.email ? `Avatar of ${label}` : ""} />
        <div className="flex-grow-1 min-w-0">
          <div className="d-flex flex-wrap align-items-center gap-2">
            <h2 className="h4 mb-0 text-break visitor-name">{label}</h2>
            <span className="visitor-presence small" data-online={online} role="status">
              <span className={`visitor-dot${online ? " visitor-dot-online" : ""}`} aria-hidden="true" />
              {online ? "Online now" : "Offline"}
            </span>
            {!v.identified && <span className="small text-body-secondary">Anonymous</span>}
          </div>
          {v.email && v.email !== label && <div className="text-break visitor-email">{v.email}</div>}
          <dl className="visitor-header-facts small mb-0 mt-2">
            <div>
              <dt>Client id</dt>
              <dd>
                <code className="text-break visitor-client-id">{v.client_id}</code>
              </dd>
            </div>
            <div>
              <dt>First seen</dt>
              <dd title={formatRelative(v.first_seen)}>{formatDateTime(v.first_seen)}</dd>
            </div>
            <div>
              <dt>Last seen</dt>
              <dd>
                {formatDateTime(v.last_seen)} <span className="text-body-secondary">({formatRelative(v.last_seen)})</span>
              </dd>
            </div>
          </dl>
        </div>
        {can("admin") && (
          <VisitorActions propertyId={propertyId} clientId={v.client_id} label={label} otherDevices={v.also_seen_as.length} />
        )}
      </CCardBody>
    </CCard>
  );
}
