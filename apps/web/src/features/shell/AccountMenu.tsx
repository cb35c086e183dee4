// The header's avatar menu (SPEC.md §2): who is signed in, the accounts they belong to with their
// role in each (choosing one switches the current account: features/accounts/use-switch-account),
// "Create account", shortcuts, and Logout, a full-page navigation to /logout (SPEC.md §7). When
// the stored account is no longer one of the user's, it opens one that is.
import { cilAccountLogout, cilCheckAlt, cilCreditCard, cilPeople, cilPlus, cilSettings } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CBadge,
  CDropdown,
  CDropdownDivider,
  CDropdownHeader,
  CDropdownItem,
  CDropdownMenu,
  CDropdownToggle,
} from "@coreui/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { CustomerAvatar } from "../../components/CustomerAvatar";
import { messageOf } from "../../lib/http";
import { useSwitchAccount } from "../accounts/use-switch-account";
import { useSignedInSession } from "../auth/session";
import { useMe } from "../me/queries";
import { ROLE_LABEL } from "../team/member-rules";
import "./account-menu.css";

// Modals load when first needed: the header is part of every first load (DESIGN.md §8's budget).
const CreateAccountModal = lazy(() => import("../accounts/CreateAccountModal"));
const SwitchFailedModal = lazy(() => import("./SwitchFailedModal"));

const SHORTCUTS = [
  { to: "/settings", label: "Settings", icon: cilSettings },
  { to: "/team", label: "Team", icon: cilPeople },
  { to: "/billing", label: "Billing", icon: cilCreditCard },
];

export function AccountMenu() {
  const { email, accountId } = useSignedInSession();
  const me = useMe();
  const switcher = useSwitchAccount();
  const [creating, setCreating] = useState(false);
  const accounts = me.data?.accounts ?? [];
  const current = accounts.find((a) => a.id === accountId);

  // The stored account is no longer the user's (they were removed, or it was deleted, since this
  // browser last used it): open one they still belong to rather than screens that are all refused.
  // Only on a settled answer, as a just-joined or just-created account may not be listed yet.
  const { switchTo } = switcher;
  const recovered = useRef<string | null>(null);
  const fallback = me.data && !me.isFetching && !current ? accounts[0] : undefined;
  useEffect(() => {
    if (!fallback || recovered.current === accountId) return;
    recovered.current = accountId;
    void switchTo(fallback.id);
  }, [fallback, accountId, switchTo]);

  return (
    <>
      <CDropdown variant="nav-item" placement="bottom-end">
        <CDropdownToggle className="py-0 pe-0" caret={false} aria-label="Account menu">
          <CustomerAvatar email={email} />
        </CDropdownToggle>
        {/* A list of links and buttons (a disclosure), not an ARIA menu: CoreUI's role="menu" would need menuitem children. */}
        <CDropdownMenu className="pt-0 account-menu" role="list">
          <CDropdownHeader className="bg-body-secondary text-body fw-semibold mb-2">
            <div>Signed in as</div>
            <div className="fw-normal text-truncate account-email">{email}</div>
            {current && <div className="fw-normal text-truncate account-email text-body-secondary">{current.name}</div>}
          </CDropdownHeader>
          <CDropdownHeader className="text-body-secondary small py-1">Accounts</CDropdownHeader>
          {accounts.map((a) => {
            const isCurrent = a.id === accountId;
            return (
              <CDropdownItem
                key={a.id}
                as="button"
                type="button"
                className="d-flex align-items-center gap-2 account-choice"
                aria-current={isCurrent ? "true" : undefined}
                disabled={switcher.isPending}
                onClick={() => {
                  if (!isCurrent) void switcher.switchTo(a.id);
                }}
              >
                <span className="account-check" aria-hidden="true">
                  {isCurrent && <CIcon icon={cilCheckAlt} />}
                </span>
                <span className="text-truncate flex-grow-1">{a.name}</span>
                <CBadge className="fw-normal border text-body bg-body-tertiary">{ROLE_LABEL[a.role]}</CBadge>
              </CDropdownItem>
            );
          })}
          <CDropdownItem as="button" type="button" className="d-flex align-items-center" onClick={() => setCreating(true)}>
            <CIcon icon={cilPlus} className="me-2" aria-hidden="true" />
            Create account
          </CDropdownItem>
          <CDropdownDivider />
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
      <Suspense fallback={null}>
        {creating && (
          <CreateAccountModal
            onClose={() => setCreating(false)}
            onCreated={(a) => {
              setCreating(false);
              void switcher.switchTo(a.id);
            }}
          />
        )}
        {switcher.error != null && (
          <SwitchFailedModal
            message={messageOf(switcher.error, "Check your connection and try again.")}
            onClose={() => switcher.reset()}
          />
        )}
      </Suspense>
    </>
  );
}
