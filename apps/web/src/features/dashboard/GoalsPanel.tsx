// The dashboard's Goals panel: the property's configured goals (custom-event and pageview goals)
// with unique conversions (visitors), total conversions (events) and the conversion rate, from the
// Stats API's breakdown by goal (the server counts the property's own goals); and the custom events
// tab of panels.ts. Without goals it offers "Set up goals" (not on a shared page, which leads
// nowhere into the app). Goal names are shown as text only.
import { CButton, CCard, CCardBody, CCardFooter, CCardHeader, CNav, CNavLink } from "@coreui/react";
import { lazy, Suspense, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { formatCount, formatFull, formatPercent } from "../../lib/format";
import { onTabListKeyDown, TabContent } from "./BreakdownPanel";
import { ListSkeleton, PanelError } from "./PanelParts";
import type { PanelContext, PanelDef } from "./panels";
import { useBreakdown } from "./queries";
import "./goals-panel.css";

const DetailsModal = lazy(() => import("./DetailsModal"));

const GOALS_TAB = "goals";
/** Every goal of a property fits (GOAL_LIMITS.maxGoals). */
const GOAL_ROWS = 50;
const GOAL_HELP =
  "Unique: visitors with a visit in the range in which the goal happened. Total: the goal's events (custom events of that name, or pageviews whose path matches). CR: unique conversions / all visitors of the range.";

/** The goals' row per configured goal (the Stats API's breakdown by goal), under the dashboard's query. */
function useGoalRows(ctx: PanelContext) {
  const q = useMemo(() => ({ ...ctx.query, compare: null }), [ctx.query]);
  const options = useMemo(
    () => ({ metrics: ["visitors", "events", "conversion_rate"] as const, limit: GOAL_ROWS, order: "visitors:desc" }),
    [],
  );
  return useBreakdown(q, "goal", options);
}

function GoalList({ ctx, res }: { ctx: PanelContext; res: ReturnType<typeof useGoalRows> }) {
  const rows = res.data;
  if (res.error) return <PanelError error={res.error} what="goals" onRetry={() => void res.refetch()} />;
  if (!rows) return <ListSkeleton rows={3} />;
  if (rows.length === 0) {
    return (
      <div className="text-center py-4 goals-empty">
        <p className="text-body-secondary mb-2 breakdown-empty">
          No goals yet. A goal counts a custom event or visits to pages you choose.
        </p>
        {ctx.query.share === undefined && (
          <Link to="/settings?section=goals" className="btn btn-primary btn-sm">
            Set up goals
          </Link>
        )}
      </div>
    );
  }
  const max = Math.max(1, ...rows.map((r) => r.values.visitors ?? 0));
  return (
    <div className={res.isPlaceholderData ? "is-reloading" : undefined}>
      <table className="breakdown-table" data-testid="goal-conversions">
        <caption className="visually-hidden">Goal conversions. {GOAL_HELP}</caption>
        <thead>
          <tr className="breakdown-head">
            <th scope="col">Goal</th>
            <th scope="col" className="breakdown-num" title="Unique conversions: visitors">
              Uniques
            </th>
            <th scope="col" className="breakdown-num d-none d-sm-table-cell" title="Total conversions: events">
              Total
            </th>
            <th scope="col" className="breakdown-num" title="Conversion rate: unique conversions / all visitors">
              CR
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const visitors = r.values.visitors ?? 0;
            return (
              <tr className="breakdown-row" key={r.value} data-goal={r.value}>
                <td className="breakdown-label-cell">
                  <span className="breakdown-bar" style={{ width: `${(100 * visitors) / max}%` }} aria-hidden="true" />
                  <span className="breakdown-label-line">
                    <span className="goal-name text-truncate" title={r.value}>
                      {r.value}
                    </span>
                  </span>
                </td>
                <td className="breakdown-num" title={formatFull(visitors)}>
                  {formatCount(visitors)}
                </td>
                <td className="breakdown-num d-none d-sm-table-cell" title={formatFull(r.values.events ?? 0)}>
                  {formatCount(r.values.events ?? 0)}
                </td>
                <td className="breakdown-num">{formatPercent(r.values.conversion_rate ?? 0)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="small text-body-secondary mt-2 mb-0">{GOAL_HELP}</p>
    </div>
  );
}

export function GoalsPanel({ panel, ctx }: { panel: PanelDef; ctx: PanelContext }) {
  const tabs = [{ id: GOALS_TAB, label: "Goals" }, ...panel.tabs.map((t) => ({ id: t.id, label: t.label }))];
  const [tabId, setTabId] = useState(GOALS_TAB);
  const [details, setDetails] = useState(false);
  const eventsTab = panel.tabs.find((t) => t.id === tabId);
  const shared = ctx.query.share !== undefined;
  const goals = useGoalRows(ctx);
  const hasGoals = (goals.data?.length ?? 0) > 0;

  return (
    <CCard className="breakdown-panel h-100" data-panel={panel.id}>
      <CCardHeader className="d-flex flex-wrap align-items-center gap-2 py-2">
        <h2 className="h6 mb-0 me-auto">{panel.title}</h2>
        <CNav
          variant="underline-border"
          className="breakdown-tabs flex-nowrap"
          role="tablist"
          aria-label={`${panel.title} views`}
          onKeyDown={onTabListKeyDown}
        >
          {tabs.map((x) => (
            // A plain <li>: CNavItem drops the role, and the tablist's children must be the tabs.
            <li key={x.id} className="nav-item" role="presentation">
              <CNavLink
                as="button"
                type="button"
                role="tab"
                aria-selected={x.id === tabId}
                tabIndex={x.id === tabId ? 0 : -1}
                active={x.id === tabId}
                onClick={() => setTabId(x.id)}
              >
                {x.label}
              </CNavLink>
            </li>
          ))}
        </CNav>
      </CCardHeader>
      <CCardBody className="breakdown-body" role="tabpanel" aria-label={eventsTab ? eventsTab.title : "Goal conversions"}>
        {eventsTab ? <TabContent key={eventsTab.id} t={eventsTab} ctx={ctx} /> : <GoalList ctx={ctx} res={goals} />}
      </CCardBody>
      {eventsTab ? (
        <CCardFooter className="d-flex justify-content-end py-2">
          <CButton color="primary" variant="ghost" size="sm" onClick={() => setDetails(true)}>
            Details
          </CButton>
        </CCardFooter>
      ) : shared || !hasGoals ? null : (
        <CCardFooter className="d-flex justify-content-end py-2">
          <Link to="/settings?section=goals" className="btn btn-ghost-primary btn-sm">
            Manage goals
          </Link>
        </CCardFooter>
      )}
      {details && eventsTab && (
        <Suspense fallback={null}>
          <DetailsModal t={eventsTab} ctx={ctx} onClose={() => setDetails(false)} />
        </Suspense>
      )}
    </CCard>
  );
}
