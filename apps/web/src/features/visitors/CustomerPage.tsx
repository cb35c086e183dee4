// /customers/:clientId: one visitor's history. Not built yet; names the visitor (as text) and says
// what will come.
import { cilUser } from "@coreui/icons";
import { useParams } from "react-router-dom";
import { CustomerAvatar } from "../../components/CustomerAvatar";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";

export default function CustomerPage() {
  const { clientId = "" } = useParams();
  return (
    <>
      <PageHeader title="Visitor">
        <div className="d-flex align-items-center gap-2 min-w-0">
          <CustomerAvatar />
          <code className="text-truncate">{clientId}</code>
        </div>
      </PageHeader>
      <RequireProperty>
        {() => (
          <EmptyState
            icon={cilUser}
            title="This visitor's history is on its way"
            lead="Everything we know about this visitor will be shown here:"
            coming={[
              "Their name, e-mail and traits once they are identified",
              "First and last seen, country, device and browser",
              "Every visit with its pages and events, newest first",
            ]}
          />
        )}
      </RequireProperty>
    </>
  );
}
