// /product-analytics: the current property's product analytics in two parts, chosen by the URL's
// `tab` (so each can be linked): the saved insights (InsightsList) and the visitors list
// (features/visitors). Parts are links, not ARIA tabs, as each is its own address.
import { CNav, CNavItem } from "@coreui/react";
import { lazy, Suspense } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { InsightsList } from "./InsightsList";

const VisitorsList = lazy(() => import("../visitors/VisitorsList").then((m) => ({ default: m.VisitorsList })));

type Part = "insights" | "visitors";
const PARTS: { id: Part; label: string; to: string }[] = [
  { id: "insights", label: "Insights", to: "/product-analytics" },
  { id: "visitors", label: "Visitors", to: "/product-analytics?tab=visitors" },
];

export default function ProductAnalyticsPage() {
  const [params] = useSearchParams();
  const part: Part = params.get("tab") === "visitors" ? "visitors" : "insights";
  return (
    <>
      <PageHeader title="Product Analytics" />
      <nav aria-label="Product analytics" className="mb-4">
        {/* CNav calls its list "navigation"; the <nav> around it is that, the list stays a list. */}
        <CNav variant="underline-border" className="product-analytics-nav" role="list">
          {PARTS.map((p) => (
            <CNavItem key={p.id}>
              <Link
                to={p.to}
                className={`nav-link${p.id === part ? " active" : ""}`}
                aria-current={p.id === part ? "page" : undefined}
              >
                {p.label}
              </Link>
            </CNavItem>
          ))}
        </CNav>
      </nav>
      <RequireProperty>
        {(property) =>
          part === "visitors" ? (
            <Suspense fallback={null}>
              <VisitorsList key={property.unique_id} property={property} />
            </Suspense>
          ) : (
            <InsightsList propertyId={property.unique_id} />
          )
        }
      </RequireProperty>
    </>
  );
}
