// The sidebar (SPEC.md §2, §4): brand, the eight entries, a close button on small screens and the
// unfoldable toggler in its footer. The entry list scrolls in SimpleBar (minimum thumb 25 px).
import CIcon from "@coreui/icons-react";
import {
  CCloseButton,
  CNavItem,
  CNavLink,
  CSidebar,
  CSidebarBrand,
  CSidebarFooter,
  CSidebarHeader,
  CSidebarNav,
  CSidebarToggler,
} from "@coreui/react";
import { type ComponentProps, type ReactNode, useCallback, useEffect, useRef } from "react";
import { NavLink } from "react-router-dom";
import SimpleBar from "simplebar-react";
import { BrandMark } from "../../components/BrandMark";
import { useLayout } from "./layout-store";
import { NAV } from "./screens";

const SCROLLBAR_MIN_SIZE = 25;

// SimpleBar wraps its children in its own divs, so the list element lives inside it.
function NavScroll({ children, ...props }: ComponentProps<typeof SimpleBar>) {
  return (
    <SimpleBar {...props} scrollbarMinSize={SCROLLBAR_MIN_SIZE}>
      <ul className="list-unstyled mb-0">{children as ReactNode}</ul>
    </SimpleBar>
  );
}

/**
 * CoreUI's report of the sidebar's visibility, taken once the frame is done (the frame's last
 * report wins). CoreUI measures the sidebar after every render and reports when it finds it in or
 * out of view; during a passing resize (a full-page screenshot resizes the window) that can flip on
 * each render, and taking each report at once fed the flips back as the `visible` prop until React
 * stopped at its update depth (error #185, seen once in the screenshot walk's phone sidebar shot).
 */
function useSettledVisibility(apply: (value: boolean) => void): (value: boolean) => void {
  const frame = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return useCallback(
    (value: boolean) => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => {
        frame.current = null;
        apply(value);
      });
    },
    [apply],
  );
}

export function AppSidebar() {
  const { state, dispatch } = useLayout();
  const onVisibleChange = useSettledVisibility(
    useCallback((value: boolean) => dispatch({ type: "sidebarShow", value }), [dispatch]),
  );
  return (
    <CSidebar
      as="nav"
      className="border-end"
      colorScheme="dark"
      position="fixed"
      unfoldable={state.sidebarUnfoldable}
      visible={state.sidebarShow}
      onVisibleChange={onVisibleChange}
      aria-label="Main navigation"
      id="app-sidebar"
    >
      <CSidebarHeader className="border-bottom">
        <CSidebarBrand as={NavLink} to="/dashboard" className="text-decoration-none text-white" aria-label="Lookout">
          <span className="sidebar-brand-full d-inline-flex align-items-center gap-2">
            <BrandMark size={28} />
            <span className="fs-5 fw-semibold">Lookout</span>
          </span>
          <span className="sidebar-brand-narrow">
            <BrandMark size={28} />
          </span>
        </CSidebarBrand>
        <CCloseButton
          className="d-lg-none"
          dark
          aria-label="Close the sidebar"
          onClick={() => dispatch({ type: "sidebarShow", value: false })}
        />
      </CSidebarHeader>
      <CSidebarNav as={NavScroll}>
        {NAV.map((entry) => (
          <CNavItem key={entry.to}>
            {entry.fullPage ? (
              <CNavLink href={entry.to}>
                <CIcon icon={entry.icon} customClassName="nav-icon" aria-hidden="true" />
                {entry.name}
              </CNavLink>
            ) : (
              <CNavLink as={NavLink} to={entry.to}>
                <CIcon icon={entry.icon} customClassName="nav-icon" aria-hidden="true" />
                {entry.name}
              </CNavLink>
            )}
          </CNavItem>
        ))}
      </CSidebarNav>
      <CSidebarFooter className="border-top d-none d-lg-flex">
        <CSidebarToggler
          aria-label={state.sidebarUnfoldable ? "Keep the sidebar open" : "Narrow the sidebar"}
          aria-pressed={state.sidebarUnfoldable}
          onClick={() => dispatch({ type: "toggleUnfoldable" })}
        />
      </CSidebarFooter>
    </CSidebar>
  );
}
