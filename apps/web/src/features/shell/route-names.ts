// The signed-in routes of SPEC.md §2 with their breadcrumb names. The router and the breadcrumb
// both read this list, so a route cannot exist without a name.
import { matchPath } from "react-router-dom";

export const SIGNED_IN_ROUTES = [
  { path: "/dashboard", name: "Dashboard" },
  { path: "/customers/:clientId", name: "Visitor" },
  { path: "/live", name: "Live View" },
  { path: "/product-analytics", name: "Product Analytics" },
  { path: "/product-analytics/insights/:insightId", name: "Insight" },
  { path: "/settings", name: "Settings" },
  { path: "/team", name: "Team" },
  { path: "/billing", name: "Billing" },
  { path: "/reports", name: "Reports" },
] as const;

export type SignedInPath = (typeof SIGNED_IN_ROUTES)[number]["path"];

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
    const route = SIGNED_IN_ROUTES.find((r) => matchPath({ path: r.path, end: true }, prefix));
    if (route) crumbs.push({ name: route.name, pathname: prefix, active: i === parts.length - 1 });
  });
  return crumbs;
}
