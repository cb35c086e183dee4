// The main chart: the selected metric over the range at the chosen interval, with the comparison
// period as a dashed line. The Stats API draws no bucket after now; on a range that holds today the
// last bucket (this hour, today, this month...) is still filling, so its segment is dashed and the
// legend and tooltip say "incomplete". The chart code (ECharts) loads lazily, on first use.
import { CButton, CButtonGroup, CCard, CCardBody, CPlaceholder } from "@coreui/react";
import type { Interval } from "@lookout/schema";
import { lazy, Suspense, useMemo } from "react";
import { useDateRange } from "../../state/date-range";
import type { StatsQuery } from "./api";
import { bucketLabel, bucketTitle, INTERVAL_LABELS, parseBucket } from "./labels";
import { METRIC_INFO, type TopMetric } from "./metrics";
import { PanelError } from "./PanelParts";
import { useTimeseries } from "./queries";
import { COMPARISON_NAMES } from "./TopStats";

const TimeseriesChart = lazy(() => import("../../components/charts/TimeseriesChart"));

const HEIGHT = 280;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The bucket still filling, by interval: what the legend says is incomplete. */
const CURRENT_BUCKET: Record<Interval, string> = {
  minute: "this minute",
  hour: "this hour",
  day: "today",
  week: "this week",
  month: "this month",
};

function ChartSkeleton() {
  return (
    <CPlaceholder as="div" animation="glow" aria-hidden="true">
      <CPlaceholder xs={12} className="rounded chart-skeleton" />
    </CPlaceholder>
  );
}

interface MainChartProps {
  query: StatsQuery;
  metric: TopMetric;
  interval: Interval;
  intervals: Interval[];
  onInterval: (interval: Interval) => void;
}

export function MainChart({ query, metric, interval, intervals, onInterval }: MainChartProps) {
  const metrics = useMemo(() => [metric], [metric]);
  const ts = useTimeseries(query, metrics, interval);
  const info = METRIC_INFO[metric];
  const compare = query.compare ?? null;
  // The range holds now, so the API's last bucket is the current one (it draws none later).
  const { range } = useDateRange();
  const incomplete = range.running;

  const chart = useMemo(() => {
    const points = ts.data;
    if (!points) return null;
    const first = points[0] ? parseBucket(points[0].date) : null;
    const last = points.at(-1) ? parseBucket(points.at(-1)?.date ?? "") : null;
    const multiDay = !!first && !!last && first.toDateString() !== last.toDateString();
    const series = [
      {
        name: info.label,
        values: points.map((p) => p.values[metric] ?? 0),
        dates: points.map((p) => bucketTitle(p.date, interval)),
      },
    ];
    if (compare) {
      series.push({
        name: `${info.label} (${COMPARISON_NAMES[compare]})`,
        values: points.map((p) => p.comparison?.values[metric] ?? 0),
        dates: points.map((p) => (p.comparison ? bucketTitle(p.comparison.date, interval) : "")),
      });
    }
    return {
      labels: points.map((p) => bucketLabel(p.date, interval, multiDay)),
      series: series.map((s, i) => ({ ...s, dashed: i === 1 })),
      total: points.length,
    };
  }, [ts.data, metric, interval, compare, info.label]);

  return (
    <CCard className="main-chart mb-4" aria-busy={ts.isFetching}>
      <CCardBody>
        <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
          <h2 className="h6 mb-0 me-auto">{info.label}</h2>
          {(compare || incomplete) && (
            <span className="chart-legend small text-body-secondary d-flex flex-wrap align-items-center gap-3">
              {compare && (
                <>
                  <span>
                    <span className="chart-swatch" aria-hidden="true" /> This period
                  </span>
                  <span>
                    <span className="chart-swatch chart-swatch-dashed" aria-hidden="true" />{" "}
                    {capitalize(COMPARISON_NAMES[compare])}
                  </span>
                </>
              )}
              {incomplete && (
                <span data-testid="incomplete-legend">
                  <span className="chart-swatch chart-swatch-incomplete" aria-hidden="true" /> Incomplete (
                  {CURRENT_BUCKET[interval]})
                </span>
              )}
            </span>
          )}
          <CButtonGroup size="sm" role="group" aria-label="Interval">
            {intervals.map((i) => (
              <CButton
                key={i}
                color="secondary"
                variant={i === interval ? undefined : "outline"}
                aria-pressed={i === interval}
                onClick={() => onInterval(i)}
              >
                {INTERVAL_LABELS[i]}
              </CButton>
            ))}
          </CButtonGroup>
        </div>
        {ts.error ? (
          <PanelError error={ts.error} what="the chart" onRetry={() => void ts.refetch()} />
        ) : !chart ? (
          <ChartSkeleton />
        ) : (
          <div className={ts.isPlaceholderData ? "is-reloading" : undefined}>
            <Suspense fallback={<ChartSkeleton />}>
              <TimeseriesChart
                labels={chart.labels}
                series={chart.series}
                formatValue={info.format}
                height={HEIGHT}
                incompleteLast={incomplete}
                ariaLabel={`${info.label} by ${INTERVAL_LABELS[interval].toLowerCase()}, ${chart.total} points${
                  incomplete ? `, the last one (${CURRENT_BUCKET[interval]}) incomplete` : ""
                }${compare ? `, compared with the ${COMPARISON_NAMES[compare]}` : ""}`}
              />
            </Suspense>
          </div>
        )}
      </CCardBody>
    </CCard>
  );
}
