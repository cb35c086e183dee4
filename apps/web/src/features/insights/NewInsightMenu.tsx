// "New insight": a menu of every kind in the registry (KIND_VIEWS), each a link to a new insight
// of that kind (/product-analytics/insights/new?kind=<k>), with the kind's icon and one line of
// help. Links, so that each can be opened in a new tab.
import { cilChartLine, cilPlus } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CDropdown, CDropdownMenu, CDropdownToggle } from "@coreui/react";
import { INSIGHT_KINDS } from "@lookout/schema";
import { Link } from "react-router-dom";
import { KIND_VIEWS } from "./kinds";

export function NewInsightMenu() {
  return (
    <CDropdown placement="bottom-end">
      <CDropdownToggle color="primary" size="sm" className="new-insight-toggle">
        <CIcon icon={cilPlus} className="me-1" />
        New insight
      </CDropdownToggle>
      {/* A list of links, not an ARIA menu (CoreUI's role="menu" would need menuitem children); CoreUI wraps each child in its own li. */}
      <CDropdownMenu className="new-insight-menu" role="list">
        {INSIGHT_KINDS.map((kind) => {
          const view = KIND_VIEWS[kind];
          return (
            <Link
              key={kind}
              className="dropdown-item d-flex gap-2 align-items-start text-wrap"
              to={`/product-analytics/insights/new?kind=${kind}`}
              data-kind={kind}
            >
              <CIcon icon={view.icon ?? cilChartLine} className="mt-1 flex-shrink-0" aria-hidden="true" />
              <span>
                <span className="d-block fw-semibold">{view.label}</span>
                <span className="d-block small text-body-secondary">{view.description}</span>
              </span>
            </Link>
          );
        })}
      </CDropdownMenu>
    </CDropdown>
  );
}
