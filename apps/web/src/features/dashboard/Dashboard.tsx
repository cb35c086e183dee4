// The dashboard of one property: filters, top stats, the main chart and the breakdown panels.
// Until the first answer says the property has data it shows skeletons; a property with no event
// at all gets the tracker snippet instead, one the user cannot see (404) a plain notice. On a shared
// page (`share`, the link's slug) every call carries the link, and nothing leads into the app.
import { cilBan, cilChartLine } from "@coreui/icons";
import { CButton, CCard, CCardBody, CCardHeader, CPlaceholder } from "@coreui/react";
import type { CurrentProperty, Filter } from "@lookout/schema";
import { lazy, Suspense, useCallback, useMemo, useRef } from "react";
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { propertyLabel } from "../../components/RequireProperty";
import { HttpError } from "../../lib/http";
import { useProperties } from "../../state/current-property";
import { isAccountLocked } from "../billing/locked";
import { BreakdownPanel } from "./BreakdownPanel";
import { FilterBar } from "./FilterBar";
import { withFilter } from "./filters";
import { GoalsPanel } from "./GoalsPanel";
import { InstallSnippet } from "./InstallSnippet";
import { MainChart } from "./MainChart";
import { TOP_METRICS } from "./metrics";
import { ListSkeleton, PanelError } from "./PanelParts";
import { PANELS, type PanelContext } from "./panels";
import { useAggregate, useHasEvents } from "./queries";
import { TopStats } from "./TopStats";
import { useDashboardState } from "./use-dashboard-state";
import "./dashboard.css";

const LockedPanel = lazy(() => import("../billing/LockedPanel"));

function NotAvailable() {
  const { clear } = useProperties();
  return (
    <EmptyState
      icon={cilBan}
      title="This property is not available"
      lead="It does not exist, or your account cannot see its statistics. Choose another property."
    >
      <CButton color="primary" onClick={clear}>
        Choose a property
      </CButton>
    </EmptyState>
  );
}

function PanelsSkeleton() {
  return (
    <>
      <CCard className="main-chart mb-4">
        <CCardBody>
          <CPlaceholder as="div" animation="glow" aria-hidden="true">
            <CPlaceholder xs={3} className="rounded mb-3" />
            <CPlaceholder xs={12} className="rounded chart-skeleton" />
          </CPlaceholder>
        </CCardBody>
      </CCard>
      <div className="panels-grid">
        {PANELS.slice(0, 4).map((p) => (
          <CCard key={p.id} className="breakdown-panel">
            <CCardHeader className="py-2">
              <h2 className="h6 mb-0">{p.title}</h2>
            </CCardHeader>
            <CCardBody className="breakdown-body">
              <ListSkeleton />
            </CCardBody>
          </CCard>
        ))}
      </div>
    </>
  );
}

/** A shared page's link that stopped working while open (revoked or expired). */
function ShareUnavailable() {
  return (
    <EmptyState
      icon={cilBan}
      title="This shared link is not available"
      lead="It does not exist, has expired or has been revoked. Ask whoever shared it for a new link."
    />
  );
}

export function Dashboard({ property, share }: { property: CurrentProperty; share?: string }) {
  const id = property.unique_id;
  const state = useDashboardState(id, share);
  const { query, filters, setFilters } = state;
  const agg = useAggregate(query, TOP_METRICS, state.ready);
  // After a failure the cache may still hold an older answer: it must not count as this range's.
  const visitors = agg.error ? undefined : agg.data?.visitors?.value;
  // Zero visitors in the range: is there any data at all? (All time, no filters; a property seen
  // with visitors once skips the question, see useHasEvents.)
  const hasEvents = useHasEvents(id, visitors, share);
  const known = hasEvents.known;

  const { refetch: refetchAgg } = agg;
  const { refetch: refetchCheck } = hasEvents;
  const recheck = useCallback(() => {
    void refetchAgg();
    void refetchCheck();
  }, [refetchAgg, refetchCheck]);

  // Stable, so memoised panels and charts do not redraw on every render.
  const latest = useRef({ filters, setFilters });
  latest.current = { filters, setFilters };
  const onFilter = useCallback((f: Filter) => latest.current.setFilters(withFilter(latest.current.filters, f)), []);
  const ctx = useMemo<PanelContext>(
    () => ({ query, totalVisitors: visitors, website: property.website_url ?? "", onFilter }),
    [query, visitors, property.website_url, onFilter],
  );

  if (isAccountLocked(agg.error)) {
    return (
      <Suspense fallback={null}>
        <LockedPanel share={share} />
      </Suspense>
    );
  }
  if (agg.error instanceof HttpError && agg.error.status === 404) return share ? <ShareUnavailable /> : <NotAvailable />;
  if (!known && visitors === 0 && hasEvents.data === false && !hasEvents.isFetching) {
    if (share) return <EmptyState icon={cilChartLine} title="No visits yet" lead="This site has not recorded any visits yet." />;
    return <InstallSnippet uniqueId={id} site={propertyLabel(property)} onRecheck={recheck} />;
  }
  const gated = !known && !agg.error && (visitors === undefined || (visitors === 0 && !hasEvents.error));

  return (
    <>
      <FilterBar filters={filters} onChange={setFilters} query={query} />
      {agg.error ? (
        <div className="mb-3">
          <PanelError error={agg.error} what="the top stats" onRetry={() => void agg.refetch()} />
        </div>
      ) : null}
      {!share && (
        // Who these visitors are, one by one (features/visitors); not on a shared page.
        <div className="d-flex justify-content-end mb-2 small">
          <Link to="/product-analytics?tab=visitors" className="dashboard-visitors-link">
            See each visitor
          </Link>
        </div>
      )}
      <TopStats
        propertyId={id}
        share={share}
        data={agg.error ? undefined : agg.data}
        loading={agg.isFetching}
        compare={query.compare ?? null}
        selected={state.metric}
        onSelect={state.setMetric}
      />
      {gated ? (
        <PanelsSkeleton />
      ) : (
        <>
          <MainChart
            query={query}
            metric={state.metric}
            interval={state.interval}
            intervals={state.intervals}
            onInterval={state.setInterval}
          />
          <div className="panels-grid">
            {PANELS.map((p) =>
              p.id === "goals" ? (
                <GoalsPanel key={p.id} panel={p} ctx={ctx} />
              ) : (
                <BreakdownPanel key={p.id} panel={p} ctx={ctx} />
              ),
            )}
          </div>
        </>
      )}
    </>
  );
}
