// The split ECharts registration: the dashboard's set (./echarts-core) draws lines but not the
// live view's bars, legend or SVG; importing ./echarts-live adds them. Drawn with ECharts' own
// server-side SVG rendering, which needs no DOM.
import { describe, expect, it } from "vitest";

const option = {
  animation: false,
  legend: { data: ["Arrivals"] },
  xAxis: { type: "category", data: ["12:00", "12:01"] },
  yAxis: { type: "value" },
  series: [{ name: "Arrivals", type: "bar", data: [3, 5], itemStyle: { color: "#123456" } }],
};

describe("echarts registration", () => {
  it("leaves the live view's parts out of the dashboard's set, and echarts-live adds them", async () => {
    const { echarts } = await import("./echarts-core");
    expect(() => echarts.init(null, null, { renderer: "svg", ssr: true, width: 300, height: 150 })).toThrow();

    await import("./echarts-live");
    const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: 300, height: 150 });
    chart.setOption(option);
    const svg = chart.renderToSVGString();
    chart.dispose();
    expect(svg).toContain("Arrivals"); // the legend's text
    // The legend's icon and the two bars, in the series' colour.
    expect(svg.match(/<path[^>]*fill="#123456"/g)?.length).toBe(3);
  });
});
