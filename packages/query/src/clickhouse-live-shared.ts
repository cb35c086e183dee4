// The live part of a ClickHouse read, marked so that the store computes it once for the reads that
// arrive together (issue #22): the dashboard's 15 panels each merged the same live visits, listed
// the same visitors and scanned their settled history again (about 0.15 s of a panel's 0.17 s at
// 10M events with today live). With CompileContext.settledVisits.sharedLive, a read prints its
// live part whole (every column and every prev_*, so the panels' parts are the same text) between
// the markers below; storage's clickhouse-live-rows.ts runs each distinct part once into a table
// and reads it in their place. Without the store's help the markers are comments and the part
// runs inline, as the same rows.

export const SHARED_OPEN = "/*lookout:shared-live*/";
export const SHARED_CLOSE = "/*lookout:/shared-live*/";

/** `from` (a parenthesized subquery) marked as a shared live part. */
export const markShared = (from: string): string => `${SHARED_OPEN}${from}${SHARED_CLOSE}`;

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
 * The marked parts of a compiled statement, in order. Read from the text before its parameters are
 * bound: values arrive only as placeholders, so nothing a visitor sent can look like a marker.
 */
export function sharedParts(sql: string): SharedPart[] {
  const parts: SharedPart[] = [];
  for (let at = sql.indexOf(SHARED_OPEN); at >= 0; at = sql.indexOf(SHARED_OPEN, at)) {
    const close = sql.indexOf(SHARED_CLOSE, at);
    if (close < 0) throw new Error("a shared live part is not closed");
    const end = close + SHARED_CLOSE.length;
    const text = sql.slice(at + SHARED_OPEN.length, close);
    parts.push({ start: at, end, text, propertyParam: /\bproperty = \{(\w+):String\}/.exec(text)?.[1] });
    at = end;
  }
  return parts;
}
