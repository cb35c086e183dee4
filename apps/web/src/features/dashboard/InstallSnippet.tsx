// Shown instead of the statistics while a property has recorded no event at all: the tracker
// snippet with the property's real unique_id, ready to copy, and links to its tracking options
// and to the properties (to add another). It checks again by itself.
import { cilCode } from "@coreui/icons";
import { CButton } from "@coreui/react";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { trackerSnippet } from "../properties/snippet";

const RECHECK_MS = 30_000;

export { trackerSnippet };

export function InstallSnippet({ uniqueId, site, onRecheck }: { uniqueId: string; site: string; onRecheck: () => void }) {
  const snippet = trackerSnippet(window.location.origin, uniqueId);
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");

  useEffect(() => {
    const t = setInterval(() => {
      if (document.visibilityState === "visible") onRecheck();
    }, RECHECK_MS);
    return () => clearInterval(t);
  }, [onRecheck]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  };

  return (
    <EmptyState
      icon={cilCode}
      title="Waiting for the first visit"
      lead={
        <>
          <strong className="text-break">{site}</strong> has not recorded any visits yet. Add this line to the{" "}
          <code>&lt;head&gt;</code> of every page of the site; statistics appear here as soon as the first pageview arrives.
        </>
      }
    >
      <pre className="install-code mx-auto text-start" data-testid="install-snippet">
        <code>{snippet}</code>
      </pre>
      <div className="d-flex flex-wrap justify-content-center align-items-center gap-2">
        <CButton color="primary" onClick={copy}>
          Copy snippet
        </CButton>
        <CButton color="secondary" variant="outline" onClick={onRecheck}>
          Check again
        </CButton>
        <span className="small text-body-secondary" aria-live="polite">
          {copied === "done" ? "Copied." : copied === "failed" ? "Copying is blocked here; select the text instead." : ""}
        </span>
      </div>
      <p className="small text-body-secondary mt-3 mb-0">
        Options (outbound links, downloads, hash routing) and an install check are under{" "}
        <Link to="/settings?section=tracking">Tracking code</Link>. Another website?{" "}
        <Link to="/settings?section=properties&add=1">Add property</Link>.
      </p>
    </EmptyState>
  );
}
