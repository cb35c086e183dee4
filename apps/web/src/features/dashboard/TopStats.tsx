// The top stats row: one card per metric with its change against the comparison period (an arrow,
// green when the change is good news: for bounce rate that is down), a help popover with the
// metric's definition, and the live count (on a shared page from the Stats API, with no link to
// the Live View). Clicking a card charts its metric.
import { cilArrowBottom, cilArrowTop } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CCard, CCardBody, CPlaceholder } from "@coreui/react";
import type { Comparison } from "@lookout/schema";
import { changeTone, formatChange } from "../../lib/format";
import { LiveNowCard } from "../live/LiveNowCard";
import type { Aggregate, AggregateValue } from "./api";
import { METRIC_INFO, TOP_METRICS, type TopMetric } from "./metrics";
import { HelpPopover } from "./PanelParts";
import { useRealtimeVisitors } from "./queries";

/** A shared page's live count: polled from the Stats API (no socket, no link into the app). */
function SharedLiveCard({ propertyId, share }: { propertyId: string; share: string }) {
  const live = useRealtimeVisitors(propertyId, share);
  return (
    <CCard className="h-100 live-now-card">
      <CCardBody>
        <div className="d-flex align-items-center gap-2 text-body-secondary small text-uppercase fw-semibold">
          <span className={`live-dot live-dot-${live.error ? "paused" : "live"}`} aria-hidden="true" />
          Live now
        </div>
        <div className="fs-4 fw-semibold" data-live-count={live.data ?? ""}>
          {live.data ?? "–"}
        </div>
        <div className="small text-body-secondary">Updated every 30 s</div>
      </CCardBody>
    </CCard>
  );
}

export const COMPARISON_NAMES: Record<Comparison, string> = {
  previous_period: "previous period",
  year_over_year: "same period last year",
};

function Change({ metric, v, compare }: { metric: TopMetric; v: AggregateValue; compare: Comparison }) {
  const info = METRIC_INFO[metric];
  const against = v.comparison === null ? "" : ` (${info.exact(v.comparison)})`;
  if (v.change === null) {
    return (
      <span
        className="stat-change text-body-secondary"
        title={`Nothing to compare with in the ${COMPARISON_NAMES[compare]}${against}`}
      >
        —<span className="visually-hidden"> no change to show</span>
      </span>
    );
  }
  const tone = changeTone(v.change, info.lowerIsBetter);
  const color = tone === "good" ? "text-success" : tone === "bad" ? "text-danger" : "text-body-secondary";
  const text = `${formatChange(v.change)} vs ${COMPARISON_NAMES[compare]}${against}`;
  return (
    <span className={`stat-change ${color}`} title={text} data-change={v.change}>
      {v.change !== 0 && <CIcon icon={v.change > 0 ? cilArrowTop : cilArrowBottom} size="sm" aria-hidden="true" />}
      <span aria-hidden="true">{formatChange(Math.abs(v.change)).replace(/^\+/, "")}</span>
      <span className="visually-hidden">{text}</span>
    </span>
  );
}

interface TopStatsProps {
  propertyId: string;
  /** On a shared page: the link's slug. */
  share?: string | undefined;
  data: Aggregate | undefined;
  loading: boolean;
  compare: Comparison | null;
  selected: TopMetric;
  onSelect: (metric: TopMetric) => void;
}

export function TopStats({ propertyId, share, data, loading, compare, selected, onSelect }: TopStatsProps) {
  return (
    <section className="top-stats mb-4" aria-label="Top stats" aria-busy={loading}>
      {TOP_METRICS.map((m) => {
        const info = METRIC_INFO[m];
        const v = data?.[m];
        return (
          <CCard key={m} className={`stat-card h-100${selected === m ? " stat-card-selected" : ""}`} data-metric={m}>
            <CCardBody className="position-relative">
              <button
                type="button"
                className="stat-card-button"
                aria-pressed={selected === m}
                onClick={() => onSelect(m)}
                title={`Chart ${info.label.toLowerCase()}`}
              >
                <span className="text-body-secondary small text-uppercase fw-semibold stat-label">{info.label}</span>
                {v ? (
                  <span className="d-block fs-4 fw-semibold stat-value" data-value={v.value} title={info.exact(v.value)}>
                    {info.format(v.value)}
                  </span>
                ) : loading ? (
                  <CPlaceholder as="span" animation="glow" className="d-block fs-4">
                    <CPlaceholder xs={8} className="rounded" />
                  </CPlaceholder>
                ) : (
                  <span className="d-block fs-4 fw-semibold stat-value text-body-secondary">–</span>
                )}
                {compare && v && <Change metric={m} v={v} compare={compare} />}
              </button>
              <span className="stat-help">
                <HelpPopover title={info.label} text={info.help} />
              </span>
            </CCardBody>
          </CCard>
        );
      })}
      <div className="stat-live">
        {share ? <SharedLiveCard propertyId={propertyId} share={share} /> : <LiveNowCard propertyId={propertyId} />}
      </div>
    </section>
  );
}
