// The live part of a ClickHouse read, marked so that the store computes it once for the reads that
// arrive together (issue #22): the dashboard's 15 panels each merged the same live visits, listed
// the same visitors and scanned their settled history again (about 0.15 s of a panel's 0.17 s at
// 10M events with today live). With CompileContext.settledVisits.sharedLive, a read prints
// - its live visits whole (every column, so the panels' parts are the same text) between the
//   SHARED markers: storage's clickhouse-live-rows.ts runs each distinct part once into a table
//   and reads it in their place;
// - their visitors' settled history between the HISTORY markers: a read of the settled rows whose
//   last condition is `vkey IN (SELECT vkey FROM <a marked live part>)`. The store keeps what it
//   read for the visitors it has seen, and reads only the visitors that are new since (the settled
//   rows change only with the marks, which are in the text: a scan of the range's settled visits
//   for every string a panel orders by took 0.36 s at 10M events, for one new visitor as for all).
// Without the store's help the markers are comments and the parts run inline, as the same rows.

export const SHARED_OPEN = "/*lookout:shared-live*/";
export const SHARED_CLOSE = "/*lookout:/shared-live*/";
export const HISTORY_OPEN = "/*lookout:shared-history*/";
export const HISTORY_CLOSE = "/*lookout:/shared-history*/";

/** `from` (a parenthesized subquery) marked as a shared live part. */
export const markShared = (from: string): string => `${SHARED_OPEN}${from}${SHARED_CLOSE}`;
/** `from` (a parenthesized read of settled rows for the visitors of a marked live part) marked as their history. */
export const markHistory = (from: string): string => `${HISTORY_OPEN}${from}${HISTORY_CLOSE}`;

export interface SharedPart {
  /** Where the marked text starts and ends in the statement, markers included. */
  start: number;
  end: number;
  /** The subquery between the markers. */
  text: string;
  /** The placeholder name of the property it reads (its first property predicate). */
  propertyParam: string | undefined;
}

/**
 * The marked live parts of a compiled statement, in order (also those inside a history part). Read
 * from the text before its parameters are bound: values arrive only as placeholders, so nothing a
 * visitor sent can look like a marker.
 */
export function sharedParts(sql: string): SharedPart[] {
  return marked(sql, SHARED_OPEN, SHARED_CLOSE);
}

/** The marked history parts of a statement, in order (after its live parts are replaced by tables). */
export function historyParts(sql: string): SharedPart[] {
  return marked(sql, HISTORY_OPEN, HISTORY_CLOSE);
}

function marked(sql: string, open: string, closing: string): SharedPart[] {
  const parts: SharedPart[] = [];
  for (let at = sql.indexOf(open); at >= 0; at = sql.indexOf(open, at)) {
    const close = sql.indexOf(closing, at);
    if (close < 0) throw new Error("a shared live part is not closed");
    const end = close + closing.length;
    const text = sql.slice(at + open.length, close);
    parts.push({ start: at, end, text, propertyParam: /\bproperty = \{(\w+):String\}/.exec(text)?.[1] });
    at = end;
  }
  return parts;
}
