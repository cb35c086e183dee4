// ECharts parts only the visitor page's activity calendar draws with: the calendar coordinate
// system, the heatmap on it, and the piecewise colour scale. Imported by ActivityCalendar (a lazy
// chunk) for the side effect, so neither the dashboard nor the live view carries them.
import { HeatmapChart } from "echarts/charts";
import { CalendarComponent, VisualMapPiecewiseComponent } from "echarts/components";
import { echarts } from "../../components/charts/echarts-core";

echarts.use([HeatmapChart, CalendarComponent, VisualMapPiecewiseComponent]);
