// /settings and /reports (SPEC.md §2): one screen of sections (sections.ts), each at a URL of its
// own (?section=…), grouped into the current property's, the account's and the signed-in
// user's. A section the user's role may not change (DESIGN.md §7) is shown read-only.
import { CAlert, CCard, CCardBody, CNav, CNavItem, CNavLink } from "@coreui/react";
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from "react";
import { Link, useLocation, useSearchParams } from "react-router-dom";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { useAccountRole } from "../me/queries";
import type { SectionProps } from "./section-props";
import { GROUP_LABELS, SECTION_IDS, SECTIONS, type SectionGroup, type SectionId, sectionFor, sectionHref } from "./sections";
import "./settings.css";

const SECTION_SCREENS: Record<SectionId, LazyExoticComponent<ComponentType<SectionProps>>> = {
  properties: lazy(() => import("./sections/PropertiesSection")),
  tracking: lazy(() => import("./sections/TrackingSection")),
  exclusions: lazy(() => import("./sections/ExclusionsSection")),
  goals: lazy(() => import("./sections/GoalsSection")),
  "shared-links": lazy(() => import("./sections/SharedLinksSection")),
  reports: lazy(() => import("./sections/ReportsSection")),
  "api-keys": lazy(() => import("./sections/ApiKeysSection")),
  account: lazy(() => import("./sections/AccountSection")),
  profile: lazy(() => import("./sections/ProfileSection")),
};

const GROUPS: SectionGroup[] = ["property", "account", "user"];

function SettingsNav({ active }: { active: SectionId }) {
  return (
    <nav aria-label="Settings sections" className="settings-nav">
      {GROUPS.map((g) => (
        <div key={g} className="mb-3">
          <h2 className="settings-nav-group text-body-secondary">{GROUP_LABELS[g]}</h2>
          <CNav variant="pills" className="settings-nav-list" role="list">
            {SECTION_IDS.filter((id) => SECTIONS[id].group === g).map((id) => (
              <CNavItem key={id}>
                <CNavLink as={Link} to={sectionHref(id)} active={id === active} aria-current={id === active ? "page" : undefined}>
                  {SECTIONS[id].label}
                </CNavLink>
              </CNavItem>
            ))}
          </CNav>
        </div>
      ))}
    </nav>
  );
}

export default function SettingsPage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const active = sectionFor(pathname, params.get("section"));
  const info = SECTIONS[active];
  const Screen = SECTION_SCREENS[active];
  const { role, can } = useAccountRole();
  const canEdit = can(info.edit);
  const body = (property: SectionProps["property"]) => (
    <Suspense fallback={null}>
      <Screen key={property?.unique_id ?? ""} property={property} canEdit={canEdit} can={can} />
    </Suspense>
  );
  return (
    <>
      <PageHeader title="Settings" />
      <div className="settings-layout">
        <SettingsNav active={active} />
        <section className="settings-main" aria-labelledby="settings-section-title">
          <CCard>
            <CCardBody className="p-3 p-md-4">
              <h2 id="settings-section-title" className="h4 mb-3">
                {info.label}
              </h2>
              {role !== undefined && !canEdit && (
                <CAlert color="info" className="py-2">
                  Your role ({role ?? "none"}) can see these settings but not change them.
                </CAlert>
              )}
              {info.needsProperty ? <RequireProperty>{(p) => body(p)}</RequireProperty> : body(null)}
            </CCardBody>
          </CCard>
        </section>
      </div>
    </>
  );
}
