// The band of figures of a visitor page (Rybbit's stat band, peers.md §2): visits, pageviews,
// custom events, total engaged time, average visit duration and revenue, over every device of the
// person and all of their history. Each says what it counts (DESIGN.md §4) in its title.
import { CCard, CCardBody } from "@coreui/react";
import type { VisitorDetail } from "@lookout/schema";
import { formatDuration, formatFull } from "../../lib/format";
import { formatMoney } from "./labels";

interface Figure {
  key: string;
  label: string;
  value: string;
  help: string;
}

/** Revenue is a bare sum: events may carry different currencies, and the profile sums amounts. */
function figures(v: VisitorDetail): Figure[] {
  return [
    { key: "visits", label: "Visits", value: formatFull(v.visits), help: "Visits: events with gaps under 30 minutes." },
    { key: "pageviews", label: "Pageviews", value: formatFull(v.pageviews), help: "Pages viewed, over all visits." },
    { key: "events", label: "Custom events", value: formatFull(v.events), help: "Events other than pageviews." },
    {
      key: "engaged",
      label: "Engaged time",
      value: formatDuration(v.engaged_seconds),
      help: "Time with the page visible and in use, from engagement pings.",
    },
    {
      key: "duration",
      label: "Avg. visit duration",
      value: formatDuration(v.avg_visit_seconds),
      help: "Last event minus first event of a visit, averaged over visits (a single-page visit counts 0 s).",
    },
    { key: "revenue", label: "Revenue", value: formatMoney(v.revenue), help: "Revenue carried by this visitor's events." },
  ];
}

export function VisitorFigures({ v }: { v: VisitorDetail }) {
  return (
    <CCard className="mb-4">
      <CCardBody className="p-0">
        <dl className="visitor-figures mb-0">
          {figures(v).map((f) => (
            <div key={f.key} className="visitor-figure" data-figure={f.key} title={f.help}>
              <dt className="small text-body-secondary text-uppercase fw-semibold">{f.label}</dt>
              <dd className="fs-4 fw-semibold mb-0">{f.value}</dd>
            </div>
          ))}
        </dl>
      </CCardBody>
    </CCard>
  );
}
