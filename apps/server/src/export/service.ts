// The stats export (DESIGN.md §5 "exports"): a property's stats for a date range as a ZIP of CSVs
// in Plausible's export format (tables.ts), every number from the Stats service (the Stats API's
// own runStats) for one day at a time. The ZIP is streamed: each file is added as soon as its
// days are computed, so a long range starts downloading at once and the browser shows progress.
import { PassThrough, type Readable } from "node:stream";
import { MAX_BUCKETS } from "@lookout/query";
import type { DateRange, QuerySpecInput, TimeseriesPoint } from "@lookout/schema";
import { csvLine } from "@lookout/schema";
import type { PropertyRow } from "@lookout/storage";
import { DateTime } from "luxon";
import yazl from "yazl";
import { DomainError } from "../http/domain-errors.js";
import type { createStatsService } from "../stats/service.js";
import { BREAKDOWN_TABLES, dayMetrics, VISITORS_COLUMNS } from "./tables.js";

type Stats = ReturnType<typeof createStatsService>;

/** Days one export may cover: the query layer's limit of buckets in one series (about four years). */
export const MAX_EXPORT_DAYS = MAX_BUCKETS;
const PAGE = 1000;

export interface ExportFile {
  name: string;
  /** The ZIP as it is written. */
  stream: Readable;
  files: number;
  days: number;
}

const compact = (d: string) => d.replaceAll("-", "");

/** `shop_example_com_20261125.zip`: the site's host, dots as underscores, and today's date. */
export function archiveName(property: PropertyRow, now: Date): string {
  let host = property.name;
  try {
    host = new URL(property.website_url).hostname || host;
  } catch {}
  const safe = host.replace(/\./g, "_").replace(/[^\w-]+/g, "-");
  return `${safe}_${DateTime.fromJSDate(now, { zone: property.timezone }).toFormat("yyyyMMdd")}.zip`;
}

export function createExportService({ stats }: { stats: Stats }) {
  const run = <T>(property: PropertyRow, spec: QuerySpecInput) => stats.run(property, spec as never) as Promise<T>;

  return {
    /**
     * Starts the export of `range`: the days are resolved (and the range checked) before the
     * first byte, so a bad range is still a 400; the files then follow on the stream.
     */
    async start(property: PropertyRow, range: DateRange, now = new Date()): Promise<ExportFile> {
      const base = { property: property.unique_id };
      const tooLong = new DomainError(
        "invalid_parameter",
        `period: an export covers at most ${MAX_EXPORT_DAYS} days; choose a shorter range`,
        { param: "period" },
      );
      const daily = await run<TimeseriesPoint[]>(property, {
        kind: "timeseries",
        ...base,
        date_range: range,
        interval: "day",
        metrics: ["visitors", "pageviews", "bounce_rate", "visits", "visit_duration"],
      }).catch((err: unknown) => {
        // One row per day: a range past the series limit is refused as the range's fault.
        throw err instanceof DomainError && err.code === "interval_too_fine" ? tooLong : err;
      });
      if (daily.length > MAX_EXPORT_DAYS) throw tooLong;
      const days = daily.map((p) => p.date.slice(0, 10));
      const first = compact(days[0] ?? DateTime.fromJSDate(now, { zone: property.timezone }).toFormat("yyyy-MM-dd"));
      const last = compact(days.at(-1) ?? first);
      const fileName = (table: string) => `${table}_${first}_${last}.csv`;
      let host = "";
      try {
        host = new URL(property.website_url).hostname;
      } catch {}

      const zip = new yazl.ZipFile();
      const out = new PassThrough();
      zip.outputStream.pipe(out);
      const add = (name: string, body: string) => zip.addBuffer(Buffer.from(body, "utf8"), name, { mtime: now });

      const write = async () => {
        let csv = csvLine(VISITORS_COLUMNS);
        for (const p of daily) {
          const m = dayMetrics(p as unknown as Record<string, number>);
          if (m.visitors === 0 && m.pageviews === 0) continue;
          csv += csvLine([p.date.slice(0, 10), m.visitors, m.pageviews, m.bounces, m.visits, m.visit_duration]);
        }
        add(fileName("imported_visitors"), csv);
        // Days without visitors have no rows in any table: skip their queries.
        const active = days.filter((_, i) => (daily[i]?.visitors ?? 0) > 0 || (daily[i]?.pageviews ?? 0) > 0);
        for (const table of BREAKDOWN_TABLES) {
          let body = csvLine(table.columns);
          for (const day of active) {
            for (let offset = 0; ; offset += PAGE) {
              if (out.destroyed) return;
              const rows = await run<Record<string, string | number>[]>(property, {
                kind: "breakdown",
                ...base,
                date_range: { preset: "custom", from: day, to: day },
                metrics: table.metrics,
                dimensions: [table.dimension],
                order: { by: "visitors", direction: "desc" },
                limit: PAGE,
                offset,
              });
              for (const r of rows) {
                const value = String(r[table.dimension] ?? "");
                if (table.skip?.(value)) continue;
                body += csvLine(table.row(day, value, dayMetrics(r), host));
              }
              if (rows.length < PAGE) break;
            }
          }
          add(fileName(table.name), body);
        }
        zip.end();
      };
      write().catch((err) => out.destroy(err instanceof Error ? err : new Error(String(err))));
      return { name: archiveName(property, now), stream: out, files: 1 + BREAKDOWN_TABLES.length, days: days.length };
    },
  };
}
