// Placeholder: replaced by the SharedLinks section's own implementation.
import type { SectionProps } from "../section-props";

export default function SharedLinksSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
