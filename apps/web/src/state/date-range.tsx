// The shared date range (SPEC.md §3): start, end and preset, default last_7_days, plus the
// comparison the dashboard draws against it. It lives above the routes, so moving between screens
// keeps the chosen range; the dashboard mirrors it into its URL so a view can be shared.
import type { Comparison } from "@lookout/schema";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { customRange, type DateRange, DEFAULT_PRESET, type FixedPreset, rangeFor } from "./date-presets";

interface DateRangeApi {
  range: DateRange;
  choosePreset: (preset: FixedPreset) => void;
  /** Whole local days `from`..`to` (YYYY-MM-DD, inclusive); ignored when invalid or reversed. */
  chooseCustom: (from: string, to: string) => void;
  /** The comparison asked for; `effectiveComparison` drops it where the range has none. */
  compare: Comparison | null;
  chooseCompare: (compare: Comparison | null) => void;
}

const DateRangeContext = createContext<DateRangeApi | null>(null);

export function DateRangeProvider({ children }: { children: ReactNode }) {
  const [range, setRange] = useState(() => rangeFor(DEFAULT_PRESET));
  const [compare, setCompare] = useState<Comparison | null>(null);
  const choosePreset = useCallback((p: FixedPreset) => setRange(rangeFor(p)), []);
  const chooseCustom = useCallback((from: string, to: string) => {
    const r = customRange(from, to);
    if (r) setRange(r);
  }, []);
  const value = useMemo(
    () => ({ range, choosePreset, chooseCustom, compare, chooseCompare: setCompare }),
    [range, choosePreset, chooseCustom, compare],
  );
  return <DateRangeContext.Provider value={value}>{children}</DateRangeContext.Provider>;
}

export function useDateRange(): DateRangeApi {
  const api = useContext(DateRangeContext);
  if (!api) throw new Error("useDateRange outside DateRangeProvider");
  return api;
}

/** all_time has no earlier period to compare with. */
export function effectiveComparison(range: DateRange, compare: Comparison | null): Comparison | null {
  return range.preset === "all_time" ? null : compare;
}
