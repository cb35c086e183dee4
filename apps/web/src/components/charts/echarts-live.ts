// ECharts parts only the live view draws with: its per-minute bar chart with a legend, and the
// SVG renderer (its charts redraw every few seconds). Imported by the live view's modules, for
// the side effect, before any of its charts is created; the dashboard never loads it.
import { BarChart } from "echarts/charts";
import { LegendComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import { echarts } from "./echarts-core";

echarts.use([BarChart, LegendComponent, SVGRenderer]);
