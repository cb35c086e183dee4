// The stats export call (DESIGN.md §5): GET /api/v1/properties/{unique_id}/export?period=&date=
// with the Stats API's period and date, answered as a streamed ZIP of Plausible-format CSVs.
import { PropertyIdSchema, type QuerySpec, text } from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, type Route, raw } from "../http/route.js";
import { specFromQuery } from "../stats/params.js";
import { createStatsService } from "../stats/service.js";
import { createExportService } from "./service.js";

const EXPORT_QUERY = z.object({
  period: text().optional().describe("A Stats API period (today … all_time, custom); default last_7_days."),
  date: text().optional().describe("With period=custom: YYYY-MM-DD,YYYY-MM-DD."),
});

export function exportRoutes(deps: AppDeps): Route[] {
  const exporter = createExportService({ stats: createStatsService(deps) });
  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/export",
      summary:
        "The property's stats for a date range as a ZIP of CSV files in Plausible's export format (imported_visitors, imported_sources, …), one row per day and value; streamed.",
      tags: ["exports"],
      params: z.object({ id: PropertyIdSchema.describe("The property's unique_id.") }),
      // Only period and date are read, with the Stats API's rules (stats/params.ts).
      query: {
        schema: EXPORT_QUERY,
        parse: (q: Record<string, unknown>): QuerySpec["date_range"] =>
          specFromQuery("aggregate", { property_id: "export", period: q.period, date: q.date }).date_range,
      },
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: raw("application/zip"),
      handle: async ({ property, query, reply }) => {
        const file = await exporter.start(property, query);
        return reply
          .type("application/zip")
          .header("content-disposition", `attachment; filename="${file.name}"`)
          .header("x-export-files", String(file.files))
          .header("x-export-days", String(file.days))
          .header("cache-control", "no-store")
          .send(file.stream);
      },
    }),
  ];
}
