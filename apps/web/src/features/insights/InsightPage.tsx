// /product-analytics/insights/:insightId: one saved insight. Not built yet; names the insight
// asked for (as text) and says what will come.
import { cilChartLine } from "@coreui/icons";
import { useParams } from "react-router-dom";
import { DateRangePicker } from "../../components/DateRangePicker";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";

export default function InsightPage() {
  const { insightId = "" } = useParams();
  return (
    <>
      <PageHeader title="Insight">
        <DateRangePicker />
      </PageHeader>
      <RequireProperty>
        {() => (
          <EmptyState
            icon={cilChartLine}
            title="This insight is on its way"
            lead={
              <>
                Insight <code className="text-break">{insightId}</code> will open here with:
              </>
            }
            coming={["Its chart over the chosen range", "Its query: events, filters and breakdowns", "Its name and description"]}
          />
        )}
      </RequireProperty>
    </>
  );
}
