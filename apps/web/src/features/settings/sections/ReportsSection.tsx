// Placeholder: replaced by the Reports section's own implementation.
import type { SectionProps } from "../section-props";

export default function ReportsSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
