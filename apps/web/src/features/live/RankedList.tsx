// A ranked list with a proportional bar behind each row: top pages, sources, countries.
import type { ReactNode } from "react";
import type { Ranked } from "./live-stats";

export function RankedList({
  rows,
  empty,
  render = (r) => r.label,
  label,
}: {
  rows: Ranked[];
  empty: string;
  render?: (row: Ranked) => ReactNode;
  label: string;
}) {
  if (rows.length === 0) return <p className="text-body-secondary small mb-0">{empty}</p>;
  const max = Math.max(...rows.map((r) => r.visitors));
  return (
    <ul className="list-unstyled mb-0 live-ranked" aria-label={label}>
      {rows.map((r) => (
        <li key={r.label} className="live-ranked-row">
          <span className="live-ranked-bar" style={{ width: `${(r.visitors / max) * 100}%` }} aria-hidden="true" />
          <span className="live-ranked-label text-truncate">{render(r)}</span>
          <span className="live-ranked-value fw-semibold">{r.visitors}</span>
        </li>
      ))}
    </ul>
  );
}
