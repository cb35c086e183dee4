// The words /billing uses for the schema's values: statuses, features, invoice states.
import type { BillingStatus, Invoice, PlanFeature } from "@lookout/schema";

export const STATUS_LABEL: Record<BillingStatus, string> = {
  active: "Active",
  grace: "Grace period",
  locked: "Locked",
  self_hosted: "Self-hosted",
};

/** The status badge's colour family (its subtle background and emphasis text read well in both themes). */
export const STATUS_COLOR: Record<BillingStatus, string> = {
  active: "success",
  grace: "warning",
  locked: "danger",
  self_hosted: "secondary",
};

export const FEATURE_LABEL: Record<PlanFeature, string> = {
  goals: "Goals and conversions",
  shared_links: "Shared dashboard links",
  stats_api: "Stats API access",
  insights: "Product analytics insights",
  funnels: "Funnels",
  email_reports: "E-mail reports",
  exports: "Data exports",
  revenue_goals: "Revenue goals",
};

export const INVOICE_STATUS_LABEL: Record<Invoice["status"], string> = {
  draft: "Draft",
  open: "Due",
  paid: "Paid",
  uncollectible: "Uncollectible",
  void: "Void",
};
