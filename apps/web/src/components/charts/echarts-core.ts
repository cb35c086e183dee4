// The app's one ECharts set-up, tree-shaken: every chart type, component and renderer any screen
// draws with is registered here, once. Nothing imports "echarts" itself, which would pull in
// everything ECharts has; the screens reach this module only through their own lazy chunks.
import { BarChart, LineChart, ScatterChart } from "echarts/charts";
import { GeoComponent, GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer, SVGRenderer } from "echarts/renderers";

echarts.use([
  LineChart,
  BarChart,
  ScatterChart,
  GridComponent,
  GeoComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
  SVGRenderer,
]);

export { echarts };

/** ECharts tooltips are HTML: everything put into one goes through this. */
export const escapeHtml = (s: string): string => echarts.format.encodeHTML(s);
