// The report e-mail: subject, an HTML body (tables and inline styles, as mail clients want) with
// the chart as an inline cid image, and the same facts as plain text. Every tracked string (a
// page, a source, a goal's name, the property's name) is HTML-escaped.
import type { ReportFrequency } from "@lookout/schema";
import type { Mail } from "../mail/mailer.js";
import { CHART_SIZE } from "./chart.js";
import type { Figure, ReportContent } from "./content.js";
import { monthName } from "./periods.js";

export const CHART_CID = "visitors-chart@lookout";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

export function reportSubject(frequency: ReportFrequency, name: string, from: string): string {
  return frequency === "weekly" ? `Weekly report for ${name}` : `${monthName(from)} report for ${name}`;
}

const n = (v: number) => v.toLocaleString("en-US");
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
function change(f: Figure, lowerIsBetter = false): { text: string; color: string } {
  if (f.change === null) return { text: "–", color: "#6b7280" };
  const up = f.change > 0;
  const good = f.change === 0 ? null : up !== lowerIsBetter;
  return {
    text: `${up ? "+" : ""}${f.change}%`,
    color: good === null ? "#6b7280" : good ? "#047857" : "#b91c1c",
  };
}

export interface RenderInput {
  frequency: ReportFrequency;
  propertyName: string;
  content: ReportContent;
  /**
   * The dashboard, and this recipient's one-click unsubscribe link (absent in a preview to a
   * non-recipient). Both absent when the server has no trusted address for links (service.ts).
   */
  dashboardUrl?: string;
  unsubscribeUrl?: string;
  chartPng: Buffer;
}

export function renderReport(to: string, input: RenderInput): Mail {
  const { content: c, propertyName } = input;
  const subject = reportSubject(input.frequency, propertyName, c.period.from);
  const range = `${c.period.from} – ${c.period.to}`;
  const figures: [string, Figure, string, boolean][] = [
    ["Unique visitors", c.visitors, n(c.visitors.value), false],
    ["Pageviews", c.pageviews, n(c.pageviews.value), false],
    ["Bounce rate", c.bounce_rate, `${c.bounce_rate.value}%`, true],
    ["Visit duration", c.visit_duration, duration(c.visit_duration.value), false],
  ];
  const list = (title: string, rows: { name: string; visitors: number }[]) => ({ title, rows });
  const lists = [list("Top sources", c.sources), list("Top pages", c.pages)];

  const text = [
    `${subject}`,
    range,
    "",
    ...figures.map(([label, f, shown]) => `${label}: ${shown} (${change(f, false).text} vs previous period)`),
    "",
    ...lists.flatMap((l) => [
      `${l.title}:`,
      ...(l.rows.length ? l.rows.map((r) => `  ${r.name} — ${n(r.visitors)}`) : ["  (none)"]),
      "",
    ]),
    ...(c.goals.length
      ? ["Top goals:", ...c.goals.map((g) => `  ${g.name} — ${n(g.conversions)} (${g.conversion_rate}%)`), ""]
      : []),
    ...(input.dashboardUrl ? [`Dashboard: ${input.dashboardUrl}`] : []),
    ...(input.unsubscribeUrl ? ["", `Unsubscribe: ${input.unsubscribeUrl}`] : []),
    "",
  ].join("\n");

  const e = escapeHtml;
  const td = 'style="padding:6px 0;border-bottom:1px solid #e5e7eb;font-size:14px;color:#111827"';
  const tdR = 'style="padding:6px 0;border-bottom:1px solid #e5e7eb;font-size:14px;color:#111827;text-align:right"';
  const section = (title: string, head: string, rows: string[]) =>
    `<h2 style="font-size:16px;margin:24px 0 8px;color:#111827">${e(title)}</h2>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr><th align="left" style="font-size:12px;color:#6b7280;font-weight:600">${head}</th><th align="right" style="font-size:12px;color:#6b7280;font-weight:600">Visitors</th></tr>
${rows.length ? rows.join("\n") : `<tr><td ${td} colspan="2">None in this period</td></tr>`}
</table>`;
  const rowsOf = (rows: { name: string; visitors: number }[]) =>
    rows.map((r) => `<tr><td ${td}>${e(r.name)}</td><td ${tdR}>${n(r.visitors)}</td></tr>`);
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 8px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;padding:24px 0">
<tr><td style="padding:0 20px">
<h1 style="font-size:20px;margin:0 0 4px;color:#111827">${e(subject)}</h1>
<p style="margin:0 0 16px;color:#4b5563;font-size:14px">${e(range)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>
${figures
  .map(([label, f, shown, lower]) => {
    const ch = change(f, lower);
    return `<td style="padding:8px 4px;vertical-align:top"><div style="font-size:12px;color:#6b7280">${e(label)}</div><div style="font-size:20px;font-weight:700;color:#111827">${e(shown)}</div><div style="font-size:12px;color:${ch.color}">${e(ch.text)}</div></td>`;
  })
  .join("\n")}
</tr></table>
<h2 style="font-size:16px;margin:24px 0 8px;color:#111827">Visitors per day</h2>
<img src="cid:${CHART_CID}" width="${CHART_SIZE.width}" height="${CHART_SIZE.height}" alt="Visitors per day" style="display:block;width:100%;max-width:${CHART_SIZE.width}px;height:auto">
${section("Top sources", "Source", rowsOf(c.sources))}
${section("Top pages", "Page", rowsOf(c.pages))}
${
  c.goals.length
    ? `<h2 style="font-size:16px;margin:24px 0 8px;color:#111827">Top goals</h2>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr><th align="left" style="font-size:12px;color:#6b7280">Goal</th><th align="right" style="font-size:12px;color:#6b7280">Conversions</th><th align="right" style="font-size:12px;color:#6b7280">Rate</th></tr>
${c.goals.map((g) => `<tr><td ${td}>${e(g.name)}</td><td ${tdR}>${n(g.conversions)}</td><td ${tdR}>${g.conversion_rate}%</td></tr>`).join("\n")}
</table>`
    : ""
}
${input.dashboardUrl ? `<p style="margin:24px 0 0;font-size:14px"><a href="${e(input.dashboardUrl)}" style="color:#4338ca">Open the dashboard</a></p>` : ""}
${input.unsubscribeUrl ? `<p style="margin:16px 0 0;font-size:12px;color:#6b7280">You receive this report because it was scheduled for ${e(to)}. <a href="${e(input.unsubscribeUrl)}" style="color:#4b5563">Unsubscribe</a></p>` : ""}
</td></tr></table>
</td></tr></table>
</body></html>
`;
  return {
    to,
    subject,
    text,
    html,
    attachments: [{ filename: "visitors.png", content: input.chartPng, contentType: "image/png", cid: CHART_CID }],
    ...(input.unsubscribeUrl
      ? { headers: { "List-Unsubscribe": `<${input.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } }
      : {}),
  };
}
