// Wraps a screen that works on one property: with none chosen it shows the property picker instead,
// under a notice when a link named a property this account cannot see (state/current-property).
import { CAlert } from "@coreui/react";
import type { CurrentProperty } from "@lookout/schema";
import type { ReactNode } from "react";
import { useProperties } from "../state/current-property";
import { PropertyPicker } from "./PropertyPicker";

export function RequireProperty({ children }: { children: (property: CurrentProperty) => ReactNode }) {
  const { current, linkUnknown } = useProperties();
  if (current) return children(current);
  return (
    <>
      {linkUnknown && (
        <CAlert color="warning" role="alert" className="link-unknown">
          This link is for a property that does not exist or that your account cannot see. Choose one of your properties below.
        </CAlert>
      )}
      <PropertyPicker />
    </>
  );
}

/** How a chosen property is named on screen: its address, else its id (an id-only selection). */
export function propertyLabel(p: CurrentProperty): string {
  return p.website_url || p.unique_id;
}
