// The card a screen shows instead of its content: an icon, a title and a lead, then what the
// screen needs, all optional: the list of what a screen not built yet will show, or actions
// and anything else (a snippet to copy, a button).
import CIcon from "@coreui/icons-react";
import { CCard, CCardBody } from "@coreui/react";
import type { ReactNode } from "react";

export function EmptyState(props: { icon: string[]; title: string; lead: ReactNode; coming?: string[]; children?: ReactNode }) {
  return (
    <CCard className="empty-state">
      <CCardBody className="p-4 p-md-5 text-center">
        <div className="empty-state-icon mx-auto mb-3">
          <CIcon icon={props.icon} size="xl" aria-hidden="true" />
        </div>
        <h2 className="h5">{props.title}</h2>
        <p className="text-body-secondary mx-auto empty-state-lead">{props.lead}</p>
        {props.coming && (
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
        )}
        {props.children}
      </CCardBody>
    </CCard>
  );
}
