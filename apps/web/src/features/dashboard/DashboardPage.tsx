// /dashboard: the current property's traffic over the chosen range. Until the statistics queries
// exist it says what will be here, and shows no numbers.
import { cilSpeedometer } from "@coreui/icons";
import { DateRangePicker } from "../../components/DateRangePicker";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { propertyLabel, RequireProperty } from "../../components/RequireProperty";

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard">
        <DateRangePicker />
      </PageHeader>
      <RequireProperty>
        {(property) => (
          <EmptyState
            icon={cilSpeedometer}
            title="Statistics are on their way"
            lead={
              <>
                The dashboard for <strong>{propertyLabel(property)}</strong> is not built yet. It will show, for the range above:
              </>
            }
            coming={[
              "Visitors, visits, pageviews, views per visit, bounce rate and visit duration, each compared with the previous period",
              "A chart of visitors and pageviews over time",
              "Top pages, entry and exit pages",
              "Sources, referrers, channels and campaigns",
              "Countries, regions and cities; devices, browsers and operating systems",
            ]}
          />
        )}
      </RequireProperty>
    </>
  );
}
