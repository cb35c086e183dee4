// The app's ECharts set-up, tree-shaken: only the chart types, components and renderers the
// dashboard draws with are registered here (its line chart and world map, on canvas). What only
// the live view uses (bars, legend, the SVG renderer) is registered by ./echarts-live, which the
// live view imports, so the dashboard's chart chunk does not carry it. Nothing imports "echarts"
// itself, which would pull in everything ECharts has.
import { LineChart, ScatterChart } from "echarts/charts";
import { GeoComponent, GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

echarts.use([LineChart, ScatterChart, GridComponent, GeoComponent, TooltipComponent, CanvasRenderer]);

export { echarts };

/** ECharts tooltips are HTML: everything put into one goes through this. */
export const escapeHtml = (s: string): string => echarts.format.encodeHTML(s);
