// The shared date range (SPEC.md §3): start, end and preset, default last_7_days. It lives above
// the routes, so moving between screens keeps the chosen range.
import { createContext, type ReactNode, useContext, useMemo, useState } from "react";
import { type DateRange, DEFAULT_PRESET, type Preset, rangeFor } from "./date-presets";

interface DateRangeApi {
  range: DateRange;
  choosePreset: (preset: Preset) => void;
}

const DateRangeContext = createContext<DateRangeApi | null>(null);

export function DateRangeProvider({ children }: { children: ReactNode }) {
  const [range, setRange] = useState(() => rangeFor(DEFAULT_PRESET));
  const value = useMemo(() => ({ range, choosePreset: (p: Preset) => setRange(rangeFor(p)) }), [range]);
  return <DateRangeContext.Provider value={value}>{children}</DateRangeContext.Provider>;
}

export function useDateRange(): DateRangeApi {
  const api = useContext(DateRangeContext);
  if (!api) throw new Error("useDateRange outside DateRangeProvider");
  return api;
}
