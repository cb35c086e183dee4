// Wraps a screen that works on one property: with none chosen it shows the property picker instead.
import type { CurrentProperty } from "@lookout/schema";
import type { ReactNode } from "react";
import { useProperties } from "../state/current-property";
import { PropertyPicker } from "./PropertyPicker";

export function RequireProperty({ children }: { children: (property: CurrentProperty) => ReactNode }) {
  const { current } = useProperties();
  return current ? children(current) : <PropertyPicker />;
}

/** How a chosen property is named on screen: its address, else its id (an id-only selection). */
export function propertyLabel(p: CurrentProperty): string {
  return p.website_url || p.unique_id;
}
