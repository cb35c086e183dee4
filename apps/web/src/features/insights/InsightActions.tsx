// The insight editor's header actions (InsightPage.tsx): favourite, CSV and PNG exports of the
// result, Duplicate and Delete. Controls that would change the insight show to writers only, and
// those of a saved insight only once it is saved; the page owns what each one does.
import { cilCopy, cilImage, cilSpreadsheet, cilStar, cilTrash } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton } from "@coreui/react";
import type { InsightAnswer, InsightKind } from "@lookout/schema";
import type { RefObject } from "react";
import { exportCsv, exportPng } from "./export-result";
import type { KindView } from "./kinds/types";

export interface InsightActionsProps {
  shortId: string | null;
  saved: { favourite: boolean } | null;
  canWrite: boolean;
  view: KindView<InsightKind>;
  /** The result shown, once there is one. */
  answer: InsightAnswer | undefined;
  /** The exported files' name. */
  exportName: string;
  resultBox: RefObject<HTMLDivElement | null>;
  duplicating: boolean;
  onToggleFavourite(): void;
  /** Whether the PNG could be made (a result without a chart cannot). */
  onPngDone(ok: boolean): void;
  onDuplicate(): void;
  onDelete(): void;
}

export function InsightActions({
  shortId,
  saved,
  canWrite,
  view,
  answer,
  exportName,
  resultBox,
  duplicating,
  onToggleFavourite,
  onPngDone,
  onDuplicate,
  onDelete,
}: InsightActionsProps) {
  return (
    <div className="d-flex gap-2 flex-wrap insight-actions">
      {shortId !== null && saved && canWrite && (
        <CButton color="secondary" variant="outline" size="sm" aria-pressed={saved.favourite} onClick={onToggleFavourite}>
          <CIcon icon={cilStar} className={saved.favourite ? "text-warning me-1" : "me-1"} />
          {saved.favourite ? "Favourite" : "Add to favourites"}
        </CButton>
      )}
      {view.toCsv && (
        <CButton
          color="secondary"
          variant="outline"
          size="sm"
          disabled={!answer}
          onClick={() => answer && exportCsv(view, answer, exportName)}
        >
          <CIcon icon={cilSpreadsheet} className="me-1" />
          CSV
        </CButton>
      )}
      <CButton
        color="secondary"
        variant="outline"
        size="sm"
        disabled={!answer}
        onClick={() => void exportPng(resultBox.current, exportName).then((ok) => onPngDone(ok))}
      >
        <CIcon icon={cilImage} className="me-1" />
        PNG
      </CButton>
      {shortId !== null && canWrite && (
        <CButton color="secondary" variant="outline" size="sm" disabled={duplicating} onClick={onDuplicate}>
          <CIcon icon={cilCopy} className="me-1" />
          Duplicate
        </CButton>
      )}
      {shortId !== null && canWrite && (
        <CButton color="danger" variant="outline" size="sm" onClick={onDelete}>
          <CIcon icon={cilTrash} className="me-1" />
          Delete
        </CButton>
      )}
    </div>
  );
}
