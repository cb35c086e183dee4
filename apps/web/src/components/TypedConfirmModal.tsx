// A destructive action's confirmation: the user types the property's name before the button
// works (the rule for delete and reset). The server audits the action either way.
import {
  CAlert,
  CButton,
  CFormInput,
  CFormLabel,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
} from "@coreui/react";
import { type ReactNode, useId, useState } from "react";

export function TypedConfirmModal(props: {
  title: string;
  /** What will happen, in words. */
  children: ReactNode;
  /** The text to type (the property's name). */
  expected: string;
  action: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const [typed, setTyped] = useState("");
  const matches = typed.trim() === props.expected.trim();
  return (
    <CModal visible onClose={props.onClose} aria-labelledby={`${id}-title`} alignment="center">
      <CModalHeader>
        <CModalTitle id={`${id}-title`}>{props.title}</CModalTitle>
      </CModalHeader>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (matches && !props.busy) props.onConfirm();
        }}
      >
        <CModalBody>
          {props.error && (
            <CAlert color="danger" role="alert">
              {props.error}
            </CAlert>
          )}
          <div className="mb-3">{props.children}</div>
          <CFormLabel htmlFor={`${id}-confirm`}>
            Type <strong className="text-break">{props.expected}</strong> to confirm
          </CFormLabel>
          <CFormInput id={`${id}-confirm`} autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </CModalBody>
        <CModalFooter>
          <CButton color="secondary" variant="outline" onClick={props.onClose}>
            Cancel
          </CButton>
          <CButton type="submit" color="danger" disabled={!matches || props.busy}>
            {props.busy ? "Working…" : props.action}
          </CButton>
        </CModalFooter>
      </form>
    </CModal>
  );
}
