// Placeholder: replaced by the Exclusions section's own implementation.
import type { SectionProps } from "../section-props";

export default function ExclusionsSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
