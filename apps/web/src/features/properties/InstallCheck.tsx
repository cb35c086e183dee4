// The install check: whether an event of this property has arrived and when the latest did,
// from the events the server received (it never fetches the user's site), with a re-check.
import { CButton, CSpinner } from "@coreui/react";
import { messageOf } from "../../lib/http";
import "./properties.css";
import { useInstallStatus } from "./queries";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "3 minutes ago", "yesterday", "just now". */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return "just now";
  const fmt = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return fmt.format(-Math.floor(seconds / size), unit);
  }
  return "just now";
}

export function InstallCheck({ uniqueId }: { uniqueId: string }) {
  const status = useInstallStatus(uniqueId);
  const { data } = status;
  return (
    <div className="d-flex flex-wrap align-items-center gap-2" data-testid="install-status">
      <span aria-live="polite">
        {status.error ? (
          <span className="text-danger">{messageOf(status.error, "The install check failed.")}</span>
        ) : !data ? (
          "Checking…"
        ) : data.received && data.last_event_at ? (
          <>
            <span className="badge bg-success-subtle text-success-emphasis me-2">Installed</span>
            Last event received{" "}
            <time dateTime={data.last_event_at} title={new Date(data.last_event_at).toLocaleString()}>
              {timeAgo(data.last_event_at)}
            </time>
            .
          </>
        ) : (
          <>
            <span className="badge bg-secondary-subtle text-secondary-emphasis me-2">Waiting</span>
            No event received yet.
          </>
        )}
      </span>
      <CButton color="secondary" variant="outline" size="sm" onClick={() => void status.refetch()} disabled={status.isFetching}>
        {status.isFetching ? <CSpinner size="sm" aria-label="Checking" /> : "Check again"}
      </CButton>
    </div>
  );
}
