// Chooses the shared date range's preset (or two dates of a custom range), says which dates it
// covers, and, where a screen compares periods, the comparison: off, previous period or year over
// year (never for all time, which has no earlier period). With `shortcuts`, keys choose the range
// too, and a button lists them (ShortcutsHelp).

import { CFormInput, CFormSelect } from "@coreui/react";
import { COMPARISONS, type Comparison } from "@lookout/schema";
import { useEffect, useId, useState } from "react";
import { isFixedPreset, PRESETS, toIsoDate } from "../state/date-presets";
import { useDateRange } from "../state/date-range";
import { ShortcutsHelp } from "./ShortcutsHelp";

const dateFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });

const COMPARISON_LABELS: Record<Comparison, string> = {
  previous_period: "Previous period",
  year_over_year: "Year over year",
};

export function DateRangePicker({ comparison = false, shortcuts = false }: { comparison?: boolean; shortcuts?: boolean }) {
  const { range, choosePreset, chooseCustom, compare, chooseCompare } = useDateRange();
  const id = useId();
  const today = toIsoDate(new Date());
  const from = toIsoDate(range.start);
  const to = toIsoDate(range.end);
  // The inputs keep what is typed until it makes a valid range; the range itself changes only then.
  const [draft, setDraft] = useState({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  const edit = (next: { from: string; to: string }) => {
    setDraft(next);
    if (next.from && next.to && next.from <= next.to && next.to <= today) chooseCustom(next.from, next.to);
  };
  const allTime = range.preset === "all_time";

  return (
    <div className="date-range-picker d-flex flex-wrap align-items-center gap-2">
      <label htmlFor={id} className="visually-hidden">
        Date range
      </label>
      <CFormSelect
        id={id}
        className="w-auto"
        value={range.preset}
        onChange={(e) => {
          const v = e.target.value;
          if (isFixedPreset(v)) choosePreset(v);
          else if (v === "custom") {
            // Start from the dates on show (the last 30 days after all time), then let them be edited.
            const start = allTime ? new Date(Date.now() - 29 * 86_400_000) : range.start;
            chooseCustom(toIsoDate(start), toIsoDate(allTime ? new Date() : range.end));
          }
        }}
      >
        {PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </CFormSelect>
      {range.preset === "custom" && (
        <div className="d-flex align-items-center gap-1">
          <CFormInput
            type="date"
            size="sm"
            aria-label="From"
            className="date-input"
            value={draft.from}
            max={draft.to || today}
            onChange={(e) => edit({ ...draft, from: e.target.value })}
          />
          <span aria-hidden="true">–</span>
          <CFormInput
            type="date"
            size="sm"
            aria-label="To"
            className="date-input"
            value={draft.to}
            min={draft.from}
            max={today}
            onChange={(e) => edit({ ...draft, to: e.target.value })}
          />
        </div>
      )}
      {comparison && (
        <CFormSelect
          aria-label="Compare"
          className="w-auto"
          value={allTime ? "" : (compare ?? "")}
          disabled={allTime}
          title={allTime ? "All time has no earlier period to compare with" : undefined}
          onChange={(e) => {
            const v = e.target.value;
            chooseCompare((COMPARISONS as readonly string[]).includes(v) ? (v as Comparison) : null);
          }}
        >
          <option value="">No comparison</option>
          {COMPARISONS.map((c) => (
            <option key={c} value={c}>
              {COMPARISON_LABELS[c]}
            </option>
          ))}
        </CFormSelect>
      )}
      <span className="small text-body-secondary" data-testid="date-range-span">
        {allTime ? "All time" : dateFormat.formatRange(range.start, range.end)}
      </span>
      {shortcuts && <ShortcutsHelp />}
    </div>
  );
}
