// A visitor's history (peers.md §2's session ledger): visits newest first, each with its start,
// duration, entry source, device and location, opening onto its pageviews (with time on page) and
// custom events (with props and revenue) in order. Pages come by cursor ("Load more visits"); the
// event-name and date filters live in the URL (url-state.ts). Every tracked string is text.
import { cilChevronBottom, cilChevronRight } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton, CCard, CCardBody, CCardHeader, CFormInput, CFormLabel, CSpinner } from "@coreui/react";
import type { Visit, VisitorEvent } from "@lookout/schema";
import { type FormEvent, useId, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { formatDuration, formatFull } from "../../lib/format";
import { ListSkeleton, PanelError } from "../dashboard/PanelParts";
import type { HistoryParams } from "./api";
import { deviceLabel, formatDateTime, formatMoney, formatTime, placeLabel } from "./labels";
import { useVisitorHistory } from "./queries";
import { isFiltered, readHistoryParams, writeHistoryParams } from "./url-state";

function EventRow({ e }: { e: VisitorEvent }) {
  const props = Object.entries(e.props);
  const page = e.name === "pageview";
  return (
    <li className={`visit-event${page ? " visit-event-page" : " visit-event-custom"}`} data-event={e.name}>
      <span className="visit-event-time text-body-secondary small font-monospace">{formatTime(e.ts)}</span>
      <span className="visit-event-body min-w-0">
        {page ? (
          <>
            <span className="visit-event-kind small text-body-secondary">Pageview</span>{" "}
            <span className="font-monospace text-break visit-event-path">{e.path || "/"}</span>
            {e.title && <span className="d-block small text-break text-body-secondary">{e.title}</span>}
          </>
        ) : (
          <>
            <span className="visit-event-kind small text-body-secondary">{e.name === "identify" ? "Identified" : "Event"}</span>{" "}
            {e.name !== "identify" && <strong className="text-break visit-event-name">{e.name}</strong>}
            {e.path && <span className="small font-monospace text-break text-body-secondary"> on {e.path}</span>}
            {e.revenue !== 0 && (
              <span className="ms-2 visit-event-revenue fw-semibold">{formatMoney(e.revenue, e.revenue_currency)}</span>
            )}
            {props.length > 0 && (
              <dl className="visit-event-props mb-0">
                {props.map(([k, value]) => (
                  <div key={k}>
                    <dt>{k}</dt>
                    <dd className="text-break">{value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </>
        )}
      </span>
      {page && (
        <span className="visit-event-spent small text-nowrap text-body-secondary">
          {e.time_on_page_seconds === null ? "" : formatDuration(e.time_on_page_seconds)}
        </span>
      )}
    </li>
  );
}

function VisitRow({ visit, clientId, initiallyOpen }: { visit: Visit; clientId: string; initiallyOpen: boolean }) {
  const id = useId();
  const [open, setOpen] = useState(initiallyOpen);
  const custom = visit.events.filter((e) => e.name !== "pageview").length;
  const otherDevice = visit.client_id !== clientId;
  return (
    <li className="visit" data-session={visit.session_id}>
      <button
        type="button"
        className="visit-summary"
        aria-expanded={open}
        aria-controls={`${id}-events`}
        onClick={() => setOpen((o) => !o)}
      >
        <CIcon icon={open ? cilChevronBottom : cilChevronRight} size="sm" className="visit-chevron" aria-hidden="true" />
        <span className="visit-when">
          <span className="fw-semibold">{formatDateTime(visit.start)}</span>
          <span className="d-block small text-body-secondary">
            {formatDuration(visit.duration_seconds)} · {visit.pageviews} {visit.pageviews === 1 ? "page" : "pages"}
            {custom > 0 && ` · ${custom} ${custom === 1 ? "event" : "events"}`}
          </span>
        </span>
        <span className="visit-where small min-w-0">
          <span className="d-block text-break">{visit.entry_source || "Direct / None"}</span>
          <span className="d-block text-body-secondary text-break">
            {deviceLabel(visit)} · {placeLabel(visit)}
          </span>
          {otherDevice && <span className="d-block text-body-secondary text-break">on another device ({visit.client_id})</span>}
        </span>
      </button>
      {open && (
        <div id={`${id}-events`} className="visit-events">
          <ol className="list-unstyled mb-0">
            {visit.events.map((e, i) => (
              // Two events may share a timestamp; their order within the visit is the key.
              // biome-ignore lint/suspicious/noArrayIndexKey: events have no id of their own.
              <EventRow key={i} e={e} />
            ))}
          </ol>
          {visit.events_total > visit.events.length && (
            <p className="small text-body-secondary mb-0 mt-2">
              and {formatFull(visit.events_total - visit.events.length)} more events in this visit, not shown
            </p>
          )}
        </div>
      )}
    </li>
  );
}

function FilterForm({ value, events, onApply }: { value: HistoryParams; events: string[]; onApply: (h: HistoryParams) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  // The URL changed (back button, a link): the form follows it.
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  return (
    <form className="visit-filters row g-2 align-items-end mb-3" onSubmit={submit} aria-label="Filter the history">
      <div className="col-12 col-md-4">
        <CFormLabel htmlFor={`${id}-event`} className="small mb-1">
          Event name
        </CFormLabel>
        <CFormInput
          id={`${id}-event`}
          size="sm"
          list={`${id}-names`}
          placeholder="Any event"
          autoComplete="off"
          value={draft.event}
          onChange={(e) => setDraft({ ...draft, event: e.target.value })}
        />
        <datalist id={`${id}-names`}>
          <option value="pageview" />
          {events.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </div>
      <div className="col-6 col-md-3">
        <CFormLabel htmlFor={`${id}-from`} className="small mb-1">
          From
        </CFormLabel>
        <CFormInput
          id={`${id}-from`}
          size="sm"
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
      </div>
      <div className="col-6 col-md-3">
        <CFormLabel htmlFor={`${id}-to`} className="small mb-1">
          To
        </CFormLabel>
        <CFormInput
          id={`${id}-to`}
          size="sm"
          type="date"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
      </div>
      <div className="col-12 col-md-2 d-flex gap-2">
        <CButton type="submit" color="primary" size="sm">
          Apply
        </CButton>
        {isFiltered(value) && (
          <CButton
            type="button"
            color="secondary"
            variant="outline"
            size="sm"
            onClick={() => onApply({ event: "", from: "", to: "" })}
          >
            Clear
          </CButton>
        )}
      </div>
    </form>
  );
}

export function VisitHistory({
  propertyId,
  clientId,
  eventNames,
}: {
  propertyId: string;
  clientId: string;
  eventNames: string[];
}) {
  const [params, setParams] = useSearchParams();
  const filter = readHistoryParams(params);
  const history = useVisitorHistory(propertyId, clientId, filter, true);
  const visits = history.data?.pages.flatMap((p) => p.results) ?? [];
  const listKey = history.isPlaceholderData ? "previous" : JSON.stringify(filter);
  const apply = (h: HistoryParams) => setParams((p) => writeHistoryParams(p, h), { replace: true });
  return (
    <CCard className="mb-4 visitor-history">
      <CCardHeader className="py-2 d-flex flex-wrap justify-content-between align-items-center gap-2">
        <h2 className="h6 mb-0">History</h2>
        <span className="small text-body-secondary" aria-live="polite" data-testid="visits-shown">
          {history.data
            ? `${visits.length} ${visits.length === 1 ? "visit" : "visits"} shown${history.hasNextPage ? ", more to load" : ""}`
            : ""}
        </span>
      </CCardHeader>
      <CCardBody>
        <FilterForm value={filter} events={eventNames} onApply={apply} />
        {history.error && !history.data ? (
          <PanelError error={history.error} what="the history" onRetry={() => void history.refetch()} />
        ) : !history.data ? (
          <ListSkeleton rows={4} />
        ) : visits.length === 0 ? (
          <p className="text-body-secondary mb-0">
            {isFiltered(filter) ? "No visit matches these filters." : "No visits recorded."}
          </p>
        ) : (
          <>
            <ol
              className={`list-unstyled mb-0 visits${history.isPlaceholderData ? " opacity-50" : ""}`}
              aria-label="Visits, newest first"
            >
              {visits.map((v, i) => (
                // A new filter's answer is a new list (its first visit opens, as on arrival); "Load
                // more" keeps what was opened.
                <VisitRow
                  key={`${listKey}/${v.client_id}/${v.session_id}`}
                  visit={v}
                  clientId={clientId}
                  initiallyOpen={i === 0}
                />
              ))}
            </ol>
            {history.error && (
              <PanelError error={history.error} what="more visits" onRetry={() => void history.fetchNextPage()} />
            )}
            {history.hasNextPage && (
              <div className="text-center mt-3">
                <CButton
                  color="secondary"
                  variant="outline"
                  onClick={() => void history.fetchNextPage()}
                  disabled={history.isFetchingNextPage}
                >
                  {history.isFetchingNextPage && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
                  Load more visits
                </CButton>
              </div>
            )}
          </>
        )}
      </CCardBody>
    </CCard>
  );
}
