// /live: who is on the current property right now, updating as the socket speaks. The count is
// SPEC.md §5's, the same number as in the header and on the dashboard; everything else (visitors,
// the 30-minute chart, pages, sources, countries) is derived in the browser from the same list.

import { CCard, CCardBody, CCardHeader, CCol, CRow } from "@coreui/react";
import type { CurrentProperty } from "@lookout/schema";
import { useMemo } from "react";
import { CountryFlag } from "../../components/CountryFlag";
import WorldMap from "../../components/charts/WorldMap";
import { PageHeader } from "../../components/PageHeader";
import { propertyLabel, RequireProperty } from "../../components/RequireProperty";
import { countryName } from "../../lib/countries";
import { useLiveCount, useLiveVisitors } from "./LiveProvider";
import { LiveStatus } from "./LiveStatus";
import {
  activeVisitors,
  ofProperty,
  perMinute,
  recentlyLeft,
  topCountries,
  topPages,
  topSources,
  uncountedActive,
  uncountedNote,
} from "./live-stats";
import { MinuteChart } from "./MinuteChart";
import { RankedList } from "./RankedList";
import { useNow } from "./use-now";
import { VisitorList } from "./VisitorList";
import "../../components/charts/echarts-live";
import "./live.css";

const visitorCount = (n: number) => `${n} ${n === 1 ? "visitor" : "visitors"}`;

const COUNT_HELP =
  "Visitors seen in the last 60 seconds who have not left, with a known country; each counted once however many pages they have open.";

function LiveScreen({ property }: { property: CurrentProperty }) {
  const all = useLiveVisitors();
  const count = useLiveCount(property.unique_id);
  // The minute chart and "left … ago" move with time even when no message arrives.
  const now = useNow(15_000);
  const mine = useMemo(() => ofProperty(all, property.unique_id), [all, property.unique_id]);
  const active = useMemo(() => activeVisitors(mine), [mine]);
  const left = useMemo(() => recentlyLeft(mine, now), [mine, now]);
  const buckets = useMemo(() => perMinute(mine, now), [mine, now]);
  const pages = useMemo(() => topPages(mine), [mine]);
  const sources = useMemo(() => topSources(mine), [mine]);
  const countries = useMemo(() => topCountries(mine), [mine]);
  const map = useMemo(
    () => ({
      data: countries.map((r) => ({ code: r.label, value: r.visitors })),
      label:
        countries.length === 0
          ? "World map: no live visitors"
          : `World map of live visitors: ${countries.map((r) => `${countryName(r.label)} ${r.visitors}`).join(", ")}`,
    }),
    [countries],
  );
  const uncounted = uncountedNote(uncountedActive(mine));
  const arrivals = buckets.reduce((n, b) => n + b.arrivals, 0);
  const site = propertyLabel(property);

  return (
    <>
      <CRow className="g-3 mb-3">
        <CCol md={4}>
          <CCard className="h-100">
            <CCardBody className="d-flex flex-column">
              <div className="text-body-secondary small text-uppercase fw-semibold">Visitors online now</div>
              <div className="live-count" data-live-count={count} aria-live="polite" title={COUNT_HELP}>
                {count}
              </div>
              <div className="text-body-secondary small">
                {arrivals} {arrivals === 1 ? "arrival" : "arrivals"} in the last 30 minutes
              </div>
              {uncounted && (
                <div className="text-body-secondary small" data-live-uncounted>
                  {uncounted} (listed below)
                </div>
              )}
              <p className="text-body-secondary small mb-0 live-help">{COUNT_HELP}</p>
            </CCardBody>
          </CCard>
        </CCol>
        <CCol md={8}>
          <CCard className="h-100">
            <CCardHeader className="bg-transparent border-0 pb-0 fw-semibold">Last 30 minutes</CCardHeader>
            <CCardBody className="pt-2">
              <MinuteChart buckets={buckets} />
              <p className="text-body-secondary small mb-0 mt-1">
                Per minute, from the visitors this page has heard of since it opened.
              </p>
            </CCardBody>
          </CCard>
        </CCol>
      </CRow>

      <CRow className="g-3 mb-3">
        <CCol xl={8}>
          <CCard className="h-100">
            <CCardHeader className="bg-transparent fw-semibold d-flex justify-content-between align-items-center">
              <span>Visitors</span>
              <span className="text-body-secondary small fw-normal">{active.length} on the site</span>
            </CCardHeader>
            <CCardBody className="p-0 live-visitors-body">
              <VisitorList active={active} left={left} site={site} />
            </CCardBody>
          </CCard>
        </CCol>
        <CCol xl={4}>
          <CRow className="g-3">
            <CCol md={6} xl={12}>
              <CCard>
                <CCardHeader className="bg-transparent fw-semibold">Top pages</CCardHeader>
                <CCardBody>
                  <RankedList
                    rows={pages}
                    label="Top pages now"
                    empty="No pages are being viewed."
                    render={(r) => <span className="font-monospace">{r.label}</span>}
                  />
                </CCardBody>
              </CCard>
            </CCol>
            <CCol md={6} xl={12}>
              <CCard>
                <CCardHeader className="bg-transparent fw-semibold">Top sources</CCardHeader>
                <CCardBody>
                  <RankedList rows={sources} label="Top sources now" empty="No visitors, so no sources." />
                </CCardBody>
              </CCard>
            </CCol>
          </CRow>
        </CCol>
      </CRow>

      <CRow className="g-3">
        <CCol lg={8}>
          <CCard className="h-100">
            <CCardHeader className="bg-transparent fw-semibold">Where they are</CCardHeader>
            <CCardBody>
              <WorldMap
                data={map.data}
                describe={visitorCount}
                label={map.label}
                markers
                renderer="svg"
                className="live-world-map"
              />
            </CCardBody>
          </CCard>
        </CCol>
        <CCol lg={4}>
          <CCard className="h-100">
            <CCardHeader className="bg-transparent fw-semibold">Countries</CCardHeader>
            <CCardBody>
              <RankedList
                rows={countries}
                label="Countries of visitors now"
                empty="No visitors with a known location."
                render={(r) => (
                  <span className="d-inline-flex align-items-center gap-2">
                    <CountryFlag code={r.label} decorative />
                    {countryName(r.label)}
                  </span>
                )}
              />
            </CCardBody>
          </CCard>
        </CCol>
      </CRow>
    </>
  );
}

export default function LivePage() {
  return (
    <>
      <PageHeader title="Live View">
        <LiveStatus />
      </PageHeader>
      <RequireProperty>{(property) => <LiveScreen property={property} />}</RequireProperty>
    </>
  );
}
