// Which statements a trends series read from rollups is printed as (trends.ts): one over the
// spec's range, or with a comparison three, since the earlier period's buckets span its whole
// length and its total stops at the elapsed stretch (date-range.ts comparisonRange). Each part reads
// the rollups as far as its own range allows; when one cannot, the series reads events whole.
// Shared by the activity rollups' series (trends-rollup.ts) and the breakdown rollups'
// (trends-breakdown-rollup.ts). Pure: tested through the trends compiler.
import type { ComparisonRange } from "../date-range.js";

type Range = { from: number; to: number };

/** One statement's range, where its rollup rows end, and how its rows are told apart. */
export interface RollupPart {
  range: Range;
  rollupTo: number;
  /** The rows' `period` column (only with a comparison). */
  period?: number;
  /** Keeps the part's named rows apart from the others'. */
  tag?: string;
  rows: "both" | "buckets" | "totals";
}

/** The parts, or null when a range of them cannot read rollups (`rollupTo` says how far one can). */
export function rollupParts(
  rollupTo: (r: Range) => number | null,
  range: Range,
  cmp: ComparisonRange | null,
): RollupPart[] | null {
  const to = rollupTo(range);
  if (to === null) return null;
  if (cmp === null) return [{ range, rollupTo: to, rows: "both" }];
  const from = cmp.from.getTime();
  const buckets = { from, to: cmp.to.getTime() };
  const total = { from, to: cmp.elapsedTo.getTime() };
  const bucketsTo = rollupTo(buckets);
  const totalTo = rollupTo(total);
  if (bucketsTo === null || totalTo === null) return null;
  return [
    { range, rollupTo: to, period: 0, rows: "both" },
    { range: buckets, rollupTo: bucketsTo, period: 1, tag: "p", rows: "buckets" },
    { range: total, rollupTo: totalTo, period: 1, tag: "q", rows: "totals" },
  ];
}
