// /customers/:clientId: one visitor of the current property (SPEC.md §2; issue #21). The header
// (avatar, identity, online now, first and last seen, admin actions), the band of figures, the
// identity and acquisition grid with the person's other devices, the activity calendar with top
// pages and events, and the history by visit. An unknown client id (or one of another account's
// property: the server answers both alike) gets a plain notice with the way back to the list.
import { cilUser } from "@coreui/icons";
import { CButton, CCard, CCardBody, CPlaceholder } from "@coreui/react";
import { CLIENT_ID_RE, type CurrentProperty } from "@lookout/schema";
import { Link, useParams } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { HttpError } from "../../lib/http";
import { PanelError } from "../dashboard/PanelParts";
import { VISITORS_LIST_PATH } from "./paths";
import { useVisitor } from "./queries";
import { VisitHistory } from "./VisitHistory";
import { VisitorActivity } from "./VisitorActivity";
import { VisitorFigures } from "./VisitorFigures";
import { VisitorHeader } from "./VisitorHeader";
import { VisitorIdentity } from "./VisitorIdentity";
import "./visitors.css";

function ProfileSkeleton() {
  return (
    <CCard className="mb-4" aria-hidden="true">
      <CCardBody>
        <CPlaceholder as="div" animation="glow">
          <CPlaceholder xs={4} className="rounded mb-2" />
          <CPlaceholder xs={7} className="rounded mb-2" />
          <CPlaceholder xs={5} className="rounded" />
        </CPlaceholder>
      </CCardBody>
    </CCard>
  );
}

function NotKnown({ clientId }: { clientId: string }) {
  return (
    <EmptyState
      icon={cilUser}
      title="This visitor is not known"
      lead={
        <>
          This property has no visitor with the client id <code className="text-break">{clientId}</code>: it may have been
          deleted, or it belongs to another property.
        </>
      }
    >
      <CButton as={Link} to={VISITORS_LIST_PATH} color="primary">
        See all visitors
      </CButton>
    </EmptyState>
  );
}

function Visitor({ property, clientId }: { property: CurrentProperty; clientId: string }) {
  const propertyId = property.unique_id;
  // A client id is 1 to 128 visible ASCII characters: anything else is not asked about at all.
  const wellFormed = CLIENT_ID_RE.test(clientId);
  const visitor = useVisitor(propertyId, clientId, wellFormed);
  const status = visitor.error instanceof HttpError ? visitor.error.status : null;
  if (!wellFormed || status === 404 || status === 400) return <NotKnown clientId={clientId} />;
  if (visitor.error && !visitor.data)
    return <PanelError error={visitor.error} what="this visitor" onRetry={() => void visitor.refetch()} />;
  const v = visitor.data;
  if (!v) return <ProfileSkeleton />;
  return (
    <div className="visitor-page" data-client-id={v.client_id}>
      <VisitorHeader propertyId={propertyId} v={v} />
      <VisitorFigures v={v} />
      <VisitorIdentity v={v} />
      <VisitorActivity v={v} />
      <VisitHistory propertyId={propertyId} clientId={v.client_id} eventNames={v.top_events.map((e) => e.name)} />
    </div>
  );
}

export default function CustomerPage() {
  const { clientId = "" } = useParams();
  return (
    <>
      <PageHeader title="Visitor">
        <Link to={VISITORS_LIST_PATH} className="small">
          All visitors
        </Link>
      </PageHeader>
      <RequireProperty>
        {(property) => <Visitor key={`${property.unique_id}/${clientId}`} property={property} clientId={clientId} />}
      </RequireProperty>
    </>
  );
}
