// How the live feed is doing, in words: live, connecting, reconnecting, or paused with a quiet
// Reconnect button (SPEC.md §4: five retries, then we stop knocking).
import { CButton } from "@coreui/react";
import type { LiveSocketState, PauseReason } from "../../lib/live-socket";
import { useLiveConnection } from "./LiveProvider";

const PAUSED_BECAUSE: Record<PauseReason, string> = {
  retries_exhausted: "the server could not be reached",
  unauthenticated: "the server did not accept this session; sign in again if it persists",
  forbidden: "this account's live feed is not open to you",
  locked: "this account is locked over its plan's quota; an owner can upgrade on the Billing page",
};

export type ConnectionLook = "live" | "connecting" | "paused" | "off";

export function connectionLook(state: LiveSocketState): ConnectionLook {
  switch (state.kind) {
    case "open":
      return "live";
    case "connecting":
    case "waiting":
      return "connecting";
    case "paused":
      return "paused";
    case "stopped":
      return "off";
  }
}

function label(state: LiveSocketState): string {
  switch (state.kind) {
    case "open":
      return "Live";
    case "connecting":
      return state.retries === 0 ? "Connecting…" : "Reconnecting…";
    case "waiting":
      return "Reconnecting…";
    case "paused":
      return "Live updates paused";
    case "stopped":
      return "Offline";
  }
}

/** A status dot, a word, and when paused the reason and a Reconnect button. */
export function LiveStatus({ className = "" }: { className?: string }) {
  const { connection, reconnect } = useLiveConnection();
  const look = connectionLook(connection);
  return (
    <div className={`live-status d-flex flex-wrap align-items-center gap-2 small ${className}`} role="status">
      <span className={`live-dot live-dot-${look}`} aria-hidden="true" />
      <span className={look === "live" ? "fw-semibold" : "text-body-secondary"}>
        {label(connection)}
        {connection.kind === "paused" && <span className="visually-hidden">: {PAUSED_BECAUSE[connection.why]}</span>}
      </span>
      {connection.kind === "paused" && (
        <>
          <span className="text-body-secondary d-none d-sm-inline" aria-hidden="true">
            — {PAUSED_BECAUSE[connection.why]}
          </span>
          <CButton color="link" size="sm" className="p-0 align-baseline" onClick={reconnect}>
            Reconnect
          </CButton>
        </>
      )}
    </div>
  );
}
