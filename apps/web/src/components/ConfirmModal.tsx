// A confirmation before an action that cannot be undone but needs nothing typed (revoking an API
// key or a session): what will happen in words, Cancel, and the action's own button.
import { CAlert, CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle } from "@coreui/react";
import { type ReactNode, useId } from "react";

export function ConfirmModal(props: {
  title: string;
  children: ReactNode;
  action: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const id = useId();
  return (
    <CModal visible onClose={props.onClose} aria-labelledby={`${id}-title`} alignment="center">
      <CModalHeader>
        <CModalTitle id={`${id}-title`}>{props.title}</CModalTitle>
      </CModalHeader>
      <CModalBody>
        {props.error && (
          <CAlert color="danger" role="alert">
            {props.error}
          </CAlert>
        )}
        {props.children}
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" variant="outline" onClick={props.onClose}>
          Cancel
        </CButton>
        <CButton color="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.busy ? "Working…" : props.action}
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
