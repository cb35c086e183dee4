// /product-analytics: the current property's saved insights (InsightsList) and a new one.
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { InsightsList } from "./InsightsList";

export default function ProductAnalyticsPage() {
  return (
    <>
      <PageHeader title="Product Analytics" />
      <RequireProperty>{(property) => <InsightsList propertyId={property.unique_id} />}</RequireProperty>
    </>
  );
}
