// Placeholder: replaced by the Tracking section's own implementation.
import type { SectionProps } from "../section-props";

export default function TrackingSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
