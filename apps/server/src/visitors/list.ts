// The visitors list of a property (search, order, identified only, a cursor per page) and the
// same list as CSV: one statement for the page (from the per-visitor summary where the planner
// allows), then the page's profiles.
import { visitorListFromSummarySql, visitorListSql } from "@lookout/query";
import {
  csvLine,
  VISITOR_LIMITS as L,
  type VisitorListAnswer,
  type VisitorListQuery,
  type VisitorSummary,
} from "@lookout/schema";
import { DomainError } from "../http/domain-errors.js";
import { decodeCursor, encodeCursor, ListCursorSchema } from "./cursor.js";
import { iso, num, type Profile, type Row, str, type VisitorReads } from "./reading.js";

/** The list CSV's columns, in order. */
export const VISITOR_CSV_COLUMNS = [
  "client_id",
  "email",
  "name",
  "country",
  "region",
  "city",
  "first_seen",
  "last_seen",
  "visits",
  "pageviews",
  "events",
  "revenue",
] as const satisfies readonly (keyof VisitorSummary)[];

function summary(r: Row, p: Profile | undefined): VisitorSummary {
  return {
    client_id: str(r.client_id),
    email: p?.email ?? "",
    name: p?.name ?? "",
    identified: Boolean(p?.email),
    country: str(r.a_country),
    region: str(r.a_region),
    city: str(r.a_city),
    device: str(r.a_device),
    browser: str(r.a_browser),
    os: str(r.a_os),
    first_seen: iso(r.first_ms),
    last_seen: iso(r.last_ms),
    visits: num(r.visits),
    pageviews: num(r.pageviews),
    events: num(r.events),
    revenue: num(r.a_revenue),
  };
}

async function listRows(v: VisitorReads, q: Omit<VisitorListQuery, "limit">, limit: number): Promise<VisitorListAnswer> {
  const after = q.cursor ? decodeCursor(ListCursorSchema, q.cursor) : undefined;
  if (after && after.order !== q.order) {
    throw new DomainError("invalid_parameter", "cursor: belongs to another order; start again without it.", {
      param: "cursor",
    });
  }
  const options = {
    ...(q.search ? { search: q.search } : {}),
    order: q.order,
    identified: q.identified,
    ...(after ? { after: { key: after.key, client_id: after.client_id } } : {}),
    limit,
  };
  const list = v.fast({ read: "list" }) ? visitorListFromSummarySql : visitorListSql;
  const rows = await v.run(list(v.d, v.pid, options));
  const page = rows.slice(0, limit);
  const found = await v.profiles(page.map((r) => str(r.client_id)));
  const last = page[page.length - 1];
  const next =
    rows.length > limit && last
      ? encodeCursor({ k: "l", order: q.order, key: num(last.sort_key), client_id: str(last.client_id) })
      : null;
  return { results: page.map((r) => summary(r, found.get(str(r.client_id)))), next_cursor: next };
}

/** One page of the list. */
export function visitorList(v: VisitorReads, q: VisitorListQuery): Promise<VisitorListAnswer> {
  return listRows(v, q, q.limit);
}

/** The list as CSV (at most VISITOR_LIMITS.csvRows visitors, in the list's order). */
export async function visitorListCsv(v: VisitorReads, q: Omit<VisitorListQuery, "cursor" | "limit">): Promise<string> {
  const { results } = await listRows(v, { ...q, cursor: undefined }, L.csvRows);
  return [VISITOR_CSV_COLUMNS, ...results.map((r) => VISITOR_CSV_COLUMNS.map((c) => r[c]))].map(csvLine).join("");
}
