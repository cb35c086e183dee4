// Placeholder: replaced by the Account section's own implementation.
import type { SectionProps } from "../section-props";

export default function AccountSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
