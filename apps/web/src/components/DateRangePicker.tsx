// Chooses the shared date range's preset (or two dates of a custom range), says which dates it
// covers (the property's local days, the ones the numbers count), and, where a screen compares
// periods, the comparison: off, previous period or year over year (never for all time, which has
// no earlier period). A custom range that ends in the future or starts after it ends is not
// chosen, and the picker says why. With `shortcuts`, keys choose the range too, and a button lists
// them (ShortcutsHelp).

import { CFormInput, CFormSelect } from "@coreui/react";
import { COMPARISONS, type Comparison } from "@lookout/schema";
import { useEffect, useId, useState } from "react";
import { isFixedPreset, last30Days, PRESETS, parseIsoDate } from "../state/date-presets";
import { useDateRange } from "../state/date-range";
import { ShortcutsHelp } from "./ShortcutsHelp";

const dateFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });

/** "19 – 25 Nov 2026": the range's first and last local day, both included. */
function daysLabel(first: string, last: string): string {
  const a = parseIsoDate(first);
  const b = parseIsoDate(last);
  return a && b ? dateFormat.formatRange(a, b) : `${first} – ${last}`;
}

const COMPARISON_LABELS: Record<Comparison, string> = {
  previous_period: "Previous period",
  year_over_year: "Year over year",
};

export function DateRangePicker({ comparison = false, shortcuts = false }: { comparison?: boolean; shortcuts?: boolean }) {
  const { range, today, timezone, choosePreset, chooseCustom, compare, chooseCompare } = useDateRange();
  const id = useId();
  const from = range.firstDay;
  const to = range.lastDay;
  // The inputs keep what is typed until it makes a valid range; the range itself changes only then,
  // and until then the picker says what is wrong with the dates typed.
  const [draft, setDraft] = useState({ from, to });
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setDraft({ from, to });
    setProblem(null);
  }, [from, to]);
  const edit = (next: { from: string; to: string }) => {
    setDraft(next);
    setProblem(next.from && next.to ? chooseCustom(next.from, next.to) : "Enter both dates.");
  };
  const allTime = range.preset === "all_time";
  const problemId = `${id}-problem`;

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
            const start = allTime ? last30Days(today) : { from, to };
            chooseCustom(start.from, start.to);
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
        <div className="d-flex flex-column">
          <div className="d-flex align-items-center gap-1">
            <CFormInput
              type="date"
              size="sm"
              aria-label="From"
              className="date-input"
              value={draft.from}
              max={today}
              invalid={!!problem}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(e) => edit({ ...draft, from: e.target.value })}
            />
            <span aria-hidden="true">–</span>
            <CFormInput
              type="date"
              size="sm"
              aria-label="To"
              className="date-input"
              value={draft.to}
              max={today}
              invalid={!!problem}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(e) => edit({ ...draft, to: e.target.value })}
            />
          </div>
          {problem && (
            <div id={problemId} className="invalid-feedback d-block" style={{ maxWidth: "20rem" }} role="alert">
              {problem}
            </div>
          )}
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
      <span
        className="small text-body-secondary"
        data-testid="date-range-span"
        data-first-day={allTime ? undefined : from}
        data-last-day={to}
        title={`Days in ${timezone}`}
      >
        {allTime ? "All time" : daysLabel(from, to)}
      </span>
      {shortcuts && <ShortcutsHelp />}
    </div>
  );
}
