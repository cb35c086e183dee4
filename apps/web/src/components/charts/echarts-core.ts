// The one ECharts set-up of the app, tree-shaken: the core, the canvas renderer and the tooltip
// here; each chart component adds its own chart type (echarts.use is idempotent). Nothing imports
// "echarts" itself, which would pull in every chart type, and this module is only reached through
// lazy imports, so the first page never carries it.
import { TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

echarts.use([TooltipComponent, CanvasRenderer]);

export { echarts };

/** The theme colours of the page (CoreUI's CSS variables), read when a chart draws. */
export interface ChartColors {
  text: string;
  muted: string;
  grid: string;
  primary: string;
  primaryRgb: string;
  comparison: string;
  background: string;
  tooltipBg: string;
}

export function readChartColors(el: Element = document.documentElement): ChartColors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--cui-body-color", "#212529"),
    muted: v("--cui-secondary-color", "#6c757d"),
    grid: v("--cui-border-color-translucent", "rgba(0,0,0,.1)"),
    primary: v("--cui-primary", "#5856d6"),
    primaryRgb: v("--cui-primary-rgb", "88, 86, 214"),
    comparison: v("--cui-secondary-color", "#9da5b1"),
    background: v("--cui-body-bg", "#fff"),
    tooltipBg: v("--cui-tertiary-bg", "#f8f9fa"),
  };
}

/** Calls `onChange` when the app switches between light and dark (CoreUI's data-coreui-theme). */
export function watchTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-coreui-theme"] });
  return () => observer.disconnect();
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** ECharts tooltips are HTML: everything put into one goes through this. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}
