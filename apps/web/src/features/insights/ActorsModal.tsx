// The visitors behind one point of an insight (a funnel step's converted or dropped, a retention
// cell, a paths node…), in a dialog: each links to their page (/customers/{clientId}); "Load more"
// pages on. Kinds open it with their own `at` (INSIGHT_ACTOR_SELECTORS) and a title in words.
// Names and e-mails are tracked strings: rendered as text only.
import {
  CAlert,
  CButton,
  CListGroup,
  CListGroupItem,
  CModal,
  CModalBody,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from "@coreui/react";
import type { InsightActor, InsightSpec } from "@lookout/schema";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId } from "react";
import { Link } from "react-router-dom";
import { messageOf } from "../../lib/http";
import { insightActors } from "./api";

const PAGE = 50;

export function ActorsModal(props: { propertyId: string; spec: InsightSpec; at: unknown; title: string; onClose: () => void }) {
  const id = useId();
  const query = useInfiniteQuery({
    queryKey: ["insights", "actors", props.propertyId, props.spec, props.at],
    queryFn: ({ pageParam, signal }) =>
      insightActors(props.propertyId, { spec: props.spec, at: props.at, limit: PAGE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.has_more ? pages.length * PAGE : undefined),
    retry: false,
  });
  const visitors: InsightActor[] = query.data?.pages.flatMap((p) => p.visitors) ?? [];
  return (
    <CModal visible onClose={props.onClose} aria-labelledby={`${id}-title`} alignment="center" scrollable>
      <CModalHeader>
        <CModalTitle id={`${id}-title`}>{props.title}</CModalTitle>
      </CModalHeader>
      <CModalBody>
        {query.isPending && <CSpinner size="sm" aria-label="Loading the visitors" />}
        {query.isError && (
          <CAlert color="danger" role="alert">
            {messageOf(query.error, "The visitors could not be loaded.")}
          </CAlert>
        )}
        {query.isSuccess && visitors.length === 0 && <p className="text-body-secondary mb-0">No visitors here.</p>}
        {visitors.length > 0 && (
          <CListGroup className="insight-actors mb-2">
            {visitors.map((v) => (
              <CListGroupItem key={v.client_id} className="d-flex justify-content-between gap-2 flex-wrap">
                <Link to={`/customers/${encodeURIComponent(v.client_id)}`} className="text-break">
                  {v.name ?? v.email ?? v.client_id}
                </Link>
                <span className="text-body-secondary small">
                  {v.email && v.name ? `${v.email} · ` : ""}
                  {v.last_seen ? `last seen ${new Date(v.last_seen).toLocaleString()}` : ""}
                </span>
              </CListGroupItem>
            ))}
          </CListGroup>
        )}
        {query.hasNextPage && (
          <CButton
            color="secondary"
            variant="outline"
            size="sm"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? "Loading…" : "Load more"}
          </CButton>
        )}
      </CModalBody>
    </CModal>
  );
}
