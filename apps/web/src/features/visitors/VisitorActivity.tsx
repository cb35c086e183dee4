// When and what: the calendar of active days over the last 12 months, and the visitor's top pages
// and top events (OpenPanel's "popular routes" and "most events", peers.md §2). Page paths and
// event names are tracked strings, shown as text.
import { CCard, CCardBody, CCardHeader, CPlaceholder } from "@coreui/react";
import type { VisitorDetail } from "@lookout/schema";
import { lazy, Suspense, useMemo } from "react";
import { formatFull } from "../../lib/format";
import { calendarRange, calendarSummary, localToday } from "./calendar";
import { formatDay, formatMoney } from "./labels";

const ActivityCalendar = lazy(() => import("./ActivityCalendar"));

function Ranked({
  rows,
  empty,
  label,
}: {
  rows: { key: string; text: string; mono?: boolean; value: string }[];
  empty: string;
  label: string;
}) {
  if (rows.length === 0) return <p className="small text-body-secondary mb-0">{empty}</p>;
  return (
    <ol className="list-unstyled mb-0 visitor-ranked" aria-label={label}>
      {rows.map((r) => (
        <li key={r.key} className="d-flex justify-content-between gap-3 py-1">
          <span className={`text-break min-w-0${r.mono ? " font-monospace small" : ""}`}>{r.text}</span>
          <span className="text-nowrap fw-semibold">{r.value}</span>
        </li>
      ))}
    </ol>
  );
}

export function VisitorActivity({ v }: { v: VisitorDetail }) {
  const range = useMemo(() => calendarRange(localToday()), []);
  const { active, busiest } = calendarSummary(v.active_days, range);
  const summary =
    active === 0
      ? "No activity in the last 12 months."
      : `Active on ${active} ${active === 1 ? "day" : "days"} in the last 12 months${
          busiest
            ? `; busiest ${formatDay(busiest.date)} (${formatFull(busiest.events)} ${busiest.events === 1 ? "event" : "events"})`
            : ""
        }.`;
  return (
    <div className="visitor-activity-grid mb-4">
      <CCard className="visitor-calendar-card">
        <CCardHeader className="py-2">
          <h2 className="h6 mb-0">Activity</h2>
        </CCardHeader>
        <CCardBody>
          <p className="small text-body-secondary mb-2 visitor-calendar-summary">{summary}</p>
          <Suspense
            fallback={
              <CPlaceholder as="div" animation="glow" aria-hidden="true">
                <CPlaceholder xs={12} className="rounded activity-calendar" />
              </CPlaceholder>
            }
          >
            <ActivityCalendar days={v.active_days} range={range} label={`Calendar of active days. ${summary}`} />
          </Suspense>
        </CCardBody>
      </CCard>
      <CCard>
        <CCardHeader className="py-2">
          <h2 className="h6 mb-0">Top pages</h2>
        </CCardHeader>
        <CCardBody>
          <Ranked
            label="Top pages of this visitor"
            empty="No pageviews."
            rows={v.top_pages.map((p) => ({ key: p.path, text: p.path || "/", mono: true, value: formatFull(p.pageviews) }))}
          />
        </CCardBody>
      </CCard>
      <CCard>
        <CCardHeader className="py-2">
          <h2 className="h6 mb-0">Top events</h2>
        </CCardHeader>
        <CCardBody>
          <Ranked
            label="Top events of this visitor"
            empty="No custom events."
            rows={v.top_events.map((e) => ({
              key: e.name,
              text: e.name,
              value: e.revenue ? `${formatFull(e.events)} · ${formatMoney(e.revenue)}` : formatFull(e.events),
            }))}
          />
        </CCardBody>
      </CCard>
    </div>
  );
}
