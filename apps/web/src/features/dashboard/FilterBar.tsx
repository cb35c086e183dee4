// The dashboard's filter bar: a Filter button opening the filter dialog, the filters as chips that
// say their operator ("Country is not Germany, France ×"), each editable (its text opens the dialog
// filled in) and removable, and Clear all. Removing a chip by keyboard must not drop focus to the
// page's top: it moves to the chip that took its place, else the one before it, else (no filter
// left) the Filter button. Closing the dialog returns focus to what opened it (or, after an edit,
// to the edited chip, which is a new element).
import { cilFilter, cilX } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton } from "@coreui/react";
import type { Filter } from "@lookout/schema";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { StatsQuery } from "./api";
import { replaceFilter, withFilter } from "./filters";
import { filterText } from "./labels";
import "./filter-dialog.css";

// The dialog (and its checks) loads when someone opens it, not with the dashboard.
const FilterDialog = lazy(() => import("./FilterDialog"));

/** Where focus goes once the filters changed: a chip's remove or edit button, or the Filter button. */
type FocusTarget = { chip: number; part: "remove" | "edit" } | { add: true };

/** The dialog: closed, adding a filter, or editing the filter at `index`. */
type Editing = null | { index: number | null };

export function FilterBar({
  filters,
  onChange,
  query,
}: {
  filters: Filter[];
  onChange: (filters: Filter[]) => void;
  /** The dashboard's query, for the dialog's suggestions. */
  query: StatsQuery;
}) {
  const bar = useRef<HTMLElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  /**
   * Focus to move once the dialog is gone and, if `after` is set, the filters differ from `after`
   * (they arrive through the URL, a render later).
   */
  const pending = useRef<{ target: FocusTarget; after: string | null } | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const signature = JSON.stringify(filters);

  useEffect(() => {
    const want = pending.current;
    if (!want || editing || (want.after !== null && want.after === signature)) return;
    pending.current = null;
    const { target } = want;
    if ("add" in target) addButton.current?.focus();
    else bar.current?.querySelectorAll<HTMLElement>(`.filter-chip-${target.part}`)[target.chip]?.focus();
  });

  const change = (next: Filter[], target: FocusTarget) => {
    pending.current = { target, after: signature };
    onChange(next);
  };
  const remove = (i: number) => {
    const next = filters.filter((_, j) => j !== i);
    change(next, next.length > 0 ? { chip: Math.min(next.length - 1, indexOfFocus()), part: "remove" } : { add: true });
  };
  /** The focused chip's index (the chip being removed), or the last chip's when focus is elsewhere. */
  const indexOfFocus = () => {
    const buttons = [...(bar.current?.querySelectorAll(".filter-chip-remove") ?? [])];
    const i = buttons.indexOf(document.activeElement as Element);
    return i < 0 ? buttons.length : i;
  };

  /** Closed without a change: focus goes back to what opened the dialog, still in place. */
  const closeDialog = () => {
    if (editing) {
      const target: FocusTarget = editing.index === null ? { add: true } : { chip: editing.index, part: "edit" };
      pending.current = { target, after: null };
    }
    setEditing(null);
  };
  const apply = (f: Filter) => {
    const index = editing?.index ?? null;
    setEditing(null);
    const next = index === null ? withFilter(filters, f) : replaceFilter(filters, index, f);
    const target: FocusTarget = index === null ? { add: true } : { chip: next.indexOf(f), part: "edit" };
    if (JSON.stringify(next) === signature) pending.current = { target, after: null };
    else change(next, target);
  };

  return (
    <section ref={bar} className="filter-bar d-flex flex-wrap align-items-center gap-2 mb-3" aria-label="Filters">
      <CButton
        ref={addButton}
        color="secondary"
        variant="outline"
        size="sm"
        className="filter-add"
        onClick={() => setEditing({ index: null })}
      >
        <CIcon icon={cilFilter} size="sm" className="me-1" aria-hidden="true" />
        Filter
      </CButton>
      {filters.map((f, i) => {
        const text = filterText(f);
        return (
          <span className="filter-chip" key={`${f.dimension}-${f.op}-${f.values.join("|")}`} data-dimension={f.dimension}>
            <button
              type="button"
              className="filter-chip-edit filter-chip-text text-truncate"
              title={text}
              aria-label={`Edit filter: ${text}`}
              onClick={() => setEditing({ index: i })}
            >
              {text}
            </button>
            <button type="button" className="filter-chip-remove" aria-label={`Remove filter: ${text}`} onClick={() => remove(i)}>
              <CIcon icon={cilX} size="sm" aria-hidden="true" />
            </button>
          </span>
        );
      })}
      {filters.length > 1 && (
        <CButton color="secondary" variant="ghost" size="sm" onClick={() => change([], { add: true })}>
          Clear all
        </CButton>
      )}
      {editing && (
        <Suspense fallback={null}>
          <FilterDialog
            initial={editing.index === null ? null : (filters[editing.index] ?? null)}
            others={editing.index === null ? filters : filters.filter((_, j) => j !== editing.index)}
            query={query}
            onApply={apply}
            onClose={closeDialog}
          />
        </Suspense>
      )}
    </section>
  );
}
