// The header's avatar menu (SPEC.md §2): who is signed in, shortcuts, and Logout, a full-page
// navigation to /logout (SPEC.md §7).
import { cilAccountLogout, cilCreditCard, cilPeople, cilSettings } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CDropdown, CDropdownDivider, CDropdownHeader, CDropdownItem, CDropdownMenu, CDropdownToggle } from "@coreui/react";
import { Link } from "react-router-dom";
import { CustomerAvatar } from "../../components/CustomerAvatar";
import { useSignedInSession } from "../auth/session";

const SHORTCUTS = [
  { to: "/settings", label: "Settings", icon: cilSettings },
  { to: "/team", label: "Team", icon: cilPeople },
  { to: "/billing", label: "Billing", icon: cilCreditCard },
];

export function AccountMenu() {
  const { email } = useSignedInSession();
  return (
    <CDropdown variant="nav-item" placement="bottom-end">
      <CDropdownToggle className="py-0 pe-0" caret={false} aria-label="Account menu">
        <CustomerAvatar email={email} />
      </CDropdownToggle>
      {/* A list of links (a disclosure), not an ARIA menu: CoreUI's role="menu" would need menuitem children. */}
      <CDropdownMenu className="pt-0" role="list">
        <CDropdownHeader className="bg-body-secondary text-body fw-semibold mb-2">
          <div>Signed in as</div>
          <div className="fw-normal text-truncate account-email">{email}</div>
        </CDropdownHeader>
        {SHORTCUTS.map((s) => (
          <CDropdownItem key={s.to} as={Link} to={s.to}>
            <CIcon icon={s.icon} className="me-2" aria-hidden="true" />
            {s.label}
          </CDropdownItem>
        ))}
        <CDropdownDivider />
        <CDropdownItem href="/logout">
          <CIcon icon={cilAccountLogout} className="me-2" aria-hidden="true" />
          Logout
        </CDropdownItem>
      </CDropdownMenu>
    </CDropdown>
  );
}
