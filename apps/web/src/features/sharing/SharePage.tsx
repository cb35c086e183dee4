// /share/{slug}: a shared link's public page (no sign-in). It asks the server about the link,
// then shows the password page, the dashboard, or a plain "not available" (unknown, expired and
// revoked links read the same). ?embed=true is the compact layout for an iframe; ?theme=light or
// dark sets the colours for this page without storing a choice.
import { CButton, CSpinner } from "@coreui/react";
import { useEffect } from "react";
import { useParams, useSearchParams } from "react-router-dom";
import { HttpError, messageOf } from "../../lib/http";
import { AuthLayout } from "../auth/AuthLayout";
import { useLayout } from "../shell/layout-store";
import { useShareInfo } from "./queries";
import { ShareDashboard } from "./ShareDashboard";
import { SharePasswordForm } from "./SharePasswordForm";

function useThemeParam(theme: string | null) {
  const { dispatch } = useLayout();
  useEffect(() => {
    if (theme === "light" || theme === "dark") dispatch({ type: "theme", value: theme });
  }, [theme, dispatch]);
}

function NotAvailable() {
  return (
    <AuthLayout
      title="Link not available"
      intro="This shared link does not exist, has expired or has been revoked. Ask whoever shared it for a new link."
    >
      {null}
    </AuthLayout>
  );
}

export default function SharePage() {
  const { slug = "" } = useParams();
  const [params] = useSearchParams();
  const embed = params.get("embed") === "true";
  useThemeParam(params.get("theme"));
  const info = useShareInfo(slug);
  const title = info.data?.property?.name;
  useEffect(() => {
    document.title = title ? `${title} · Lookout` : "Shared statistics · Lookout";
  }, [title]);

  if (info.isPending) {
    return (
      <div className="d-flex justify-content-center py-5" role="status">
        <CSpinner color="primary" aria-label="Loading" />
      </div>
    );
  }
  if (info.error) {
    if (info.error instanceof HttpError && info.error.status === 404) return <NotAvailable />;
    return (
      <AuthLayout title="Something went wrong" intro={messageOf(info.error, "The shared statistics could not be loaded.")}>
        <CButton color="primary" onClick={() => void info.refetch()}>
          Try again
        </CButton>
      </AuthLayout>
    );
  }
  const { property } = info.data;
  if (!property) {
    return <SharePasswordForm slug={slug} propertyName={info.data.property_name} onUnlocked={() => info.refetch()} />;
  }
  return <ShareDashboard slug={slug} property={property} embed={embed} />;
}
