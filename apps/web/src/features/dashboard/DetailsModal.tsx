// The full list behind a breakdown tab: a search box (a "contains" filter on the dimension, sent
// with the request), sortable columns, pages of 100 rows, and a CSV export built in the browser.
import { cilArrowBottom, cilArrowTop, cilCloudDownload, cilSearch } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CButton,
  CFormInput,
  CInputGroup,
  CInputGroupText,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from "@coreui/react";
import type { Filter, Metric } from "@lookout/schema";
import { useEffect, useId, useMemo, useState } from "react";
import { countryName } from "../../lib/countries";
import { formatPercent } from "../../lib/format";
import { messageOf } from "../../lib/http";
import { type BreakdownRow, getBreakdown, type StatsQuery } from "../../lib/stats-api";
import { type CsvCell, downloadCsv, safeFileName, toCsv } from "./csv";
import { METRIC_INFO } from "./metrics";
import { ListSkeleton, PanelError, RowLabel } from "./PanelParts";
import { conversionRate, type PanelContext, requestMetrics, rowLink, type TabDef, tabFilters } from "./panels";
import { useStats } from "./use-stats";

export const PAGE_SIZE = 100;
const EXPORT_PAGE = 1000;
const EXPORT_MAX_PAGES = 20;

type SortKey = "dimension" | Metric;
interface Sort {
  by: SortKey;
  dir: "asc" | "desc";
}

/** The API's order: conversion rate sorts like visitors (the total it divides by is one number). */
function orderParam(s: Sort): string {
  return `${s.by === "conversion_rate" ? "visitors" : s.by}:${s.dir}`;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function cellsOf(t: TabDef, row: BreakdownRow, total: number | undefined): CsvCell[] {
  const values = t.detailMetrics.map((m) =>
    m === "conversion_rate" ? conversionRate(row.values.visitors ?? 0, total) : (row.values[m] ?? 0),
  );
  return t.country ? [row.value, row.value ? countryName(row.value) : "", ...values] : [row.value, ...values];
}

export function DetailsModal({ t, ctx, onClose }: { t: TabDef; ctx: PanelContext; onClose: () => void }) {
  const searchId = useId();
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>({ by: "visitors", dir: "desc" });
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const term = useDebounced(search.trim(), 300);
  const metrics = requestMetrics(t.detailMetrics);

  const q = useMemo<StatsQuery>(() => {
    const filters: Filter[] = [...ctx.query.filters, ...tabFilters(t)];
    if (term) filters.push({ dimension: t.dimension, op: "contains", values: [term] });
    return { ...ctx.query, filters };
  }, [ctx.query, t, term]);

  // A new search or order starts again at page 1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: resets on these changes only.
  useEffect(() => setPage(1), [term, sort]);

  const key = JSON.stringify([q, t.dimension, sort, page]);
  const res = useStats(key, () => getBreakdown(q, t.dimension, { metrics, limit: PAGE_SIZE, page, order: orderParam(sort) }));

  const toggleSort = (by: SortKey) =>
    setSort((s) =>
      s.by === by ? { by, dir: s.dir === "desc" ? "asc" : "desc" } : { by, dir: by === "dimension" ? "asc" : "desc" },
    );

  const exportCsv = async () => {
    setExporting({ busy: true, error: null });
    try {
      const all: BreakdownRow[] = [];
      for (let p = 1; p <= EXPORT_MAX_PAGES; p++) {
        const rows = await getBreakdown(q, t.dimension, { metrics, limit: EXPORT_PAGE, page: p, order: orderParam(sort) });
        all.push(...rows);
        if (rows.length < EXPORT_PAGE) break;
      }
      const header = [t.column, ...(t.country ? ["Country name"] : []), ...t.detailMetrics.map((m) => METRIC_INFO[m].label)];
      const csv = toCsv(
        header,
        all.map((r) => cellsOf(t, r, ctx.totalVisitors)),
      );
      const range = q.period === "custom" ? (q.date ?? "custom") : q.period;
      downloadCsv(`${safeFileName("lookout", t.id, range)}.csv`, csv);
      setExporting({ busy: false, error: null });
    } catch (error) {
      setExporting({ busy: false, error });
    }
  };

  const rows = res.data;
  /** On a phone the table keeps its first two metrics; the rest show from 576 px up. */
  const narrowHidden = (i: number) => (i >= 2 ? " d-none d-sm-table-cell" : "");
  const sortHeader = (by: SortKey, label: string, numeric: boolean, title?: string, extra = "") => {
    const active = sort.by === by;
    return (
      <th
        key={by}
        scope="col"
        className={`${numeric ? "text-end" : ""}${extra}`.trim() || undefined}
        aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}
        title={title}
      >
        <button type="button" className="sort-button" onClick={() => toggleSort(by)}>
          {label}
          {active && (
            <CIcon icon={sort.dir === "asc" ? cilArrowTop : cilArrowBottom} size="sm" className="ms-1" aria-hidden="true" />
          )}
        </button>
      </th>
    );
  };

  return (
    <CModal visible size="lg" scrollable onClose={onClose} aria-labelledby={`${searchId}-title`} className="details-modal">
      <CModalHeader>
        <CModalTitle id={`${searchId}-title`}>{t.title}</CModalTitle>
      </CModalHeader>
      <CModalBody>
        <CInputGroup className="mb-3">
          <CInputGroupText>
            <CIcon icon={cilSearch} aria-hidden="true" />
          </CInputGroupText>
          <CFormInput
            id={searchId}
            type="search"
            placeholder={`Search ${t.column.toLowerCase()}`}
            aria-label={`Search ${t.column.toLowerCase()}`}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            maxLength={500}
          />
        </CInputGroup>
        {res.error ? (
          <PanelError error={res.error} what={t.title.toLowerCase()} onRetry={res.reload} />
        ) : !rows ? (
          <ListSkeleton rows={8} />
        ) : rows.length === 0 ? (
          <p className="text-body-secondary text-center py-4 mb-0">
            {term ? `Nothing matches “${term}”.` : "No data for this range"}
          </p>
        ) : (
          <div className={`table-responsive${res.busy ? " is-reloading" : ""}`}>
            <table className="table table-sm table-hover align-middle mb-0 details-table">
              <thead>
                <tr>
                  {sortHeader("dimension", t.column, false)}
                  {t.detailMetrics.map((m, i) => sortHeader(m, METRIC_INFO[m].short, true, METRIC_INFO[m].help, narrowHidden(i)))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => {
                  return (
                    <tr key={r.value} data-value={r.value}>
                      <td className="details-value">
                        <span className="d-flex align-items-center gap-1 min-w-0">
                          <RowLabel
                            dimension={t.dimension}
                            value={r.value}
                            emptyLabel={t.emptyLabel}
                            link={rowLink(t, r.value, ctx.website)}
                            onFilter={() => {
                              ctx.onFilter({ dimension: t.dimension, op: "is", values: [r.value] });
                              onClose();
                            }}
                          />
                        </span>
                      </td>
                      {t.detailMetrics.map((m, i) => {
                        const v =
                          m === "conversion_rate"
                            ? conversionRate(r.values.visitors ?? 0, ctx.totalVisitors)
                            : (r.values[m] ?? 0);
                        return (
                          <td key={m} className={`text-end text-nowrap${narrowHidden(i)}`} data-metric={m}>
                            {v === null ? "–" : m === "conversion_rate" ? formatPercent(v) : METRIC_INFO[m].format(v)}
                          </td>
                        );
                      })}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </CModalBody>
      <CModalFooter className="justify-content-between">
        <div className="d-flex align-items-center gap-2">
          <CButton
            color="secondary"
            variant="outline"
            size="sm"
            disabled={page <= 1 || res.busy}
            onClick={() => setPage((p) => p - 1)}
          >
            Previous
          </CButton>
          <span className="small text-body-secondary" aria-live="polite">
            Page {page}
          </span>
          <CButton
            color="secondary"
            variant="outline"
            size="sm"
            disabled={!rows || rows.length < PAGE_SIZE || res.busy}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
          </CButton>
        </div>
        <div className="d-flex align-items-center gap-2">
          {exporting.error ? (
            <span className="small text-danger" role="alert">
              {messageOf(exporting.error, "The export failed.")}
            </span>
          ) : null}
          <CButton color="primary" size="sm" onClick={exportCsv} disabled={exporting.busy}>
            {exporting.busy ? (
              <CSpinner size="sm" className="me-1" aria-hidden="true" />
            ) : (
              <CIcon icon={cilCloudDownload} className="me-1" aria-hidden="true" />
            )}
            Export CSV
          </CButton>
        </div>
      </CModalFooter>
    </CModal>
  );
}
