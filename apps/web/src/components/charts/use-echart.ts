// Runs one ECharts instance in a box: created once the box has a size (ECharts cannot lay out a
// map or a grid in a 0×0 box and throws), resized with the box, redrawn when the option or the
// light/dark theme changes, disposed with the component.
import { type RefObject, useEffect, useRef, useState } from "react";
import { type ChartColors, echarts, readChartColors, watchTheme } from "./echarts-core";

type Option = Parameters<echarts.ECharts["setOption"]>[0];

export function useEChart(
  box: RefObject<HTMLDivElement | null>,
  option: (colors: ChartColors) => Option,
  onInit?: (chart: echarts.ECharts) => void,
): void {
  const chart = useRef<echarts.ECharts | null>(null);
  const latest = useRef(option);
  latest.current = option;
  const init = useRef(onInit);
  init.current = onInit;
  const [theme, setTheme] = useState(0);
  /** An update arrived while the box had no size: draw it once the box has one. */
  const stale = useRef(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const hasSize = () => el.clientWidth > 0 && el.clientHeight > 0;
    const draw = (c: echarts.ECharts) => c.setOption(latest.current(readChartColors()), { notMerge: true });
    const start = () => {
      if (chart.current || !hasSize()) return;
      const c = echarts.init(el, undefined, { renderer: "canvas" });
      chart.current = c;
      init.current?.(c);
      draw(c);
    };
    const resize = new ResizeObserver(() => {
      if (!hasSize()) return;
      if (!chart.current) start();
      else if (stale.current) {
        stale.current = false;
        chart.current.resize();
        draw(chart.current);
      } else chart.current.resize();
    });
    resize.observe(el);
    start();
    const unwatch = watchTheme(() => setTheme((n) => n + 1));
    return () => {
      unwatch();
      resize.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [box]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new option or theme redraws.
  useEffect(() => {
    const el = box.current;
    if (!chart.current || !el) return;
    if (el.clientWidth > 0 && el.clientHeight > 0) chart.current.setOption(option(readChartColors()), { notMerge: true });
    else stale.current = true;
  }, [option, theme]);
}
