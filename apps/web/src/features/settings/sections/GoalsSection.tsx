// Placeholder: replaced by the Goals section's own implementation.
import type { SectionProps } from "../section-props";

export default function GoalsSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
