// The reports calls (DESIGN.md §5): a property's e-mail report schedules, "send now", and the
// one-click unsubscribe page a recipient reaches from their copy (no sign-in); and the stats export
// of the same Settings part (export/routes.ts).
import {
  PropertyIdSchema,
  PutReportScheduleSchema,
  ReportSchedulesAnswerSchema,
  SendReportNowAnswerSchema,
  SendReportNowSchema,
  text,
} from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { exportRoutes } from "../export/routes.js";
import { defineRoute, type Route, raw } from "../http/route.js";
import { createStatsService } from "../stats/service.js";
import { escapeHtml } from "./render.js";
import { createReportService } from "./service.js";

const params = z.object({ id: PropertyIdSchema.describe("The property's unique_id.") });
const unsubscribeQuery = z.object({ token: text().min(1).max(2000) });

function page(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#111827">
<h1 style="font-size:1.4rem">${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
</body></html>`;
}

export function reportRoutes(deps: AppDeps): Route[] {
  const reports = createReportService({ ...deps, stats: createStatsService(deps) });
  const tags = ["reports"] as const;
  const unsubscribe = async (token: string) => {
    const r = await reports.unsubscribe(token);
    return r.ok
      ? page("Unsubscribed", `You will no longer receive the ${r.report ?? "report"} at ${r.recipient}.`)
      : page("Link not valid", "This unsubscribe link is not valid. Nothing was changed.");
  };
  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/reports",
      summary: "The property's weekly and monthly e-mail report schedules, with their next send time.",
      tags,
      params,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: ReportSchedulesAnswerSchema,
      handle: ({ property }) => reports.list(property),
    }),
    defineRoute({
      method: "PUT",
      url: "/api/v1/properties/:id/reports",
      summary:
        'Sets one report schedule: frequency "weekly" or "monthly" with recipients (and send_hour, 0-23 local, default 9) creates or replaces that schedule, an empty recipients list removes it; frequency "off" removes the schedule named by `schedule` ("weekly" or "monthly"), or both without it. Answers every schedule.',
      tags,
      params,
      body: PutReportScheduleSchema,
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: ReportSchedulesAnswerSchema,
      handle: ({ actor, property, body }) => reports.put(actor, property, body),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/properties/:id/reports/send-now",
      readsStats: true,
      summary:
        "Sends the last complete week's or month's report now to the given recipients, or to the schedule's (a preview: the period is not marked sent).",
      tags,
      params,
      body: SendReportNowSchema,
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: SendReportNowAnswerSchema,
      handle: ({ actor, property, body, req }) => reports.sendNow(actor, property, body, req.log),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/reports/unsubscribe",
      summary: "One-click unsubscribe from a report e-mail: removes the token's recipient from its schedule, nothing else.",
      tags,
      query: unsubscribeQuery,
      access: "none",
      answer: raw("text/html"),
      handle: async ({ query, reply }) => reply.type("text/html; charset=utf-8").send(await unsubscribe(query.token)),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/reports/unsubscribe",
      summary: "The same for mail clients' one-click unsubscribe (RFC 8058, List-Unsubscribe-Post).",
      tags,
      query: unsubscribeQuery,
      access: "none",
      answer: raw("text/html"),
      handle: async ({ query, reply }) => reply.type("text/html; charset=utf-8").send(await unsubscribe(query.token)),
    }),
    ...exportRoutes(deps),
  ];
}
