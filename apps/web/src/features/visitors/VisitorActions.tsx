// An admin's actions on one visitor (DESIGN.md §7: admins and owners): download everything stored
// about this client id as JSON, and delete it after typing the client id. Both act on this client
// id only, never on the person's other devices, and the server audits both. After a deletion the
// page goes back to the visitors list, which says what was deleted.
import { cilCloudDownload, cilTrash } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CButton } from "@coreui/react";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { TypedConfirmModal } from "../../components/TypedConfirmModal";
import { saveFile } from "../../lib/download";
import { messageOf } from "../../lib/http";
import { safeFileName } from "../dashboard/csv";
import { exportVisitor } from "./api";
import { useDeleteVisitor } from "./queries";
import { VISITORS_LIST_PATH } from "./paths";

export interface DeletedNotice {
  deletedVisitor: { label: string; events: number };
}

export function VisitorActions({
  propertyId,
  clientId,
  label,
  otherDevices,
}: {
  propertyId: string;
  clientId: string;
  label: string;
  otherDevices: number;
}) {
  const navigate = useNavigate();
  const remove = useDeleteVisitor(propertyId);
  const [confirming, setConfirming] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const download = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const data = await exportVisitor(propertyId, clientId);
      const json = `${JSON.stringify(data, null, 2)}\n`;
      saveFile(new Blob([json], { type: "application/json" }), `${safeFileName("visitor", clientId) || "visitor"}.json`);
    } catch (err) {
      setExportError(messageOf(err, "The export could not be downloaded."));
    } finally {
      setExporting(false);
    }
  };

  const confirmDelete = () =>
    remove.mutate(clientId, {
      onSuccess: (events) => {
        const state: DeletedNotice = { deletedVisitor: { label, events } };
        navigate(VISITORS_LIST_PATH, { state });
      },
    });

  return (
    <div className="visitor-actions d-flex flex-wrap gap-2 align-items-start">
      <CButton color="secondary" variant="outline" size="sm" onClick={() => void download()} disabled={exporting}>
        <CIcon icon={cilCloudDownload} size="sm" className="me-1" aria-hidden="true" />
        {exporting ? "Exporting…" : "Export JSON"}
      </CButton>
      <CButton color="danger" variant="outline" size="sm" onClick={() => setConfirming(true)}>
        <CIcon icon={cilTrash} size="sm" className="me-1" aria-hidden="true" />
        Delete visitor
      </CButton>
      {exportError && (
        <CAlert color="danger" className="w-100 small py-2 mb-0" role="alert">
          {exportError}
        </CAlert>
      )}
      {confirming && (
        <TypedConfirmModal
          title="Delete this visitor"
          expected={clientId}
          action="Delete visitor"
          busy={remove.isPending}
          error={remove.error ? messageOf(remove.error, "The visitor could not be deleted.") : null}
          onConfirm={confirmDelete}
          onClose={() => {
            setConfirming(false);
            remove.reset();
          }}
        >
          <p className="mb-2">
            Every event of client id <code className="text-break">{clientId}</code> and its profile will be deleted for good. The
            dashboard stops counting them. This cannot be undone.
          </p>
          {otherDevices > 0 && (
            <p className="mb-0 small text-body-secondary">
              The {otherDevices === 1 ? "other device" : `${otherDevices} other devices`} of this person stay; delete{" "}
              {otherDevices === 1 ? "it" : "them"} from {otherDevices === 1 ? "its" : "their"} own page.
            </p>
          )}
        </TypedConfirmModal>
      )}
    </div>
  );
}
