// /product-analytics: the current property's saved insights. Not built yet; says what will come.
import { cilChartLine } from "@coreui/icons";
import { DateRangePicker } from "../../components/DateRangePicker";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { propertyLabel, RequireProperty } from "../../components/RequireProperty";

export default function ProductAnalyticsPage() {
  return (
    <>
      <PageHeader title="Product Analytics">
        <DateRangePicker />
      </PageHeader>
      <RequireProperty>
        {(property) => (
          <EmptyState
            icon={cilChartLine}
            title="Product analytics is on its way"
            lead={
              <>
                Saved insights for <strong>{propertyLabel(property)}</strong> will be listed here. You will be able to build:
              </>
            }
            coming={[
              "Trends of any event, broken down by its properties",
              "Funnels with conversion and drop-off between steps",
              "Retention, stickiness and lifecycle of your visitors",
              "Paths visitors take through the site",
            ]}
          />
        )}
      </RequireProperty>
    </>
  );
}
