// The report's chart: visitors per day as a PNG for an inline (cid) image. ECharts renders it to
// SVG on the server (its SSR mode, no DOM), resvg rasterises it with the system's fonts; both load
// on first use, so an idle server never holds them.
export interface ChartPoint {
  date: string;
  visitors: number;
}

const WIDTH = 600;
const HEIGHT = 220;

/** The SVG text (exported for tests that read its labels). */
export async function visitorsChartSvg(points: readonly ChartPoint[]): Promise<string> {
  const echarts = await import("echarts");
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: WIDTH, height: HEIGHT });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: "#ffffff",
      textStyle: { fontFamily: "DejaVu Sans, Liberation Sans, Arial, sans-serif" },
      grid: { left: 48, right: 16, top: 16, bottom: 32 },
      xAxis: {
        type: "category",
        data: points.map((p) => p.date.slice(5, 10)),
        axisLabel: { color: "#4b5563", fontSize: 11 },
        axisLine: { lineStyle: { color: "#d1d5db" } },
      },
      yAxis: {
        type: "value",
        minInterval: 1,
        axisLabel: { color: "#4b5563", fontSize: 11 },
        splitLine: { lineStyle: { color: "#e5e7eb" } },
      },
      series: [
        {
          type: "line",
          data: points.map((p) => p.visitors),
          smooth: false,
          symbolSize: 5,
          lineStyle: { color: "#4f46e5", width: 2 },
          itemStyle: { color: "#4f46e5" },
          areaStyle: { color: "rgba(79, 70, 229, 0.12)" },
        },
      ],
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** The chart as PNG at twice its size (sharp on high-density screens). */
export async function visitorsChartPng(points: readonly ChartPoint[]): Promise<Buffer> {
  const svg = await visitorsChartSvg(points);
  const { Resvg } = await import("@resvg/resvg-js");
  const png = new Resvg(svg, {
    fitTo: { mode: "width", value: WIDTH * 2 },
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" },
  })
    .render()
    .asPng();
  return Buffer.from(png);
}

export const CHART_SIZE = { width: WIDTH, height: HEIGHT } as const;
