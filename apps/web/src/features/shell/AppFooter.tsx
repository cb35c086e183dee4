// The footer (SPEC.md §2, §9): the copyright line with the year 2025, the powered-by line and the
// toggler that flips the sidebar between full and unfoldable (narrow until hovered).
import { cilChevronLeft, cilChevronRight } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton, CFooter } from "@coreui/react";
import { useLayout } from "./layout-store";

export function AppFooter() {
  const { state, dispatch } = useLayout();
  return (
    <CFooter className="px-4 flex-wrap gap-1">
      <div>
        <span className="fw-semibold">Lookout</span> <span>© 2025</span>
      </div>
      <div className="ms-sm-auto d-flex align-items-center gap-2">
        <span>Powered by Lookout</span>
        <CButton
          color="secondary"
          variant="ghost"
          size="sm"
          className="d-none d-lg-inline-flex footer-unfoldable-toggler"
          aria-label={state.sidebarUnfoldable ? "Keep the sidebar open" : "Narrow the sidebar"}
          aria-pressed={state.sidebarUnfoldable}
          onClick={() => dispatch({ type: "toggleUnfoldable" })}
        >
          <CIcon icon={state.sidebarUnfoldable ? cilChevronRight : cilChevronLeft} />
        </CButton>
      </div>
    </CFooter>
  );
}
