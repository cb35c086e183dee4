// A shared link's dashboard: the property's dashboard (features/dashboard) read-only through the
// link's credential, with the date picker and filters working, and nothing of the account: no
// sidebar, no account menu, no link into the app. `embed` (?embed=true, for an iframe) drops the
// page's header for a compact layout.
import { CContainer, CHeader, CHeaderNav } from "@coreui/react";
import type { ShareInfo } from "@lookout/schema";
import { BrandMark } from "../../components/BrandMark";
import { DateRangePicker } from "../../components/DateRangePicker";
import { DateRangeProvider } from "../../state/date-range";
import { Dashboard } from "../dashboard/Dashboard";
import { ThemeMenu } from "../shell/ThemeMenu";
import "./sharing.css";

type OpenProperty = NonNullable<ShareInfo["property"]>;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function ShareDashboard({ slug, property, embed }: { slug: string; property: OpenProperty; embed: boolean }) {
  const current = { unique_id: property.unique_id, website_url: property.website_url };
  const dashboard = <Dashboard property={current} share={slug} />;
  if (embed) {
    return (
      <DateRangeProvider timezone={property.timezone}>
        <main className="share-embed p-2 p-sm-3" aria-label={`${property.name} statistics`}>
          <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
            <h1 className="h5 mb-0 text-break">{property.name}</h1>
            <DateRangePicker comparison shortcuts />
          </div>
          {dashboard}
        </main>
      </DateRangeProvider>
    );
  }
  const host = property.website_url ? hostOf(property.website_url) : "";
  return (
    <DateRangeProvider timezone={property.timezone}>
      <div className="share-page min-vh-100 d-flex flex-column">
        <CHeader position="sticky" className="mb-4 p-0">
          <CContainer className="border-bottom px-3 px-md-4" fluid>
            <span className="d-inline-flex align-items-center gap-2 fw-semibold">
              <BrandMark size={24} />
              Lookout
            </span>
            <CHeaderNav className="ms-auto" as="ul" role="list">
              <ThemeMenu />
            </CHeaderNav>
          </CContainer>
        </CHeader>
        <main id="main" className="flex-grow-1" tabIndex={-1}>
          <CContainer className="px-3 px-md-4" lg>
            <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-4">
              <div className="min-w-0">
                <h1 className="h3 mb-0 text-break">{property.name}</h1>
                <p className="text-body-secondary small mb-0 text-break">
                  {host ? `${host} · ` : ""}Shared statistics, times in {property.timezone}
                </p>
              </div>
              <DateRangePicker comparison shortcuts />
            </div>
            {dashboard}
          </CContainer>
        </main>
        <footer className="text-body-secondary small text-center py-3">Statistics by Lookout, read-only.</footer>
      </div>
    </DateRangeProvider>
  );
}
