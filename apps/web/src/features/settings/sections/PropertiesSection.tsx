// Placeholder: replaced by the Properties section's own implementation.
import type { SectionProps } from "../section-props";

export default function PropertiesSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
