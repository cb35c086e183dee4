// Settings › Shared links: the property's public, read-only dashboards at /share/{slug}. Each link
// with its address (copy), password yes/no, expiry and creation date; for admins "New link" (name,
// optional password and last day), the iframe snippet of a link without a password, and revoke
// after a confirmation (the server audits it, and the link stops at once). Read-only below admin.
import { cilLockLocked, cilPlus } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CAlert,
  CBadge,
  CButton,
  CCard,
  CCardBody,
  CFormInput,
  CListGroup,
  CListGroupItem,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from "@coreui/react";
import type { SharedLink } from "@lookout/schema";
import { useId, useState } from "react";
import { messageOf } from "../../../lib/http";
import { embedSnippet } from "../../sharing/api";
import { CopyButton } from "../../sharing/CopyButton";
import { LinkForm } from "../../sharing/LinkForm";
import { useCreateSharedLink, useRevokeSharedLink, useSharedLinks } from "../../sharing/queries";
import "../../sharing/sharing.css";
import type { SectionProps } from "../section-props";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function CopyLink({ link }: { link: SharedLink }) {
  const id = useId();
  return (
    <div className="share-link-url">
      <label htmlFor={id} className="visually-hidden">
        Address of {link.name}
      </label>
      <div className="d-flex align-items-center gap-2">
        <CFormInput
          id={id}
          readOnly
          value={link.url}
          size="sm"
          className="font-monospace share-link-input"
          onFocus={(e) => e.target.select()}
        />
        <CopyButton text={link.url} label={`Copy the address of ${link.name}`} />
      </div>
    </div>
  );
}

function EmbedCode({ code }: { code: string }) {
  return (
    <div className="mt-3">
      <p className="small mb-2">Paste this into a page to show the dashboard there (a compact layout, without the header).</p>
      <pre className="share-embed-code mb-2" data-testid="embed-snippet">
        <code>{code}</code>
      </pre>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <CopyButton text={code} label="Copy embed code" />
      </div>
    </div>
  );
}

function LinkRow({
  link,
  canEdit,
  siteName,
  onRevoke,
}: {
  link: SharedLink;
  canEdit: boolean;
  siteName: string;
  onRevoke: (link: SharedLink) => void;
}) {
  const [embed, setEmbed] = useState(false);
  return (
    <CListGroupItem className="share-link-row py-3" data-link={link.name}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h3 className="h6 mb-0 text-break me-auto">{link.name}</h3>
        {link.has_password ? (
          <CBadge className="share-badge bg-primary-subtle text-primary-emphasis border border-primary-subtle">
            <CIcon icon={cilLockLocked} size="sm" aria-hidden="true" />
            Password
          </CBadge>
        ) : (
          <CBadge className="share-badge bg-body-secondary text-body border">No password</CBadge>
        )}
        {link.expired && (
          <CBadge className="share-badge bg-danger-subtle text-danger-emphasis border border-danger-subtle">Expired</CBadge>
        )}
      </div>
      <CopyLink link={link} />
      <dl className="share-link-facts small text-body-secondary mb-0 mt-1">
        <div>
          <dt>{link.expired ? "Expired" : "Expires"}</dt>
          <dd>{link.expires_at ? dateTimeFormat.format(new Date(link.expires_at)) : "Never"}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{dateFormat.format(new Date(link.created_at))}</dd>
        </div>
      </dl>
      <div className="d-flex flex-wrap gap-2 mt-2">
        {!link.has_password && (
          <CButton color="secondary" variant="outline" size="sm" aria-expanded={embed} onClick={() => setEmbed((v) => !v)}>
            {embed ? "Hide embed code" : "Embed"}
          </CButton>
        )}
        {canEdit && (
          <CButton
            color="secondary"
            variant="outline"
            size="sm"
            onClick={() => onRevoke(link)}
            aria-label={`Revoke ${link.name}`}
          >
            Revoke
          </CButton>
        )}
      </div>
      {embed && <EmbedCode code={embedSnippet(link.url, `${siteName} statistics`)} />}
    </CListGroupItem>
  );
}

function RevokeModal({
  link,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  link: SharedLink;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const id = useId();
  return (
    <CModal visible onClose={onClose} aria-labelledby={`${id}-title`} alignment="center">
      <CModalHeader>
        <CModalTitle id={`${id}-title`}>Revoke “{link.name}”?</CModalTitle>
      </CModalHeader>
      <CModalBody>
        {error && (
          <CAlert color="danger" role="alert">
            {error}
          </CAlert>
        )}
        <p className="mb-0">
          The link stops working at once, for everyone who has it and in every page that embeds it. This cannot be undone; you can
          create a new link instead.
        </p>
      </CModalBody>
      <CModalFooter>
        <CButton color="secondary" variant="outline" onClick={onClose}>
          Cancel
        </CButton>
        <CButton color="danger" disabled={busy} onClick={onConfirm}>
          {busy ? "Revoking…" : "Revoke link"}
        </CButton>
      </CModalFooter>
    </CModal>
  );
}

export default function SharedLinksSection({ property, canEdit }: SectionProps) {
  const propertyId = property?.unique_id ?? "";
  const links = useSharedLinks(propertyId);
  const create = useCreateSharedLink(propertyId);
  const revoke = useRevokeSharedLink(propertyId);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<SharedLink | null>(null);
  const siteName = property?.website_url ? property.website_url.replace(/^https?:\/\//, "") : "Site";

  return (
    <div className="shared-links-section">
      <p className="text-body-secondary">
        A shared link opens a read-only dashboard of this property to anyone who has it, without an account: the statistics with
        the date picker and filters, and nothing else. Add a password to keep it to the people you tell, an end date to let it
        lapse; revoke it to stop it at once.
      </p>
      {canEdit &&
        (adding ? (
          <CCard className="mb-3">
            <CCardBody>
              <h3 className="h6">New shared link</h3>
              <LinkForm
                onCreate={async (body) => {
                  const r = await create.mutateAsync(body);
                  setCreated(r.url);
                  setAdding(false);
                }}
                onCancel={() => setAdding(false)}
              />
            </CCardBody>
          </CCard>
        ) : (
          <CButton
            color="primary"
            className="mb-3"
            onClick={() => {
              setCreated(null);
              setAdding(true);
            }}
          >
            <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
            New link
          </CButton>
        ))}
      {created && (
        <CAlert color="success" dismissible onClose={() => setCreated(null)} role="status">
          Link created: <span className="text-break">{created}</span>
        </CAlert>
      )}
      {links.isPending ? (
        <div className="py-4 text-center" role="status">
          <CSpinner size="sm" aria-label="Loading shared links" />
        </div>
      ) : links.error ? (
        <CAlert color="danger" role="alert" className="d-flex flex-wrap align-items-center gap-2">
          <span className="me-auto">{messageOf(links.error, "The shared links could not be loaded.")}</span>
          <CButton color="danger" variant="outline" size="sm" onClick={() => void links.refetch()}>
            Retry
          </CButton>
        </CAlert>
      ) : links.data.length === 0 ? (
        <p className="text-body-secondary mb-0">No shared links yet.</p>
      ) : (
        <CListGroup className="share-links" aria-label="Shared links">
          {links.data.map((l) => (
            <LinkRow key={l.id} link={l} canEdit={canEdit} siteName={siteName} onRevoke={setRevoking} />
          ))}
        </CListGroup>
      )}
      {revoking && (
        <RevokeModal
          link={revoking}
          busy={revoke.isPending}
          error={revoke.error ? messageOf(revoke.error, "The link could not be revoked. Please try again.") : null}
          onClose={() => {
            revoke.reset();
            setRevoking(null);
          }}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => setRevoking(null),
            })
          }
        />
      )}
    </div>
  );
}
