// A submit button that is disabled and shows a spinner with its busy text while a call runs.
import { CButton, CSpinner } from "@coreui/react";

export function BusyButton({ busy, idleText, busyText }: { busy: boolean; idleText: string; busyText: string }) {
  return (
    <CButton type="submit" color="primary" className="px-4" disabled={busy}>
      {busy && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
      {busy ? busyText : idleText}
    </CButton>
  );
}
