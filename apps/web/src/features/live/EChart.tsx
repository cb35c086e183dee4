// One ECharts instance in a div: created on mount, resized with its box, given each new option.
// Layout effects, so the instance is gone before the browser reports the removed box as 0×0: a
// geo chart resized to nothing throws inside ECharts.
import type { EChartsCoreOption, EChartsType } from "echarts/core";
import { useLayoutEffect, useRef } from "react";
import { echarts } from "./echarts";

export function EChart({ option, className, label }: { option: EChartsCoreOption; className?: string; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = echarts.init(el, null, { renderer: "svg" });
    chart.current = instance;
    const resize = new ResizeObserver(() => {
      if (instance.isDisposed() || !el.isConnected || el.clientWidth === 0 || el.clientHeight === 0) return;
      instance.resize();
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useLayoutEffect(() => {
    chart.current?.setOption(option, { lazyUpdate: true });
  }, [option]);

  return <div ref={box} className={className} role="img" aria-label={label} />;
}
