// /settings (and /reports, SPEC.md §2): the current property's settings. Not built yet; says what
// will come.
import { cilSettings } from "@coreui/icons";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { propertyLabel, RequireProperty } from "../../components/RequireProperty";

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" />
      <RequireProperty>
        {(property) => (
          <EmptyState
            icon={cilSettings}
            title="Settings are on their way"
            lead={
              <>
                You will manage <strong>{propertyLabel(property)}</strong> here:
              </>
            }
            coming={[
              "Name, website address and time zone",
              "The tracking code to add to your site",
              "Excluded IP addresses and paths, allowed hostnames, cookieless mode",
              "A public share link, with an optional password",
              "E-mailed reports: how often, and to whom",
            ]}
          />
        )}
      </RequireProperty>
    </>
  );
}
