// The one screen registry (SPEC.md §2): every signed-in screen's path, breadcrumb name, lazily
// loaded component and sidebar entry, if it has one. The router, the breadcrumb and the sidebar all
// read it, so a screen cannot exist without a name. A new screen is a folder under features/ plus
// one line here; the sidebar lists the entries that have an icon, in this order, then Logout.
import {
  cilAccountLogout,
  cilChartLine,
  cilCreditCard,
  cilDescription,
  cilPeople,
  cilRss,
  cilSettings,
  cilSpeedometer,
} from "@coreui/icons";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import { matchPath } from "react-router-dom";

export interface Screen {
  /** The breadcrumb name, and the sidebar label when the screen has an entry there. */
  title: string;
  component: LazyExoticComponent<ComponentType>;
  /** The sidebar icon; screens without one (a detail page) are reached by link only. */
  navIcon?: string[];
}

function screen(title: string, load: () => Promise<{ default: ComponentType }>, navIcon?: string[]): Screen {
  return { title, component: lazy(load), ...(navIcon ? { navIcon } : {}) };
}

export const SCREENS = {
  "/dashboard": screen("Dashboard", () => import("../dashboard/DashboardPage"), cilSpeedometer),
  "/customers/:clientId": screen("Visitor", () => import("../visitors/CustomerPage")),
  "/live": screen("Live View", () => import("../live/LivePage"), cilRss),
  "/product-analytics": screen("Product Analytics", () => import("../insights/ProductAnalyticsPage"), cilChartLine),
  "/product-analytics/insights/:insightId": screen("Insight", () => import("../insights/InsightPage")),
  "/settings": screen("Settings", () => import("../settings/SettingsPage"), cilSettings),
  "/team": screen("Team", () => import("../team/TeamPage"), cilPeople),
  "/billing": screen("Billing", () => import("../billing/BillingPage"), cilCreditCard),
  "/reports": screen("Reports", () => import("../settings/SettingsPage"), cilDescription),
} satisfies Record<`/${string}`, Screen>;

export type ScreenPath = keyof typeof SCREENS;

/** The registry as a list, in its order. */
export const SCREEN_LIST = (Object.keys(SCREENS) as ScreenPath[]).map((path) => ({ path, ...(SCREENS[path] as Screen) }));

export interface NavEntry {
  name: string;
  to: string;
  icon: string[];
  /** Leave the single-page app and load the address from the server (SPEC.md §7: Logout, so the
   * server can clear the cookie session too). */
  fullPage?: boolean;
}

/** The sidebar entries of SPEC.md §2, in the spec's order, with CoreUI icons. */
export const NAV: readonly NavEntry[] = [
  ...SCREEN_LIST.flatMap((s) => (s.navIcon ? [{ name: s.title, to: s.path, icon: s.navIcon }] : [])),
  { name: "Logout", to: "/logout", icon: cilAccountLogout, fullPage: true },
];

export interface Crumb {
  name: string;
  pathname: string;
  active: boolean;
}

/** The crumbs after Home: one per leading part of the path that names a route. */
export function breadcrumbsFor(pathname: string): Crumb[] {
  const parts = pathname.split("/").filter(Boolean);
  const crumbs: Crumb[] = [];
  parts.forEach((_, i) => {
    const prefix = `/${parts.slice(0, i + 1).join("/")}`;
    const route = SCREEN_LIST.find((r) => matchPath({ path: r.path, end: true }, prefix));
    if (route) crumbs.push({ name: route.title, pathname: prefix, active: i === parts.length - 1 });
  });
  return crumbs;
}
