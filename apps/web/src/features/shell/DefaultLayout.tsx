// The signed-in shell: sidebar, header with breadcrumb, the routed screen, footer. It also holds the
// state every signed-in screen shares (properties, date range), so it survives navigation.
import { CContainer, CSpinner } from "@coreui/react";
import { lazy, Suspense } from "react";
import { Outlet } from "react-router-dom";
import { PropertyProvider } from "../../state/current-property";
import { PropertyDateRangeProvider } from "../../state/date-range";
import { AppFooter } from "./AppFooter";
import { AppHeader } from "./AppHeader";
import { AppSidebar } from "./AppSidebar";

// Lazy, with its schema: most accounts have no notice, and the first page stays small.
const BillingNotice = lazy(() => import("../billing/BillingNotice"));

function ScreenLoading() {
  return (
    <div className="d-flex justify-content-center py-5" role="status">
      <CSpinner color="primary" aria-label="Loading" />
    </div>
  );
}

export default function DefaultLayout() {
  return (
    <PropertyProvider>
      <PropertyDateRangeProvider>
        <a className="visually-hidden-focusable skip-link" href="#main">
          Skip to content
        </a>
        <AppSidebar />
        <div className="wrapper d-flex flex-column min-vh-100">
          <AppHeader />
          <main id="main" className="body flex-grow-1" tabIndex={-1}>
            <CContainer className="px-3 px-md-4" lg>
              <Suspense fallback={null}>
                <BillingNotice />
              </Suspense>
              <Suspense fallback={<ScreenLoading />}>
                <Outlet />
              </Suspense>
            </CContainer>
          </main>
          <AppFooter />
        </div>
      </PropertyDateRangeProvider>
    </PropertyProvider>
  );
}
