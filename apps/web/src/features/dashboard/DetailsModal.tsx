// The full list behind a breakdown tab: a search box (a "contains" filter on the dimension, sent
// with the request), sortable columns, pages of 100 rows, and a CSV export built in the browser.
// This is the app's pattern for lists: TanStack Table owns the columns and the sorting state, the
// server sorts and pages (manual sorting: the table never reorders rows itself), TanStack Query
// fetches each page under a key holding search, order and page, and CoreUI's CTable draws it.
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
  CTable,
  CTableBody,
  CTableDataCell,
  CTableHead,
  CTableHeaderCell,
  CTableRow,
} from "@coreui/react";
import type { Filter, Metric } from "@lookout/schema";
import { useMutation } from "@tanstack/react-query";
import { createColumnHelper, rowSortingFeature, type SortingState, tableFeatures, useTable } from "@tanstack/react-table";
import { useEffect, useId, useMemo, useState } from "react";
import { countryName } from "../../lib/countries";
import { formatPercent } from "../../lib/format";
import { messageOf } from "../../lib/http";
import { type BreakdownRow, getBreakdown, type StatsQuery } from "./api";
import { type CsvCell, downloadCsv, safeFileName, toCsv } from "./csv";
import { METRIC_INFO } from "./metrics";
import { ListSkeleton, PanelError, RowLabel } from "./PanelParts";
import { conversionRate, type PanelContext, requestMetrics, rowLink, type TabDef, tabFilters } from "./panels";
import { useBreakdown } from "./queries";

export const PAGE_SIZE = 100;
const EXPORT_PAGE = 1000;
const EXPORT_MAX_PAGES = 20;

interface DetailsColumnMeta {
  numeric?: boolean;
  /** The column's help text (a metric's definition), shown as the header's title. */
  help?: string;
  /** Extra classes of the column's cells (hiding a metric on phones). */
  cellClass?: string;
}

const features = tableFeatures({ rowSortingFeature, columnMeta: {} as DetailsColumnMeta });
const column = createColumnHelper<typeof features, BreakdownRow>();
const DEFAULT_SORT: SortingState = [{ id: "visitors", desc: true }];
const NO_ROWS: BreakdownRow[] = [];

/** The API's order: conversion rate sorts like visitors (the total it divides by is one number). */
function orderParam(sorting: SortingState): string {
  const s = sorting[0] ?? DEFAULT_SORT[0];
  const by = s?.id === "conversion_rate" ? "visitors" : (s?.id ?? "visitors");
  return `${by}:${s?.desc === false ? "asc" : "desc"}`;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function metricValue(m: Metric, row: BreakdownRow, total: number | undefined): number | null {
  return m === "conversion_rate" ? conversionRate(row.values.visitors ?? 0, total) : (row.values[m] ?? 0);
}

function cellsOf(t: TabDef, row: BreakdownRow, total: number | undefined): CsvCell[] {
  const values = t.detailMetrics.map((m) => metricValue(m, row, total));
  return t.country ? [row.value, row.value ? countryName(row.value) : "", ...values] : [row.value, ...values];
}

/** The tab's columns: the value (a filter button and maybe a link out), then its metrics. */
function columnsFor(t: TabDef, ctx: PanelContext, pick: (value: string) => void) {
  return column.columns([
    column.accessor((r) => r.value, {
      id: "dimension",
      header: t.column,
      // Text reads A to Z first; numbers (below) largest first.
      sortDescFirst: false,
      cell: ({ row }) => (
        <span className="d-flex align-items-center gap-1 min-w-0">
          <RowLabel
            dimension={t.dimension}
            value={row.original.value}
            emptyLabel={t.emptyLabel}
            link={rowLink(t, row.original.value, ctx.website)}
            onFilter={() => pick(row.original.value)}
          />
        </span>
      ),
    }),
    ...t.detailMetrics.map((m, i) =>
      column.accessor((r) => metricValue(m, r, ctx.totalVisitors), {
        id: m,
        header: METRIC_INFO[m].short,
        sortDescFirst: true,
        // On a phone the table keeps its first two metrics; the rest show from 576 px up.
        meta: { numeric: true, help: METRIC_INFO[m].help, cellClass: i >= 2 ? "d-none d-sm-table-cell" : "" },
        cell: ({ getValue }) => {
          const v = getValue();
          return v === null ? "–" : m === "conversion_rate" ? formatPercent(v) : METRIC_INFO[m].format(v);
        },
      }),
    ),
  ]);
}

export default function DetailsModal({ t, ctx, onClose }: { t: TabDef; ctx: PanelContext; onClose: () => void }) {
  const searchId = useId();
  const [search, setSearch] = useState("");
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORT);
  const term = useDebounced(search.trim(), 300);
  const metrics = useMemo(() => requestMetrics(t.detailMetrics), [t]);
  const order = orderParam(sorting);
  // A new search or order starts again at page 1: the page is kept with the list it pages through.
  const listKey = `${term}\u0000${order}`;
  const [paging, setPaging] = useState({ listKey, page: 1 });
  const page = paging.listKey === listKey ? paging.page : 1;
  const turnPage = (delta: number) => setPaging({ listKey, page: page + delta });

  const q = useMemo<StatsQuery>(() => {
    const filters: Filter[] = [...ctx.query.filters, ...tabFilters(t)];
    if (term) filters.push({ dimension: t.dimension, op: "contains", values: [term] });
    return { ...ctx.query, filters };
  }, [ctx.query, t, term]);

  const options = useMemo(() => ({ metrics, limit: PAGE_SIZE, page, order }), [metrics, page, order]);
  const res = useBreakdown(q, t.dimension, options);
  const rows = res.data;

  const columns = useMemo(
    () =>
      columnsFor(t, ctx, (value) => {
        ctx.onFilter({ dimension: t.dimension, op: "is", values: [value] });
        onClose();
      }),
    [t, ctx, onClose],
  );
  const table = useTable({
    features,
    columns,
    data: rows ?? NO_ROWS,
    getRowId: (r) => r.value,
    state: { sorting },
    onSortingChange: setSorting,
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
  });

  // The export is the searched list in the table's order, fetched in large pages.
  const exporter = useMutation({
    mutationFn: async () => {
      const all: BreakdownRow[] = [];
      for (let p = 1; p <= EXPORT_MAX_PAGES; p++) {
        const batch = await getBreakdown(q, t.dimension, { metrics, limit: EXPORT_PAGE, page: p, order });
        all.push(...batch);
        if (batch.length < EXPORT_PAGE) break;
      }
      const header = [t.column, ...(t.country ? ["Country name"] : []), ...t.detailMetrics.map((m) => METRIC_INFO[m].label)];
      const csv = toCsv(
        header,
        all.map((r) => cellsOf(t, r, ctx.totalVisitors)),
      );
      const range = q.period === "custom" ? (q.date ?? "custom") : q.period;
      downloadCsv(`${safeFileName("lookout", t.id, range)}.csv`, csv);
    },
  });

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
          <PanelError error={res.error} what={t.title.toLowerCase()} onRetry={() => void res.refetch()} />
        ) : !rows ? (
          <ListSkeleton rows={8} />
        ) : rows.length === 0 ? (
          <p className="text-body-secondary text-center py-4 mb-0">
            {term ? `Nothing matches “${term}”.` : "No data for this range"}
          </p>
        ) : (
          <div className={`table-responsive${res.isPlaceholderData ? " is-reloading" : ""}`}>
            <CTable small hover align="middle" className="mb-0 details-table">
              <CTableHead>
                {table.getHeaderGroups().map((group) => (
                  <CTableRow key={group.id}>
                    {group.headers.map((header) => {
                      const meta = header.column.columnDef.meta;
                      const sorted = header.column.getIsSorted();
                      const classes = `${meta?.numeric ? "text-end" : ""} ${meta?.cellClass ?? ""}`.trim();
                      return (
                        <CTableHeaderCell
                          key={header.id}
                          scope="col"
                          className={classes || undefined}
                          aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                          title={meta?.help}
                        >
                          <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()}>
                            <table.FlexRender header={header} />
                            {sorted && (
                              <CIcon
                                icon={sorted === "asc" ? cilArrowTop : cilArrowBottom}
                                size="sm"
                                className="ms-1"
                                aria-hidden="true"
                              />
                            )}
                          </button>
                        </CTableHeaderCell>
                      );
                    })}
                  </CTableRow>
                ))}
              </CTableHead>
              <CTableBody>
                {table.getRowModel().rows.map((row) => (
                  <CTableRow key={row.id} data-value={row.original.value}>
                    {row.getAllCells().map((cell) => {
                      const meta = cell.column.columnDef.meta;
                      return meta?.numeric ? (
                        <CTableDataCell
                          key={cell.id}
                          className={`text-end text-nowrap ${meta.cellClass ?? ""}`.trim()}
                          data-metric={cell.column.id}
                        >
                          <table.FlexRender cell={cell} />
                        </CTableDataCell>
                      ) : (
                        <CTableDataCell key={cell.id} className="details-value">
                          <table.FlexRender cell={cell} />
                        </CTableDataCell>
                      );
                    })}
                  </CTableRow>
                ))}
              </CTableBody>
            </CTable>
          </div>
        )}
      </CModalBody>
      <CModalFooter className="justify-content-between">
        <div className="d-flex align-items-center gap-2">
          <CButton
            color="secondary"
            variant="outline"
            size="sm"
            disabled={page <= 1 || res.isFetching}
            onClick={() => turnPage(-1)}
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
            disabled={!rows || rows.length < PAGE_SIZE || res.isFetching}
            onClick={() => turnPage(1)}
          >
            Next
          </CButton>
        </div>
        <div className="d-flex align-items-center gap-2">
          {exporter.error ? (
            <span className="small text-danger" role="alert">
              {messageOf(exporter.error, "The export failed.")}
            </span>
          ) : null}
          <CButton color="primary" size="sm" onClick={() => exporter.mutate()} disabled={exporter.isPending}>
            {exporter.isPending ? (
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
