// The dashboard's filters as removable chips ("Page is /pricing ×"), with Clear all. Removing a
// chip by keyboard must not drop focus to the page's top: it moves to the chip that took its place,
// else the one before it, else (no filter left, the bar is gone) the next control after the bar.
import { cilX } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton } from "@coreui/react";
import type { Filter } from "@lookout/schema";
import { useEffect, useRef } from "react";
import { filterText } from "./labels";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex="0"]';

/** The first visible focusable element after `el` in document order, outside it. */
function nextFocusable(el: HTMLElement): HTMLElement | null {
  for (const c of document.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (el.contains(c) || !(el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    if (c.getClientRects().length > 0) return c;
  }
  return null;
}

/** Where focus goes once the filters changed: a chip's index, or an element outside the bar. */
type FocusTarget = { chip: number } | { element: HTMLElement | null };

export function FilterBar({ filters, onChange }: { filters: Filter[]; onChange: (filters: Filter[]) => void }) {
  const bar = useRef<HTMLElement>(null);
  const pending = useRef<FocusTarget | null>(null);

  // After the render that shows the new filters (they arrive through the URL, not synchronously).
  const signature = JSON.stringify(filters);
  const shown = useRef(signature);
  useEffect(() => {
    if (shown.current === signature) return;
    shown.current = signature;
    const want = pending.current;
    if (!want) return;
    pending.current = null;
    if ("chip" in want) bar.current?.querySelectorAll<HTMLElement>(".filter-chip-remove")[want.chip]?.focus();
    else want.element?.focus();
  });

  const change = (next: Filter[]) => {
    pending.current =
      next.length > 0
        ? { chip: Math.min(next.length - 1, indexOfFocus()) }
        : { element: bar.current && nextFocusable(bar.current) };
    onChange(next);
  };
  /** The focused chip's index (the chip being removed), or the last chip's when focus is elsewhere. */
  const indexOfFocus = () => {
    const buttons = [...(bar.current?.querySelectorAll(".filter-chip-remove") ?? [])];
    const i = buttons.indexOf(document.activeElement as Element);
    return i < 0 ? buttons.length : i;
  };

  if (filters.length === 0) return null;
  return (
    <section ref={bar} className="filter-bar d-flex flex-wrap align-items-center gap-2 mb-3" aria-label="Filters">
      {filters.map((f, i) => {
        const text = filterText(f);
        return (
          <span className="filter-chip" key={`${f.dimension}-${f.op}-${f.values.join("|")}`} data-dimension={f.dimension}>
            <span className="filter-chip-text text-truncate" title={text}>
              {text}
            </span>
            <button
              type="button"
              className="filter-chip-remove"
              aria-label={`Remove filter: ${text}`}
              onClick={() => change(filters.filter((_, j) => j !== i))}
            >
              <CIcon icon={cilX} size="sm" aria-hidden="true" />
            </button>
          </span>
        );
      })}
      {filters.length > 1 && (
        <CButton color="secondary" variant="ghost" size="sm" onClick={() => change([])}>
          Clear all
        </CButton>
      )}
    </section>
  );
}
