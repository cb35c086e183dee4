// The honest placeholder of a screen that is not built yet: what it will show, and no numbers.
import CIcon from "@coreui/icons-react";
import { CCard, CCardBody } from "@coreui/react";
import type { ReactNode } from "react";

export function EmptyState(props: { icon: string[]; title: string; lead: ReactNode; coming: string[] }) {
  return (
    <CCard className="empty-state">
      <CCardBody className="p-4 p-md-5 text-center">
        <div className="empty-state-icon mx-auto mb-3">
          <CIcon icon={props.icon} size="xl" aria-hidden="true" />
        </div>
        <h2 className="h5">{props.title}</h2>
        <p className="text-body-secondary mx-auto empty-state-lead">{props.lead}</p>
        <ul className="list-unstyled d-inline-block text-start mb-0 empty-state-list">
          {props.coming.map((item) => (
            <li key={item} className="d-flex gap-2 mb-2">
              <span className="text-primary" aria-hidden="true">
                ○
              </span>
              <span>{item}</span>
            </li>
          ))}
        </ul>
      </CCardBody>
    </CCard>
  );
}
