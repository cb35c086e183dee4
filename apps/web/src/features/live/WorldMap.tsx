// Live visitors on a world map, shaded by how many are in each country. The map data ships with
// the app (world-atlas); while it loads, or if it cannot, the country list beside it says it all.
import { CSpinner } from "@coreui/react";
import type { EChartsCoreOption } from "echarts/core";
import { useEffect, useMemo, useState } from "react";
import { countryName } from "../../lib/countries";
import { EChart } from "./EChart";
import { echarts, useChartColors } from "./echarts";
import type { Ranked } from "./live-stats";
import { countryCentre, loadWorldMap, WORLD_MAP } from "./world-map";

export function WorldMap({ countries }: { countries: Ranked[] }) {
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

  const option = useMemo<EChartsCoreOption>(() => {
    const max = Math.max(1, ...countries.map((r) => r.visitors));
    const describe = (code: string, n: number) =>
      `${echarts.format.encodeHTML(countryName(code.startsWith("none-") ? undefined : code))}: ${n} ${n === 1 ? "visitor" : "visitors"}`;
    const markers = countries.flatMap((r) => {
      const at = map === "ready" ? countryCentre(r.label) : undefined;
      return at ? [{ name: r.label, value: [...at, r.visitors] }] : [];
    });
    return {
      animation: false,
      tooltip: {
        trigger: "item",
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text },
        formatter: (p: { name: string; value?: number | number[] }) => {
          const v = Array.isArray(p.value) ? p.value[2] : p.value;
          return describe(p.name, Number.isFinite(v) ? (v as number) : 0);
        },
      },
      geo: {
        map: WORLD_MAP,
        roam: false,
        left: 0,
        right: 0,
        top: 0,
        bottom: 0,
        selectedMode: false,
        itemStyle: { areaColor: c.land, borderColor: c.border, borderWidth: 0.5 },
        emphasis: { label: { show: false }, itemStyle: { areaColor: c.land } },
        tooltip: { show: false },
      },
      visualMap: {
        show: false,
        seriesIndex: 0,
        min: 0,
        max,
        inRange: { color: [`rgba(${c.primaryRgb}, 0.45)`, c.primary] },
      },
      series: [
        {
          type: "map",
          geoIndex: 0,
          data: countries.map((r) => ({ name: r.label, value: r.visitors })),
        },
        {
          // A dot on each country with visitors, so that small countries show too.
          type: "scatter",
          coordinateSystem: "geo",
          data: markers,
          symbolSize: (v: number[]) => 8 + 10 * Math.sqrt((v[2] ?? 0) / max),
          itemStyle: { color: c.primary, borderColor: c.surface, borderWidth: 1.5 },
          emphasis: { scale: 1.3 },
          z: 3,
        },
      ],
    };
  }, [countries, c, map]);

  if (map === "loading") {
    return (
      <div className="live-world-map d-flex align-items-center justify-content-center text-body-secondary" role="status">
        <CSpinner size="sm" className="me-2" aria-hidden="true" /> Loading the map…
      </div>
    );
  }
  if (map === "failed") {
    return (
      <div className="live-world-map d-flex align-items-center justify-content-center text-body-secondary small">
        The map could not be drawn; the country list shows where visitors are.
      </div>
    );
  }
  const total = countries.reduce((n, r) => n + r.visitors, 0);
  return (
    <EChart
      option={option}
      className="live-world-map"
      label={
        total === 0
          ? "World map: no live visitors"
          : `World map of live visitors: ${countries.map((r) => `${countryName(r.label)} ${r.visitors}`).join(", ")}`
      }
    />
  );
}
