// The header (SPEC.md §2): sidebar toggle, the Dashboard, Billing and Settings links, the theme
// menu, the avatar menu, and the breadcrumb row beneath. It gains a shadow once the page scrolls.
// Beside the menus: the live visitor count of the current property (SPEC.md §5), linking to /live.
import { cilMenu } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CContainer, CHeader, CHeaderNav, CHeaderToggler, CNavItem, CNavLink } from "@coreui/react";
import { useEffect, useState } from "react";
import { Link, NavLink } from "react-router-dom";
import { BrandMark } from "../../components/BrandMark";
import { LiveBadge } from "../live/LiveBadge";
import { AccountMenu } from "./AccountMenu";
import { AppBreadcrumb } from "./AppBreadcrumb";
import { useLayout } from "./layout-store";
import { ThemeMenu } from "./ThemeMenu";

const HEADER_LINKS = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/billing", label: "Billing" },
  { to: "/settings", label: "Settings" },
];

function Divider() {
  return (
    <li className="nav-item py-1" aria-hidden="true">
      <div className="vr h-100 mx-2 text-body text-opacity-75" />
    </li>
  );
}

export function AppHeader() {
  const { state, dispatch } = useLayout();
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const onScroll = () => setScrolled(document.documentElement.scrollTop > 0);
    document.addEventListener("scroll", onScroll, { passive: true });
    return () => document.removeEventListener("scroll", onScroll);
  }, []);

  return (
    <CHeader position="sticky" className={`mb-4 p-0${scrolled ? " shadow-sm" : ""}`}>
      <CContainer className="border-bottom px-3 px-md-4" fluid>
        <CHeaderToggler
          className="header-toggler-start"
          aria-label={state.sidebarShow ? "Hide the sidebar" : "Show the sidebar"}
          aria-controls="app-sidebar"
          aria-expanded={state.sidebarShow}
          onClick={() => dispatch({ type: "toggleSidebar" })}
        >
          <CIcon icon={cilMenu} size="lg" aria-hidden="true" />
        </CHeaderToggler>
        <Link to="/dashboard" className="d-md-none d-inline-flex align-items-center gap-2 text-body text-decoration-none ms-2">
          <BrandMark size={24} />
          <span className="fw-semibold">Lookout</span>
        </Link>
        {/* CHeaderNav gives its list role="navigation", which hides the items from being a list:
            the landmark is a <nav> around it, and the list keeps role="list". */}
        <nav className="d-none d-md-flex" aria-label="Shortcuts">
          <CHeaderNav as="ul" role="list">
            {HEADER_LINKS.map((l) => (
              <CNavItem key={l.to}>
                <CNavLink as={NavLink} to={l.to}>
                  {l.label}
                </CNavLink>
              </CNavItem>
            ))}
          </CHeaderNav>
        </nav>
        <CHeaderNav className="ms-auto" as="ul" role="list">
          <LiveBadge />
          <Divider />
          <ThemeMenu />
          <Divider />
          <AccountMenu />
        </CHeaderNav>
      </CContainer>
      <CContainer className="px-3 px-md-4" fluid>
        <AppBreadcrumb />
      </CContainer>
    </CHeader>
  );
}
