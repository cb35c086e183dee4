// /live: who is on the current property right now. The live feed is not wired to this screen yet.
import { cilRss } from "@coreui/icons";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { propertyLabel, RequireProperty } from "../../components/RequireProperty";

export default function LivePage() {
  return (
    <>
      <PageHeader title="Live View" />
      <RequireProperty>
        {(property) => (
          <EmptyState
            icon={cilRss}
            title="The live view is on its way"
            lead={
              <>
                Visitors on <strong>{propertyLabel(property)}</strong> will appear here the moment they arrive. It will show:
              </>
            }
            coming={[
              "How many visitors are on the site right now",
              "Each visitor's current page, source, country and device",
              "Known customers with their avatar, linked to their history",
            ]}
          />
        )}
      </RequireProperty>
    </>
  );
}
