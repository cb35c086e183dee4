// Small pieces the dashboard's panels share: the in-place error, loading skeletons, the help
// popover with a metric's definition, a dimension value shown as text (with a flag for
// countries), and a row's label that filters by its value and links out to it.
import { cilExternalLink, cilInfo, cilReload } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CButton, CPlaceholder, CPopover } from "@coreui/react";
import type { Dimension } from "@lookout/schema";
import { CountryFlag } from "../../components/CountryFlag";
import { countryName } from "../../lib/countries";
import { messageOf } from "../../lib/http";

/** A failed load, in place: the server's message first, else ours. */
export function PanelError({ error, what, onRetry }: { error: unknown; what: string; onRetry?: () => void }) {
  return (
    <CAlert color="danger" className="panel-error small mb-0 d-flex align-items-start gap-2" role="alert">
      <span className="flex-grow-1 text-break">{messageOf(error, `Could not load ${what}.`)}</span>
      {onRetry && (
        <CButton color="danger" variant="ghost" size="sm" className="py-0" onClick={onRetry}>
          <CIcon icon={cilReload} size="sm" className="me-1" aria-hidden="true" />
          Retry
        </CButton>
      )}
    </CAlert>
  );
}

export function ListSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div className="list-skeleton" aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on.
        <CPlaceholder key={i} as="div" animation="glow" className="d-flex justify-content-between gap-3 mb-2">
          <CPlaceholder xs={Math.max(3, 9 - i)} className="rounded" />
          <CPlaceholder xs={1} className="rounded" />
        </CPlaceholder>
      ))}
    </div>
  );
}

export function HelpPopover({ title, text }: { title: string; text: string }) {
  return (
    <CPopover title={title} content={text} placement="top" trigger={["hover", "focus"]}>
      <button type="button" className="help-button" aria-label={`About ${title}`}>
        <CIcon icon={cilInfo} size="sm" aria-hidden="true" />
      </button>
    </CPopover>
  );
}

/** A tracked value as text only (never HTML), a country with its bundled flag. */
export function ValueLabel({ dimension, value, emptyLabel }: { dimension: Dimension; value: string; emptyLabel: string }) {
  if (value === "") return <span className="fst-italic text-body-secondary">{emptyLabel}</span>;
  if (dimension === "country") {
    return (
      <>
        <CountryFlag code={value} decorative />
        <span className="text-truncate">{countryName(value)}</span>
      </>
    );
  }
  return <span className="text-truncate">{value}</span>;
}

/**
 * A breakdown row's value: a button that filters the dashboard by it, and a link to the page or
 * site it names where there is one (opened with no referrer, never followed by crawlers).
 */
export function RowLabel({
  dimension,
  value,
  emptyLabel,
  link,
  title,
  onFilter,
}: {
  dimension: Dimension;
  value: string;
  emptyLabel: string;
  link: string | null;
  title?: string;
  onFilter: () => void;
}) {
  return (
    <>
      <button type="button" className="breakdown-label" onClick={onFilter} title={title}>
        <ValueLabel dimension={dimension} value={value} emptyLabel={emptyLabel} />
      </button>
      {link && (
        <a
          href={link}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="breakdown-link"
          aria-label={`Open ${value} in a new tab`}
        >
          <CIcon icon={cilExternalLink} size="sm" aria-hidden="true" />
        </a>
      )}
    </>
  );
}
