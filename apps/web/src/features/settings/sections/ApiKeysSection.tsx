// Placeholder: replaced by the ApiKeys section's own implementation.
import type { SectionProps } from "../section-props";

export default function ApiKeysSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
