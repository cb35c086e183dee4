// Mounts one ECharts instance in a div and keeps it in step with React: created once the box has
// a size (ECharts cannot lay out a map or a grid in a 0×0 box and throws), resized with the box,
// given each new option, disposed with the component. Layout effects, so the instance is gone
// before the browser reports a removed box as 0×0. Charts do not animate for people who ask the
// system for reduced motion.
import type { EChartsCoreOption, EChartsType } from "echarts/core";
import { type HTMLAttributes, useLayoutEffect, useRef } from "react";
import { echarts } from "./echarts-core";

export interface EChartProps extends Omit<HTMLAttributes<HTMLDivElement>, "role" | "aria-label" | "children"> {
  option: EChartsCoreOption;
  /** What the chart shows, for screen readers: the drawing itself says nothing to them. */
  label: string;
  /**
   * Canvas by default. SVG suits small charts redrawn on every update (the Live View): ECharts
   * patches only the SVG elements that changed, where a canvas repaints everything.
   */
  renderer?: "canvas" | "svg";
  /** Called once per instance, to listen to its events. */
  onInit?: (chart: EChartsType) => void;
}

export function EChart({ option, label, renderer = "canvas", onInit, ...div }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  latest.current = option;
  const init = useRef(onInit);
  init.current = onInit;
  /** The option on screen: an option that arrives while the box has no size waits for one. */
  const drawn = useRef<EChartsCoreOption | null>(null);

  const sync = (resized: boolean) => {
    const el = box.current;
    if (!el?.isConnected || el.clientWidth === 0 || el.clientHeight === 0) return;
    if (!chart.current) {
      chart.current = echarts.init(el, null, { renderer });
      init.current?.(chart.current);
    } else if (resized) chart.current.resize();
    if (drawn.current !== latest.current) {
      // notMerge: a series or axis left out of the new option must go, not linger from the old one.
      // Drawn at once, without ECharts' animations, for people who ask for less motion (WCAG 2.3.3).
      const still = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
      chart.current.setOption(still ? { ...latest.current, animation: false } : latest.current, { notMerge: true });
      drawn.current = latest.current;
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: sync reads only refs and the renderer.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => sync(true));
    observer.observe(el);
    sync(false);
    return () => {
      observer.disconnect();
      chart.current?.dispose();
      chart.current = null;
      drawn.current = null;
    };
  }, [renderer]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new option redraws.
  useLayoutEffect(() => sync(false), [option]);

  return <div ref={box} role="img" aria-label={label} {...div} />;
}
