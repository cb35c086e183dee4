// /dashboard: the current property's traffic over the chosen range (see Dashboard). The range
// picker with its comparison sits in the page header; without a current property, the picker of
// properties shows instead.
import { DateRangePicker } from "../../components/DateRangePicker";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { Dashboard } from "./Dashboard";

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard">
        <DateRangePicker comparison shortcuts />
      </PageHeader>
      <RequireProperty>{(property) => <Dashboard key={property.unique_id} property={property} />}</RequireProperty>
    </>
  );
}
