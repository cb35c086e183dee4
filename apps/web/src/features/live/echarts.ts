// The slice of ECharts the Live View draws with (a map with dots, bars and a line), registered once so the
// bundle carries only these, and the colours of the current CoreUI theme for them.
import { BarChart, LineChart, MapChart, ScatterChart } from "echarts/charts";
import { GeoComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapContinuousComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { useMemo, useSyncExternalStore } from "react";

echarts.use([
  MapChart,
  ScatterChart,
  GeoComponent,
  BarChart,
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapContinuousComponent,
  SVGRenderer,
]);

export { echarts };

export interface ChartColors {
  primary: string;
  primaryRgb: string;
  info: string;
  text: string;
  muted: string;
  border: string;
  surface: string;
  land: string;
  tooltipBg: string;
}

function subscribeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-coreui-theme"] });
  return () => observer.disconnect();
}

const currentTheme = () => document.documentElement.dataset.coreuiTheme ?? "light";

/** CoreUI's colours for the theme on screen; recomputed when the theme changes. */
export function useChartColors(): ChartColors {
  const theme = useSyncExternalStore(subscribeTheme, currentTheme);
  return useMemo(() => {
    const css = getComputedStyle(document.documentElement);
    const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    const dark = theme === "dark";
    return {
      primary: v("--cui-primary", "#5856d6"),
      primaryRgb: v("--cui-primary-rgb", "88, 86, 214"),
      info: v("--cui-info", "#39f"),
      text: v("--cui-body-color", dark ? "#e2e3e4" : "#252b36"),
      muted: v("--cui-secondary-color", "#6b7785"),
      border: v("--cui-border-color", dark ? "#323a49" : "#dbdfe6"),
      surface: v("--cui-body-bg", dark ? "#212631" : "#fff"),
      land: dark ? v("--cui-tertiary-bg", "#2a303d") : v("--cui-secondary-bg", "#e7eaee"),
      tooltipBg: v("--cui-body-bg", dark ? "#212631" : "#fff"),
    };
  }, [theme]);
}
