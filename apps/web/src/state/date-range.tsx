// The shared date range (SPEC.md §3): the chosen preset (or custom dates), default last_7_days,
// plus the comparison the dashboard draws against it. It lives above the routes, so moving between
// screens keeps the chosen range; the dashboard mirrors it into its URL so a view can be shared.
// The days are computed in the property's timezone (DESIGN.md §4), the Stats API's own rule, so
// the label names the days the numbers count; "today" is re-read every minute so a page left open
// past midnight moves on with the server.
import { type Comparison, presetRange } from "@lookout/schema";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useProperties } from "./current-property";
import {
  browserTimezone,
  customRange,
  type DateRange,
  DEFAULT_PRESET,
  type FixedPreset,
  rangeFor,
  todayIn,
} from "./date-presets";

interface DateRangeApi {
  range: DateRange;
  /** Today's local day in the range's timezone (YYYY-MM-DD): no custom range ends after it. */
  today: string;
  /** The IANA timezone the days are counted in (the property's, else the browser's). */
  timezone: string;
  choosePreset: (preset: FixedPreset) => void;
  /**
   * Whole local days `from`..`to` (YYYY-MM-DD, inclusive). Returns null when chosen, else the
   * words saying why the range cannot be shown (reversed, ends in the future): the range stays.
   */
  chooseCustom: (from: string, to: string) => string | null;
  /** The comparison asked for; `effectiveComparison` drops it where the range has none. */
  compare: Comparison | null;
  chooseCompare: (compare: Comparison | null) => void;
}

type Choice = { preset: FixedPreset } | { preset: "custom"; from: string; to: string };

const DateRangeContext = createContext<DateRangeApi | null>(null);

const MINUTE_MS = 60_000;

/** `timezone`: the property's IANA timezone; the browser's until it is known. */
export function DateRangeProvider({ timezone, children }: { timezone?: string | undefined; children: ReactNode }) {
  const tz = timezone || browserTimezone();
  const [choice, setChoice] = useState<Choice>({ preset: DEFAULT_PRESET });
  const [compare, setCompare] = useState<Comparison | null>(null);
  const [today, setToday] = useState(() => todayIn(tz));
  useEffect(() => {
    setToday(todayIn(tz));
    const timer = setInterval(() => setToday(todayIn(tz)), MINUTE_MS);
    return () => clearInterval(timer);
  }, [tz]);
  const choosePreset = useCallback((preset: FixedPreset) => setChoice({ preset }), []);
  const chooseCustom = useCallback(
    (from: string, to: string) => {
      const r = customRange(from, to, today);
      if ("problem" in r) return r.problem;
      setChoice((was) => (was.preset === "custom" && was.from === from && was.to === to ? was : { preset: "custom", from, to }));
      return null;
    },
    [today],
  );
  const range = useMemo(() => {
    if (choice.preset !== "custom") return rangeFor(choice.preset, today);
    // Checked when chosen; taken as it is here (a clock moved back must not drop it).
    return presetRange(choice, today);
  }, [choice, today]);
  const value = useMemo(
    () => ({ range, today, timezone: tz, choosePreset, chooseCustom, compare, chooseCompare: setCompare }),
    [range, today, tz, choosePreset, chooseCustom, compare],
  );
  return <DateRangeContext.Provider value={value}>{children}</DateRangeContext.Provider>;
}

/** The app's provider, counting days in the current property's timezone (from the property list). */
export function PropertyDateRangeProvider({ children }: { children: ReactNode }) {
  const { current, properties } = useProperties();
  const timezone = properties.find((p) => p.unique_id === current?.unique_id)?.timezone;
  return <DateRangeProvider timezone={timezone}>{children}</DateRangeProvider>;
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
