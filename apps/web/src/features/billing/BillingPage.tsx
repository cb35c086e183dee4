// /billing: the account's plan and invoices. Not built yet; says what will come.
import { cilCreditCard } from "@coreui/icons";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";

export default function BillingPage() {
  return (
    <>
      <PageHeader title="Billing" />
      <EmptyState
        icon={cilCreditCard}
        title="Billing is on its way"
        lead="This account's subscription will be managed here:"
        coming={["The current plan and its period", "Usage against the plan", "Invoices and the payment method"]}
      />
    </>
  );
}
