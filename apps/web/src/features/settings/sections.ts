// The parts of the Settings screen (/settings?section=…; /reports opens it on Reports, SPEC.md
// §2): which group each belongs to, its label, and what the role matrix (DESIGN.md §7) needs to
// change it. The components are in SettingsPage's registry, a Record over the same ids, so a
// section cannot be half-added.
import type { Action } from "@lookout/schema";

export const SECTION_IDS = [
  "properties",
  "tracking",
  "exclusions",
  "goals",
  "shared-links",
  "reports",
  "api-keys",
  "account",
  "profile",
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export type SectionGroup = "property" | "account" | "user";

export interface SectionInfo {
  label: string;
  group: SectionGroup;
  /** What changing it needs; reading needs membership only. */
  edit: Action;
  /** Whether it works on the current property (a picker shows first without one). */
  needsProperty: boolean;
}

export const SECTIONS: Record<SectionId, SectionInfo> = {
  properties: { label: "Properties", group: "account", edit: "admin", needsProperty: false },
  tracking: { label: "Tracking code", group: "property", edit: "admin", needsProperty: true },
  exclusions: { label: "Exclusions", group: "property", edit: "admin", needsProperty: true },
  goals: { label: "Goals", group: "property", edit: "write", needsProperty: true },
  "shared-links": { label: "Shared links", group: "property", edit: "admin", needsProperty: true },
  reports: { label: "Reports and export", group: "property", edit: "admin", needsProperty: true },
  "api-keys": { label: "API keys", group: "account", edit: "admin", needsProperty: false },
  account: { label: "Account", group: "account", edit: "admin", needsProperty: false },
  profile: { label: "Your profile", group: "user", edit: "read", needsProperty: false },
};

export const GROUP_LABELS: Record<SectionGroup, string> = {
  property: "This property",
  account: "Account",
  user: "You",
};

export function isSectionId(v: string | null): v is SectionId {
  return v !== null && (SECTION_IDS as readonly string[]).includes(v);
}

/** The section a URL shows: ?section= when valid, else Reports on /reports, else Properties. */
export function sectionFor(pathname: string, param: string | null): SectionId {
  if (isSectionId(param)) return param;
  return pathname === "/reports" ? "reports" : "properties";
}

/** The link to a section (always under /settings, except Reports' own route). */
export function sectionHref(id: SectionId): string {
  return id === "reports" ? "/reports" : `/settings?section=${id}`;
}
