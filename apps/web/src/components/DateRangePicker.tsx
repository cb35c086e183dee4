// Chooses the shared date range's preset and says which dates it covers.
import { CFormSelect } from "@coreui/react";
import { useId } from "react";
import { isPreset, PRESETS } from "../state/date-presets";
import { useDateRange } from "../state/date-range";

const dateFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });

export function DateRangePicker() {
  const { range, choosePreset } = useDateRange();
  const id = useId();
  return (
    <div className="d-flex flex-wrap align-items-center gap-2">
      <label htmlFor={id} className="visually-hidden">
        Date range
      </label>
      <CFormSelect
        id={id}
        className="w-auto"
        value={range.preset}
        onChange={(e) => {
          if (isPreset(e.target.value)) choosePreset(e.target.value);
        }}
      >
        {PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </CFormSelect>
      <span className="small text-body-secondary" data-testid="date-range-span">
        {dateFormat.formatRange(range.start, range.end)}
      </span>
    </div>
  );
}
