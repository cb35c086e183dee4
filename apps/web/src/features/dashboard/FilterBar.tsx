// The dashboard's filters as removable chips ("Page is /pricing ×"), with Clear all.
import { cilX } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton } from "@coreui/react";
import type { Filter } from "@lookout/schema";
import { filterText } from "./labels";

export function FilterBar({ filters, onChange }: { filters: Filter[]; onChange: (filters: Filter[]) => void }) {
  if (filters.length === 0) return null;
  return (
    <section className="filter-bar d-flex flex-wrap align-items-center gap-2 mb-3" aria-label="Filters">
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
              onClick={() => onChange(filters.filter((_, j) => j !== i))}
            >
              <CIcon icon={cilX} size="sm" aria-hidden="true" />
            </button>
          </span>
        );
      })}
      {filters.length > 1 && (
        <CButton color="secondary" variant="ghost" size="sm" onClick={() => onChange([])}>
          Clear all
        </CButton>
      )}
    </section>
  );
}
