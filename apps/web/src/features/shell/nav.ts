// The sidebar entries of SPEC.md §2, in the spec's order, with CoreUI icons. Logout is a full-page
// navigation (SPEC.md §7) so the server can clear the cookie session too.
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

export interface NavEntry {
  name: string;
  to: string;
  icon: string[];
  /** Leave the single-page app and load the address from the server. */
  fullPage?: boolean;
}

export const NAV: readonly NavEntry[] = [
  { name: "Dashboard", to: "/dashboard", icon: cilSpeedometer },
  { name: "Live View", to: "/live", icon: cilRss },
  { name: "Product Analytics", to: "/product-analytics", icon: cilChartLine },
  { name: "Settings", to: "/settings", icon: cilSettings },
  { name: "Team", to: "/team", icon: cilPeople },
  { name: "Billing", to: "/billing", icon: cilCreditCard },
  { name: "Reports", to: "/reports", icon: cilDescription },
  { name: "Logout", to: "/logout", icon: cilAccountLogout, fullPage: true },
];
