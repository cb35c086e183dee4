// Placeholder: replaced by the Profile section's own implementation.
import type { SectionProps } from "../section-props";

export default function ProfileSection(_props: SectionProps) {
  return <p className="text-body-secondary">Not built yet.</p>;
}
