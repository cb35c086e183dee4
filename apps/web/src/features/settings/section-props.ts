// What every Settings section receives: the current property (for property sections), the
// signed-in user's role check, and whether they may change this section (else it is read-only).
import type { Action, CurrentProperty } from "@lookout/schema";

export interface SectionProps {
  /** The current property; null for account and user sections. */
  property: CurrentProperty | null;
  /** Whether the signed-in user may change this section (DESIGN.md §7); read-only otherwise. */
  canEdit: boolean;
  can: (action: Action) => boolean;
}
