// Said when the avatar menu could not switch accounts (the server refused: the user was removed
// from it meanwhile, or it is gone): the server's words, and a way back.
import { CButton, CModal, CModalBody, CModalFooter, CModalHeader, CModalTitle } from "@coreui/react";
import { useId } from "react";

export default function SwitchFailedModal({ message, onClose }: { message: string; onClose: () => void }) {
  const id = useId();
  return (
    <CModal visible onClose={onClose} aria-labelledby={`${id}-title`} alignment="center">
      <CModalHeader>
        <CModalTitle id={`${id}-title`}>The account could not be opened</CModalTitle>
      </CModalHeader>
      <CModalBody>
        <p className="mb-0" role="alert">
          {message}
        </p>
      </CModalBody>
      <CModalFooter>
        <CButton color="primary" onClick={onClose}>
          Close
        </CButton>
      </CModalFooter>
    </CModal>
  );
}
