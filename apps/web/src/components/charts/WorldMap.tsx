// A world map coloured by a value per country (ECharts map series). The shapes come from the
// world-atlas package (Natural Earth 1:110m, bundled into this lazy chunk: nothing is fetched at
// run time); features are keyed by ISO alpha-2 code. Clicking a country calls onSelect.
import { MapChart } from "echarts/charts";
import type { Geometry } from "geojson";
import { memo, useCallback, useRef } from "react";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import world from "world-atlas/countries-110m.json";
import { type ChartColors, echarts, escapeHtml } from "./echarts-core";
import { useEChart } from "./use-echart";

echarts.use([MapChart]);

const MAP = "lookout-world";
let registered = false;

type Ring = number[][];

/**
 * ECharts draws rings flat, so a ring crossing the antimeridian (eastern Russia, Fiji) would streak
 * across the whole map: its western points move east of 180° instead.
 */
function unwrapRing(ring: Ring): Ring {
  const crosses = ring.some((p, i) => i > 0 && Math.abs((p[0] ?? 0) - (ring[i - 1]?.[0] ?? 0)) > 180);
  return crosses ? ring.map(([lon = 0, lat = 0]) => [lon < 0 ? lon + 360 : lon, lat]) : ring;
}

function unwrapGeometry(g: Geometry): Geometry {
  if (g.type === "Polygon") return { ...g, coordinates: g.coordinates.map(unwrapRing) };
  if (g.type === "MultiPolygon") return { ...g, coordinates: g.coordinates.map((poly) => poly.map(unwrapRing)) };
  return g;
}

/** Registers the map once, with each feature named by its alpha-2 code (Antarctica left out). */
function registerWorld(toAlpha2: (numeric: string) => string | undefined) {
  if (registered) return;
  const topo = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const geo = feature(topo, topo.objects.countries);
  const features = geo.features
    .filter((f) => f.id !== "010")
    .map((f) => ({
      ...f,
      geometry: unwrapGeometry(f.geometry),
      properties: { name: (f.id && toAlpha2(String(f.id))) || f.properties.name },
    }));
  echarts.registerMap(MAP, { type: "FeatureCollection", features } as Parameters<typeof echarts.registerMap>[1]);
  registered = true;
}

export interface WorldMapProps {
  data: { code: string; value: number }[];
  nameOf: (code: string) => string;
  toAlpha2: (numeric: string) => string | undefined;
  formatValue: (n: number) => string;
  valueLabel: string;
  onSelect?: (code: string) => void;
  ariaLabel: string;
  height?: number;
}

function optionFor(p: WorldMapProps, c: ChartColors) {
  const max = Math.max(1, ...p.data.map((d) => d.value));
  return {
    tooltip: {
      trigger: "item",
      confine: true,
      backgroundColor: c.tooltipBg,
      borderColor: c.grid,
      textStyle: { color: c.text, fontSize: 12 },
      formatter: (it: { name: string; value: unknown }) => {
        const v = typeof it.value === "number" && Number.isFinite(it.value) ? it.value : 0;
        return `<strong>${escapeHtml(p.nameOf(it.name))}</strong><br>${escapeHtml(p.formatValue(v))} ${escapeHtml(p.valueLabel)}`;
      },
    },
    series: [
      {
        type: "map",
        map: MAP,
        roam: false,
        aspectScale: 0.85,
        left: 0,
        right: 0,
        top: 4,
        bottom: 4,
        selectedMode: false,
        itemStyle: { areaColor: `rgba(${c.primaryRgb}, 0.06)`, borderColor: c.grid, borderWidth: 0.5 },
        emphasis: { label: { show: false }, itemStyle: { areaColor: c.primary } },
        label: { show: false },
        data: p.data.map((d) => ({
          name: d.code.toUpperCase(),
          value: d.value,
          // A square-root scale, so a few big countries do not wash out the rest.
          itemStyle: { areaColor: `rgba(${c.primaryRgb}, ${(0.15 + 0.85 * Math.sqrt(d.value / max)).toFixed(3)})` },
        })),
      },
    ],
  };
}

function WorldMap(props: WorldMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const select = useRef(props.onSelect);
  select.current = props.onSelect;
  registerWorld(props.toAlpha2);
  const option = useCallback((c: ChartColors) => optionFor(props, c), [props]);
  useEChart(box, option, (chart) =>
    chart.on("click", (e) => {
      if (typeof e.name === "string" && /^[A-Z]{2}$/.test(e.name) && typeof e.value === "number") select.current?.(e.name);
    }),
  );
  return (
    <div
      ref={box}
      className="world-map"
      role="img"
      aria-label={props.ariaLabel}
      style={props.height ? { height: props.height } : { aspectRatio: "2 / 1.1" }}
    />
  );
}

export default memo(WorldMap);
