// The colours charts draw with: CoreUI's CSS variables for the theme on screen (light or dark),
// read again whenever the app switches theme, since a canvas or SVG chart cannot follow CSS.
import { useMemo, useSyncExternalStore } from "react";

export interface ChartColors {
  text: string;
  muted: string;
  /** Light lines inside a plot: grid lines, the axis. */
  grid: string;
  /** Borders: between countries, around tooltips. */
  border: string;
  primary: string;
  primaryRgb: string;
  info: string;
  surface: string;
  /** Countries without data. */
  land: string;
  tooltipBg: string;
}

function subscribeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-coreui-theme"] });
  return () => observer.disconnect();
}

const currentTheme = () => document.documentElement.dataset.coreuiTheme ?? "light";

function readChartColors(dark: boolean): ChartColors {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--cui-body-color", dark ? "#e2e3e4" : "#252b36"),
    muted: v("--cui-secondary-color", "#6b7785"),
    grid: v("--cui-border-color-translucent", dark ? "rgba(255,255,255,.1)" : "rgba(0,0,0,.1)"),
    border: v("--cui-border-color", dark ? "#323a49" : "#dbdfe6"),
    primary: v("--cui-primary", "#5856d6"),
    primaryRgb: v("--cui-primary-rgb", "88, 86, 214"),
    info: v("--cui-info", "#39f"),
    surface: v("--cui-body-bg", dark ? "#212631" : "#fff"),
    land: dark ? v("--cui-tertiary-bg", "#2a303d") : v("--cui-secondary-bg", "#e7eaee"),
    tooltipBg: v("--cui-body-bg", dark ? "#212631" : "#fff"),
  };
}

/** The chart colours of the current theme; a new object when the theme changes. */
export function useChartColors(): ChartColors {
  const theme = useSyncExternalStore(subscribeTheme, currentTheme);
  return useMemo(() => readChartColors(theme === "dark"), [theme]);
}
