// The breadcrumb (SPEC.md §2): Home, then the named route segments; on the right the current
// property's address with a Change button that clears the selection.
import { cilSwapHorizontal } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CBreadcrumb, CBreadcrumbItem, CButton } from "@coreui/react";
import { Link, useLocation } from "react-router-dom";
import { propertyLabel } from "../../components/RequireProperty";
import { useProperties } from "../../state/current-property";
import { breadcrumbsFor } from "./screens";

export function AppBreadcrumb() {
  const { pathname } = useLocation();
  const { current, clear } = useProperties();
  const crumbs = breadcrumbsFor(pathname);
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between column-gap-3 row-gap-1 py-2 w-100">
      <CBreadcrumb className="my-0" aria-label="Breadcrumb">
        <CBreadcrumbItem>
          <Link to="/">Home</Link>
        </CBreadcrumbItem>
        {crumbs.map((c) =>
          c.active ? (
            <CBreadcrumbItem key={c.pathname} active aria-current="page">
              {c.name}
            </CBreadcrumbItem>
          ) : (
            <CBreadcrumbItem key={c.pathname}>
              <Link to={c.pathname}>{c.name}</Link>
            </CBreadcrumbItem>
          ),
        )}
      </CBreadcrumb>
      {current && (
        <div className="d-flex align-items-center gap-2 min-w-0 current-property">
          <span className="text-body-secondary small d-none d-sm-inline">Property</span>
          <span className="fw-semibold text-truncate current-property-url" title={propertyLabel(current)}>
            {propertyLabel(current)}
          </span>
          <CButton color="secondary" variant="outline" size="sm" className="flex-shrink-0" onClick={clear}>
            <CIcon icon={cilSwapHorizontal} className="me-1" aria-hidden="true" />
            Change
          </CButton>
        </div>
      )}
    </div>
  );
}
