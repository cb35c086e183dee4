// The visitors calls of the management API (DESIGN.md §5, VISITORS-API): the list and its CSV, one
// visitor's profile and figures, their history by visit, deletion and export. Answers are parsed
// with the shared schemas, so a surprise reads as an error where it is shown, never as a crash.
import {
  type VisitorDetail,
  VisitorDetailSchema,
  VisitorDeleteAnswerSchema,
  type VisitorExport,
  VisitorExportSchema,
  type VisitorHistoryAnswer,
  VisitorHistoryAnswerSchema,
  type VisitorIdentified,
  type VisitorListAnswer,
  VisitorListAnswerSchema,
  type VisitorOrder,
} from "@lookout/schema";
import { HttpError, request } from "../../lib/http";
import { StorageKey } from "../../lib/storage-keys";

const base = (propertyId: string) => `/api/v1/properties/${encodeURIComponent(propertyId)}/visitors`;
/** Client ids may hold "/", "?" or "#": always encoded in a path, never trusted as a path. */
const one = (propertyId: string, clientId: string) => `${base(propertyId)}/${encodeURIComponent(clientId)}`;

export interface ListParams {
  search: string;
  order: VisitorOrder;
  identified: VisitorIdentified;
}

function listQuery(p: ListParams): URLSearchParams {
  const q = new URLSearchParams({ order: p.order, identified: p.identified });
  if (p.search.trim()) q.set("search", p.search.trim());
  return q;
}

export async function listVisitors(
  propertyId: string,
  p: ListParams,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<VisitorListAnswer> {
  const q = listQuery(p);
  if (cursor) q.set("cursor", cursor);
  return VisitorListAnswerSchema.parse(await request("GET", `${base(propertyId)}?${q}`, { signal }));
}

/** The list as the server writes it (every match, not only the loaded pages), as a file. */
export async function downloadVisitorsCsv(propertyId: string, p: ListParams): Promise<Blob> {
  const token = localStorage.getItem(StorageKey.token);
  const res = await fetch(`/api/v1/properties/${encodeURIComponent(propertyId)}/visitors.csv?${listQuery(p)}`, {
    headers: { accept: "text/csv", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    credentials: "same-origin",
  });
  if (!res.ok) {
    let message: string | null = null;
    let code: string | null = null;
    try {
      const body = (await res.json()) as { message?: unknown; code?: unknown };
      if (typeof body.message === "string") message = body.message;
      if (typeof body.code === "string") code = body.code;
    } catch {
      // Not JSON: the caller's own words.
    }
    throw new HttpError(res.status, message, code);
  }
  return new Blob([await res.arrayBuffer()], { type: "text/csv;charset=utf-8" });
}

export async function getVisitor(propertyId: string, clientId: string, signal?: AbortSignal): Promise<VisitorDetail> {
  return VisitorDetailSchema.parse(await request("GET", one(propertyId, clientId), { signal }));
}

export interface HistoryParams {
  /** Only visits with this event name (and only those events); "" for all. */
  event: string;
  /** YYYY-MM-DD in the property's timezone, or "". */
  from: string;
  to: string;
}

export async function getHistory(
  propertyId: string,
  clientId: string,
  p: HistoryParams,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<VisitorHistoryAnswer> {
  const q = new URLSearchParams();
  if (p.event) q.set("event", p.event);
  if (p.from) q.set("from", p.from);
  if (p.to) q.set("to", p.to);
  if (cursor) q.set("cursor", cursor);
  const qs = q.toString();
  return VisitorHistoryAnswerSchema.parse(
    await request("GET", `${one(propertyId, clientId)}/events${qs ? `?${qs}` : ""}`, { signal }),
  );
}

export async function deleteVisitor(propertyId: string, clientId: string): Promise<number> {
  return VisitorDeleteAnswerSchema.parse(await request("DELETE", one(propertyId, clientId))).deleted_events;
}

export async function exportVisitor(propertyId: string, clientId: string): Promise<VisitorExport> {
  return VisitorExportSchema.parse(await request("GET", `${one(propertyId, clientId)}/export`));
}
