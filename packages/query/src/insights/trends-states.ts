// Trends from aggregate states (ClickHouse's -State / -Merge; trends.ts TrendsFunctions.states): a
// series reads its events once, keeping a state per period, breakdown value and bucket; each
// bucket's value finalizes its state and the total merges them. 18.16 computes every subquery
// reference again, so the buckets and the total as two statements were two reads of the events,
// each with its top-values subquery. This module owns the aggregates a math is made of and that
// one statement; trends.ts decides which series take it.
import { int } from "../params.js";

/** One aggregate of a math: an event count, a distinct-visitor count, or a function of a number. */
export interface Agg {
  fn: "count" | "uniq" | "sum" | "min" | "max" | "avg";
  arg: string;
}

/** A math as aggregates and the value over them. */
export type MathAggs = { aggs: Agg[]; value: (a: string[]) => string };

/** The state functions of an engine that has them. */
export interface TrendsStates {
  /** The state of an aggregate, over the rows where `when` holds if given (-If). */
  state(agg: Agg, when?: string): string;
  final(state: string): string;
  /** The merged states (of the -If form when `when` is true). */
  merge(agg: Agg, state: string, when?: boolean): string;
}

const chAggName = (a: Agg) => (a.fn === "uniq" ? "uniqExact" : a.fn);

export const CLICKHOUSE_STATES: TrendsStates = {
  state: (a, when) =>
    when === undefined ? `${chAggName(a)}State(${a.arg})` : `${chAggName(a)}IfState(${a.arg === "" ? "" : `${a.arg}, `}${when})`,
  final: (st) => `finalizeAggregation(${st})`,
  merge: (a, st, when) => `${chAggName(a)}${when ? "If" : ""}Merge(${st})`,
};

export interface StateRowsInput {
  i: number;
  /** The breakdown value of a row ('' without a breakdown). */
  bv: string;
  bucketKey: string;
  label: string;
  /** The events read (a FROM item). */
  read: string;
  aggs: MathAggs;
  st: TrendsStates;
  asValue: (e: string) => string;
  /** With a comparison: a row's period (0 this one, 1 the earlier), and where the earlier total stops (a running period). */
  period: { of: string; until: string | undefined } | undefined;
  /** The rows' time column (`until` is compared with it): `ts` of events, `slot` of event slots. */
  time?: string;
}

/**
 * A series' bucket rows and totals from one read of its events (ClickHouse, TrendsFunctions.states):
 * per period, value and bucket a state of each aggregate; a bucket's value finalizes its states,
 * the total merges them (the earlier period's from -If states of its rows before `until` when this
 * period is still running). Per period and value the rows are one array, (0, bucket, value) per
 * bucket and (1, '', total), spread back into rows by ARRAY JOIN.
 */
export function stateRows(o: StateRowsInput): string {
  const { aggs, st, period } = o;
  const cols = aggs.aggs.map((_, j) => `st${int(j)}`);
  const states = aggs.aggs.map((a, j) => `${st.state(a)} AS ${cols[j]}`);
  if (period?.until !== undefined)
    states.push(...aggs.aggs.map((a, j) => `${st.state(a, `${o.time ?? "ts"} < ${period.until}`)} AS t${cols[j]}`));
  const xs = cols.map((_, j) => `x${int(j)}`);
  const bucketValue = o.asValue(aggs.value(xs.map((x) => st.final(x))));
  const buckets = `arrayMap((b, ${xs.join(", ")}) -> (0, b, ${bucketValue}), groupArray(bucket), ${cols.map((c) => `groupArray(${c})`).join(", ")})`;
  const whole = o.asValue(aggs.value(aggs.aggs.map((a, j) => st.merge(a, cols[j] ?? ""))));
  const total =
    period?.until === undefined
      ? whole
      : `if(pd = 1, ${o.asValue(aggs.value(aggs.aggs.map((a, j) => st.merge(a, `t${cols[j]}`, true))))}, ${whole})`;
  const keys = period ? "pd, bv" : "bv";
  const perBucket = `SELECT ${period ? `${period.of} AS pd, ` : ""}${o.bv} AS bv, ${o.label} AS bucket, ${states.join(", ")} FROM ${o.read} GROUP BY ${keys}, ${o.bucketKey}`;
  const alias = `s${int(o.i)}`;
  return (
    `SELECT ${int(o.i)} AS series, ${period ? "pd AS period, " : ""}bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value ` +
    `FROM (SELECT ${keys}, arrayPushBack(${buckets}, (1, '', ${total})) AS rs FROM (${perBucket}) AS ${alias}s GROUP BY ${keys}) AS ${alias} ARRAY JOIN rs AS r`
  );
}
