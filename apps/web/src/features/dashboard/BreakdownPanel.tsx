// One breakdown panel (Pages, Sources, Locations, Devices, Goals): tabs, the top rows of the chosen
// dimension with a bar proportional to visitors, the value as text and the count. Clicking a row
// filters the whole dashboard by it; Details opens the full list.
import {
  CButton,
  CCard,
  CCardBody,
  CCardFooter,
  CCardHeader,
  CDropdown,
  CDropdownItem,
  CDropdownMenu,
  CDropdownToggle,
  CNav,
  CNavLink,
} from "@coreui/react";
import { type KeyboardEvent, lazy, Suspense, useCallback, useMemo, useState } from "react";
import { countryName } from "../../lib/countries";
import { formatCount, formatFull, formatPercent } from "../../lib/format";
import type { BreakdownRow } from "./api";
import { dimensionLabel } from "./labels";
import { METRIC_INFO } from "./metrics";
import { ListSkeleton, PanelError, RowLabel } from "./PanelParts";
import { conversionRate, type PanelContext, type PanelDef, requestMetrics, rowLink, type TabDef, tabFilters } from "./panels";
import { useBreakdown } from "./queries";

const WorldMap = lazy(() => import("../../components/charts/WorldMap"));
// The full list (and its table code) loads when someone opens it, not with the dashboard.
const DetailsModal = lazy(() => import("./DetailsModal"));

export const TOP_ROWS = 10;

/**
 * The WAI-ARIA tabs pattern's keys on a tablist: Left/Right move to the previous/next tab (wrapping),
 * Home/End to the first/last, and the tab reached is activated (selection follows focus). With the
 * roving tabindex (only the selected tab has tabIndex 0) Tab leaves the list in one step. A tab that
 * opens a menu (a group such as "Browser/OS versions") is focused only: opening a menu on an arrow
 * key would trap the arrows; Enter or ArrowDown opens it.
 */
export function onTabListKeyDown(e: KeyboardEvent<HTMLElement>) {
  const tabs = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
  const i = tabs.indexOf(e.target as HTMLElement);
  if (i < 0 || tabs.length === 0) return;
  const last = tabs.length - 1;
  const moves: Record<string, number> = {
    ArrowRight: (i + 1) % tabs.length,
    ArrowLeft: (i + last) % tabs.length,
    Home: 0,
    End: last,
  };
  const to = moves[e.key];
  if (to === undefined) return;
  const tab = tabs[to];
  if (!tab) return;
  e.preventDefault();
  tab.focus();
  if (!tab.hasAttribute("aria-expanded")) tab.click();
}

const visitorCount = (n: number) => `${formatCount(n)} visitors`;

function Rows({ t, rows, ctx }: { t: TabDef; rows: BreakdownRow[]; ctx: PanelContext }) {
  const max = Math.max(1, ...rows.map((r) => r.values.visitors ?? 0));
  const goals = t.kind === "goals";
  return (
    <table className="breakdown-table">
      <caption className="visually-hidden">{t.title}</caption>
      <thead>
        <tr className="breakdown-head">
          <th scope="col">{t.column}</th>
          <th scope="col" className="breakdown-num">
            Visitors
          </th>
          {goals && (
            <>
              <th scope="col" className="breakdown-num d-none d-sm-table-cell">
                Events
              </th>
              <th scope="col" className="breakdown-num" title={METRIC_INFO.conversion_rate.help}>
                CR
              </th>
            </>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const visitors = r.values.visitors ?? 0;
          const cr = goals ? conversionRate(visitors, ctx.totalVisitors) : null;
          const shown = r.value === "" ? t.emptyLabel : t.country ? countryName(r.value) : r.value;
          return (
            <tr className="breakdown-row" key={r.value} data-value={r.value}>
              <td className="breakdown-label-cell">
                <span className="breakdown-bar" style={{ width: `${(100 * visitors) / max}%` }} aria-hidden="true" />
                <span className="breakdown-label-line">
                  <RowLabel
                    dimension={t.dimension}
                    value={r.value}
                    emptyLabel={t.emptyLabel}
                    link={rowLink(t, r.value, ctx.website)}
                    title={`Filter by ${dimensionLabel(t.dimension).toLowerCase()}: ${shown}`}
                    onFilter={() => ctx.onFilter({ dimension: t.dimension, op: "is", values: [r.value] })}
                  />
                </span>
              </td>
              <td className="breakdown-num" title={formatFull(visitors)}>
                {formatCount(visitors)}
              </td>
              {goals && (
                <>
                  <td className="breakdown-num d-none d-sm-table-cell" title={formatFull(r.values.events ?? 0)}>
                    {formatCount(r.values.events ?? 0)}
                  </td>
                  <td className="breakdown-num">{cr === null ? "–" : formatPercent(cr)}</td>
                </>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function TabContent({ t, ctx }: { t: TabDef; ctx: PanelContext }) {
  const isMap = t.kind === "map";
  const q = useMemo(() => ({ ...ctx.query, filters: [...ctx.query.filters, ...tabFilters(t)] }), [ctx.query, t]);
  const options = useMemo(
    () => ({
      metrics: t.kind === "goals" ? requestMetrics(t.detailMetrics) : (["visitors"] as const),
      limit: isMap ? 300 : TOP_ROWS,
      order: "visitors:desc",
    }),
    [t, isMap],
  );
  const res = useBreakdown(q, t.dimension, options);

  const rows = res.data;
  const onFilter = ctx.onFilter;
  const map = useMemo(() => {
    if (!isMap || !rows) return null;
    return {
      data: rows.filter((r) => /^[A-Za-z]{2}$/.test(r.value)).map((r) => ({ code: r.value, value: r.values.visitors ?? 0 })),
      label: `Map of visitors by country: ${rows
        .slice(0, 5)
        .map((r) => `${countryName(r.value)} ${formatCount(r.values.visitors ?? 0)}`)
        .join(", ")}`,
    };
  }, [isMap, rows]);
  const selectCountry = useCallback((code: string) => onFilter({ dimension: "country", op: "is", values: [code] }), [onFilter]);

  if (res.error) return <PanelError error={res.error} what={t.title.toLowerCase()} onRetry={() => void res.refetch()} />;
  if (!rows) return <ListSkeleton />;
  const body =
    rows.length === 0 ? (
      <p className="text-body-secondary text-center py-5 mb-0 breakdown-empty">No data for this range</p>
    ) : map ? (
      <Suspense fallback={<ListSkeleton />}>
        <WorldMap data={map.data} describe={visitorCount} label={map.label} onSelect={selectCountry} />
      </Suspense>
    ) : (
      <Rows t={t} rows={rows} ctx={ctx} />
    );
  const classes = [isMap && rows.length > 0 ? "breakdown-map" : "", res.isPlaceholderData ? "is-reloading" : ""].filter(Boolean);
  return <div className={classes.join(" ") || undefined}>{body}</div>;
}

export function BreakdownPanel({ panel, ctx }: { panel: PanelDef; ctx: PanelContext }) {
  const [tabId, setTabId] = useState(panel.tabs[0]?.id ?? "");
  const [details, setDetails] = useState(false);
  const t = panel.tabs.find((x) => x.id === tabId) ?? (panel.tabs[0] as TabDef);
  const plain = panel.tabs.filter((x) => !x.group);
  const groups = [...new Set(panel.tabs.flatMap((x) => (x.group ? [x.group] : [])))];
  // The map's Details are the countries list.
  const detailsTab = t.kind === "map" ? (panel.tabs.find((x) => x.id === "country") ?? t) : t;

  return (
    <CCard className="breakdown-panel h-100" data-panel={panel.id}>
      <CCardHeader className="d-flex flex-wrap align-items-center gap-2 py-2">
        <h2 className="h6 mb-0 me-auto">{panel.title}</h2>
        {panel.tabs.length > 1 && (
          <CNav
            variant="underline-border"
            className="breakdown-tabs flex-nowrap"
            role="tablist"
            aria-label={`${panel.title} views`}
            onKeyDown={onTabListKeyDown}
          >
            {plain.map((x) => (
              // The list items are only the tabs' frames: the tablist's children are the tabs.
              // (A plain <li>: CNavItem drops the role.)
              <li key={x.id} className="nav-item" role="presentation">
                <CNavLink
                  as="button"
                  type="button"
                  role="tab"
                  aria-selected={x.id === t.id}
                  tabIndex={x.id === t.id ? 0 : -1}
                  active={x.id === t.id}
                  onClick={() => setTabId(x.id)}
                >
                  {x.label}
                </CNavLink>
              </li>
            ))}
            {groups.map((g) => {
              const inGroup = panel.tabs.filter((x) => x.group === g);
              const current = inGroup.find((x) => x.id === t.id);
              return (
                <CDropdown key={g} variant="nav-item" alignment="end" portal role="presentation">
                  <CDropdownToggle
                    className={current ? "active" : undefined}
                    role="tab"
                    aria-selected={!!current}
                    tabIndex={current ? 0 : -1}
                  >
                    {current ? `${g} ${current.label}` : g}
                  </CDropdownToggle>
                  <CDropdownMenu>
                    {inGroup.map((x) => (
                      <CDropdownItem key={x.id} as="button" type="button" active={x.id === t.id} onClick={() => setTabId(x.id)}>
                        {`${g} ${x.label.toLowerCase()}`}
                      </CDropdownItem>
                    ))}
                  </CDropdownMenu>
                </CDropdown>
              );
            })}
          </CNav>
        )}
      </CCardHeader>
      <CCardBody className="breakdown-body" role="tabpanel" aria-label={t.title}>
        <TabContent key={t.id} t={t} ctx={ctx} />
      </CCardBody>
      <CCardFooter className="d-flex justify-content-end py-2">
        <CButton color="primary" variant="ghost" size="sm" onClick={() => setDetails(true)}>
          Details
        </CButton>
      </CCardFooter>
      {details && (
        <Suspense fallback={null}>
          <DetailsModal t={detailsTab} ctx={ctx} onClose={() => setDetails(false)} />
        </Suspense>
      )}
    </CCard>
  );
}
