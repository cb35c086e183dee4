// A property's e-mail reports and stats export (DESIGN.md §5): schedules, "send now", and the
// export ZIP read as a stream so the screen can show how much has arrived. Answers are parsed
// with the shared schemas.
import {
  type PutReportSchedule,
  type ReportSchedulesAnswer,
  ReportSchedulesAnswerSchema,
  type SendReportNow,
  type SendReportNowAnswer,
  SendReportNowAnswerSchema,
} from "@lookout/schema";
import { HttpError, request } from "../../lib/http";
import { StorageKey } from "../../lib/storage-keys";

const base = (propertyId: string) => `/api/v1/properties/${encodeURIComponent(propertyId)}`;

export async function getReports(propertyId: string, signal?: AbortSignal): Promise<ReportSchedulesAnswer> {
  return ReportSchedulesAnswerSchema.parse(await request("GET", `${base(propertyId)}/reports`, { signal }));
}

export async function putReport(propertyId: string, body: PutReportSchedule): Promise<ReportSchedulesAnswer> {
  return ReportSchedulesAnswerSchema.parse(await request("PUT", `${base(propertyId)}/reports`, { json: body }));
}

export async function sendReportNow(propertyId: string, body: SendReportNow): Promise<SendReportNowAnswer> {
  return SendReportNowAnswerSchema.parse(await request("POST", `${base(propertyId)}/reports/send-now`, { json: body }));
}

export interface ExportProgress {
  /** Bytes received so far. */
  bytes: number;
}

/**
 * Downloads the export of `period`/`date` (the Stats API's), reading the streamed ZIP chunk by
 * chunk for `onProgress`; resolves to the file and its name from Content-Disposition.
 */
export async function downloadExport(
  propertyId: string,
  range: { period: string; date?: string },
  onProgress: (p: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string }> {
  const q = new URLSearchParams({ period: range.period, ...(range.date ? { date: range.date } : {}) });
  const token = localStorage.getItem(StorageKey.token);
  const res = await fetch(`${base(propertyId)}/export?${q}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    credentials: "same-origin",
    signal: signal ?? null,
  });
  if (!res.ok) {
    let message: string | null = null;
    let code: string | null = null;
    try {
      const body = (await res.json()) as { message?: string; code?: string };
      message = body.message ?? null;
      code = body.code ?? null;
    } catch {}
    throw new HttpError(res.status, message, code);
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "export.zip";
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as Uint8Array<ArrayBuffer>);
      bytes += value.byteLength;
      onProgress({ bytes });
    }
  }
  return { blob: new Blob(chunks, { type: "application/zip" }), filename };
}
