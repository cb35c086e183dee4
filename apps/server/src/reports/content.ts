// What a report says about one period: the figures come from the Stats service (the same
// runStats as the Stats API, so a report's numbers are the API's for that range), the goals from
// the goals query of the dashboard's Goals panel. No rendering here (render.ts).
import type { AggregateResult, BreakdownRow, QuerySpecInput, TimeseriesPoint } from "@lookout/schema";
import type { PropertyRow } from "@lookout/storage";
import type { createStatsService } from "../stats/service.js";
import type { ReportPeriod } from "./periods.js";

type Stats = ReturnType<typeof createStatsService>;

export interface Figure {
  value: number;
  /** % change against the previous period of equal length; null when that was 0. */
  change: number | null;
}

export interface ReportContent {
  period: Pick<ReportPeriod, "id" | "from" | "to">;
  visitors: Figure;
  pageviews: Figure;
  bounce_rate: Figure;
  visit_duration: Figure;
  daily: { date: string; visitors: number }[];
  sources: { name: string; visitors: number }[];
  pages: { name: string; visitors: number }[];
  goals: { name: string; conversions: number; conversion_rate: number }[];
}

/** Direct traffic: the Stats API's empty source, shown as "Direct / None" (left out, as Plausible does). */
const isDirect = (source: string) => source === "" || source === "Direct / None";
const TOP = 5;

export async function reportContent(
  deps: { stats: Stats },
  property: PropertyRow,
  period: Pick<ReportPeriod, "id" | "from" | "to">,
): Promise<ReportContent> {
  const range = { preset: "custom" as const, from: period.from, to: period.to };
  const base = { property: property.unique_id, date_range: range };
  const run = <T>(spec: QuerySpecInput) => deps.stats.run(property, spec as never) as Promise<T>;
  const breakdown = (dimension: "source" | "page", limit: number) =>
    run<BreakdownRow[]>({
      kind: "breakdown",
      ...base,
      metrics: ["visitors"],
      dimensions: [dimension],
      limit,
      order: { by: "visitors", direction: "desc" },
    });

  const [totals, daily, sources, pages] = await Promise.all([
    run<AggregateResult>({
      kind: "aggregate",
      ...base,
      metrics: ["visitors", "pageviews", "bounce_rate", "visit_duration"],
      comparison: "previous_period",
    }),
    run<TimeseriesPoint[]>({ kind: "timeseries", ...base, metrics: ["visitors"], interval: "day" }),
    breakdown("source", TOP + 1),
    breakdown("page", TOP),
  ]);
  const fig = (m: keyof AggregateResult): Figure => ({ value: totals[m]?.value ?? 0, change: totals[m]?.change ?? null });

  // Top goals: the goals query of the dashboard's Goals panel (the property's own goals).
  const goals = await run<BreakdownRow[]>({
    kind: "goals",
    ...base,
    metrics: ["conversions", "conversion_rate"],
    order: { by: "conversions", direction: "desc" },
    limit: TOP,
  });

  const named = (rows: BreakdownRow[], dim: string) =>
    rows.map((r) => ({ name: String(r[dim] ?? ""), visitors: Number(r.visitors ?? 0) }));
  return {
    period,
    visitors: fig("visitors"),
    pageviews: fig("pageviews"),
    bounce_rate: fig("bounce_rate"),
    visit_duration: fig("visit_duration"),
    daily: daily.map((p) => ({ date: p.date.slice(0, 10), visitors: p.visitors ?? 0 })),
    sources: named(sources, "source")
      .filter((s) => !isDirect(s.name))
      .slice(0, TOP),
    pages: named(pages, "page"),
    goals: goals.map((g) => ({
      name: String(g.goal ?? ""),
      conversions: Number(g.conversions ?? 0),
      conversion_rate: Number(g.conversion_rate ?? 0),
    })),
  };
}
