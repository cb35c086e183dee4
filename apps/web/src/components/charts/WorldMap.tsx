// The world map of the app: countries shaded by a value each (a square-root scale, so a few big
// countries do not wash out the rest), a tooltip with the country's name and value, and what a
// screen adds: a dot on each country with data (so small ones show too), a click on a country.
// While the shapes load, or if they cannot, a line of text stands in the map's box.
import { CSpinner } from "@coreui/react";
import type { EChartsCoreOption, EChartsType } from "echarts/core";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { countryName } from "../../lib/countries";
import { type ChartColors, useChartColors } from "./chart-colors";
import { EChart } from "./EChart";
import { escapeHtml } from "./echarts-core";
import { countryCentre, loadWorldMap, WORLD_MAP } from "./world-map";
import "./world-map.css";

export interface WorldMapProps {
  /** A value per country, by ISO alpha-2 code. */
  data: { code: string; value: number }[];
  /** A value as the tooltip says it, e.g. "1.2k visitors". */
  describe: (value: number) => string;
  label: string;
  /** Called with the code of a clicked country that has data; the map highlights under the pointer only then. */
  onSelect?: (code: string) => void;
  markers?: boolean;
  renderer?: "canvas" | "svg";
  /** Sizes the box (the default is 2:1.1 across the width). */
  className?: string;
}

function optionFor(p: WorldMapProps, c: ChartColors, values: Map<string, number>): EChartsCoreOption {
  const max = Math.max(1, ...values.values());
  const shade = (v: number) => `rgba(${c.primaryRgb}, ${(0.15 + 0.85 * Math.sqrt(v / max)).toFixed(3)})`;
  const markers = p.markers
    ? [...values].flatMap(([code, v]) => {
        const at = countryCentre(code);
        return at ? [{ name: code, value: [...at, v] }] : [];
      })
    : [];
  // Regions without an ISO code are named "none-…" (world-map.ts): they read as unknown.
  const formatter = ({ name }: { name: string }) =>
    `<strong>${escapeHtml(countryName(/^[A-Z]{2}$/.test(name) ? name : undefined))}</strong><br>${escapeHtml(
      p.describe(values.get(name) ?? 0),
    )}`;
  return {
    animation: false,
    tooltip: {
      trigger: "item",
      confine: true,
      backgroundColor: c.tooltipBg,
      borderColor: c.border,
      textStyle: { color: c.text, fontSize: 12 },
      formatter,
    },
    geo: {
      map: WORLD_MAP,
      roam: false,
      left: 0,
      right: 0,
      top: 0,
      bottom: 0,
      selectedMode: false,
      // A geo component's tooltip does not inherit the chart's formatter.
      tooltip: { show: true, formatter },
      itemStyle: { areaColor: c.land, borderColor: c.border, borderWidth: 0.5 },
      label: { show: false },
      emphasis: p.onSelect ? { label: { show: false }, itemStyle: { areaColor: c.primary } } : { disabled: true },
      regions: [...values].map(([name, v]) => ({ name, itemStyle: { areaColor: shade(v) } })),
    },
    series: markers.length
      ? [
          {
            type: "scatter",
            coordinateSystem: "geo",
            data: markers,
            symbolSize: (v: number[]) => 8 + 10 * Math.sqrt((v[2] ?? 0) / max),
            itemStyle: { color: c.primary, borderColor: c.surface, borderWidth: 1.5 },
            emphasis: { scale: 1.3 },
            z: 3,
          },
        ]
      : [],
  };
}

function WorldMap(props: WorldMapProps) {
  const [map, setMap] = useState<"loading" | "ready" | "failed">("loading");
  const c = useChartColors();

  useEffect(() => {
    let live = true;
    loadWorldMap().then(
      () => live && setMap("ready"),
      (err: unknown) => {
        console.warn("The world map could not be loaded", err);
        if (live) setMap("failed");
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const values = useMemo(() => new Map(props.data.map((d) => [d.code.toUpperCase(), d.value])), [props.data]);
  // Only once the shapes are in: the markers' places come with them.
  const option = useMemo(() => (map === "ready" ? optionFor(props, c, values) : null), [props, c, values, map]);

  const select = useRef(props.onSelect);
  select.current = props.onSelect;
  const has = useRef(values);
  has.current = values;
  const listen = useCallback((chart: EChartsType) => {
    chart.on("click", (e) => {
      if (typeof e.name === "string" && has.current.has(e.name)) select.current?.(e.name);
    });
  }, []);

  const box = props.className ? `world-map ${props.className}` : "world-map";
  if (!option) {
    return (
      <div className={`${box} world-map-note`} role={map === "loading" ? "status" : undefined}>
        {map === "loading" ? (
          <>
            <CSpinner size="sm" className="me-2" aria-hidden="true" /> Loading the map…
          </>
        ) : (
          "The map could not be drawn; the list of countries has the same numbers."
        )}
      </div>
    );
  }
  return <EChart option={option} label={props.label} renderer={props.renderer} onInit={listen} className={box} />;
}

export default memo(WorldMap);
