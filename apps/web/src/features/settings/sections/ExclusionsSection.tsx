// Settings › Exclusions: excluded IP addresses and CIDR ranges (with "Add my current address"),
// excluded paths (`*` wildcards), allowed hostnames (`*.example.com`) and cookieless mode. One
// entry per line; the server parses each (its answer's details name the bad line) and stores
// the normalised form, which the collector applies from the next event on.
import { CAlert, CButton, CForm, CFormLabel, CFormSwitch, CFormText, CFormTextarea, CSpinner } from "@coreui/react";
import type { AdminProperty, PropertySettingsAnswer } from "@lookout/schema";
import { useId, useState } from "react";
import { messageOf } from "../../../lib/http";
import { getClientAddress } from "../../properties/api";
import { type FieldIssue, issuesOf, lineIssues } from "../../properties/field-errors";
import { useAdminProperty, useUpdateProperty } from "../../properties/queries";
import "../../properties/properties.css";
import type { SectionProps } from "../section-props";

type ListKey = "excluded_ips" | "excluded_paths" | "allowed_hostnames";

const LISTS: { key: ListKey; label: string; help: string; placeholder: string }[] = [
  {
    key: "excluded_ips",
    label: "Excluded IP addresses",
    help: "IPv4 or IPv6 addresses and CIDR ranges (203.0.113.0/24, 2001:db8::/32). Events from them are not counted.",
    placeholder: "203.0.113.7\n198.51.100.0/24",
  },
  {
    key: "excluded_paths",
    label: "Excluded paths",
    help: "Pages not counted. Start with /; * matches within one path segment, ** across segments (/admin/**).",
    placeholder: "/admin/**\n/preview/*",
  },
  {
    key: "allowed_hostnames",
    label: "Allowed hostnames",
    help: "When set, only pages on these hosts count. example.com also allows www.example.com; *.example.com allows its subdomains.",
    placeholder: "example.com\n*.example.com",
  },
];

const toText = (entries: readonly string[]) => entries.join("\n");
/** Lines as typed (so a line's index is the server's index), trailing blank lines left out. */
function toLines(text: string): string[] {
  const lines = text.split("\n");
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
  return lines;
}

function ReadOnly({ settings }: { settings: PropertySettingsAnswer }) {
  return (
    <dl>
      {LISTS.map((l) => (
        <div key={l.key} className="mb-3">
          <dt>{l.label}</dt>
          <dd className="mb-0">
            {settings[l.key].length === 0 ? (
              <span className="text-body-secondary">None</span>
            ) : (
              <ul className="list-unstyled mb-0 entry-list">
                {settings[l.key].map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      ))}
      <dt>Cookieless mode</dt>
      <dd>{settings.cookieless ? "On" : "Off"}</dd>
    </dl>
  );
}

function ExclusionsForm({ property }: { property: AdminProperty }) {
  const id = useId();
  const update = useUpdateProperty(property.unique_id);
  const [texts, setTexts] = useState<Record<ListKey, string>>({
    excluded_ips: toText(property.settings.excluded_ips),
    excluded_paths: toText(property.settings.excluded_paths),
    allowed_hostnames: toText(property.settings.allowed_hostnames),
  });
  const [cookieless, setCookieless] = useState(property.settings.cookieless);
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [addressBusy, setAddressBusy] = useState(false);

  const addMyAddress = async () => {
    setAddressBusy(true);
    try {
      const { ip } = await getClientAddress(property.unique_id);
      setTexts((t) => {
        const lines = toLines(t.excluded_ips).filter((l) => l.trim() !== "");
        return lines.includes(ip) ? t : { ...t, excluded_ips: toText([...lines, ip]) };
      });
      setSaved(false);
    } catch (err) {
      setError(messageOf(err, "Your address could not be read."));
    } finally {
      setAddressBusy(false);
    }
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setIssues([]);
    setError(null);
    setSaved(false);
    try {
      const p = await update.mutateAsync({
        settings: {
          cookieless,
          excluded_ips: toLines(texts.excluded_ips),
          excluded_paths: toLines(texts.excluded_paths),
          allowed_hostnames: toLines(texts.allowed_hostnames),
        },
      });
      // Show what is stored: the normalised entries, duplicates and blank lines gone.
      setTexts({
        excluded_ips: toText(p.settings.excluded_ips),
        excluded_paths: toText(p.settings.excluded_paths),
        allowed_hostnames: toText(p.settings.allowed_hostnames),
      });
      setCookieless(p.settings.cookieless);
      setSaved(true);
    } catch (err) {
      const found = issuesOf(err);
      setIssues(found);
      setError(
        found.length > 0
          ? "Some entries are not valid; see the lines named below."
          : messageOf(err, "The exclusions could not be saved."),
      );
    }
  };

  return (
    <CForm onSubmit={save} noValidate>
      {error && (
        <CAlert color="danger" role="alert">
          {error}
        </CAlert>
      )}
      {saved && (
        <CAlert color="success" role="status">
          Saved. The collector applies these settings from the next event on.
        </CAlert>
      )}
      {LISTS.map((l) => {
        const bad = lineIssues(issues, `settings.${l.key}`);
        const field = `${id}-${l.key}`;
        return (
          <div key={l.key} className="mb-4">
            <CFormLabel htmlFor={field}>{l.label}</CFormLabel>
            <CFormTextarea
              id={field}
              className="entry-list"
              rows={4}
              spellCheck={false}
              autoCapitalize="off"
              placeholder={l.placeholder}
              invalid={bad.length > 0}
              aria-describedby={`${field}-help${bad.length > 0 ? ` ${field}-errors` : ""}`}
              value={texts[l.key]}
              onChange={(e) => {
                setTexts((t) => ({ ...t, [l.key]: e.target.value }));
                setSaved(false);
              }}
            />
            {bad.length > 0 && (
              <ul id={`${field}-errors`} className="text-danger small mt-1 mb-1 ps-3" data-testid={`${l.key}-errors`}>
                {bad.map((b) => (
                  <li key={`${b.line}-${b.message}`}>{b.line === null ? b.message : `Line ${b.line + 1}: ${b.message}`}</li>
                ))}
              </ul>
            )}
            <CFormText id={`${field}-help`}>One entry per line. {l.help}</CFormText>
            {l.key === "excluded_ips" && (
              <div className="mt-2">
                <CButton color="secondary" variant="outline" size="sm" onClick={() => void addMyAddress()} disabled={addressBusy}>
                  {addressBusy ? <CSpinner size="sm" aria-label="Reading your address" /> : "Add my current address"}
                </CButton>
              </div>
            )}
          </div>
        );
      })}
      <div className="mb-4">
        <CFormSwitch
          id={`${id}-cookieless`}
          label="Cookieless mode"
          checked={cookieless}
          onChange={(e) => {
            setCookieless(e.target.checked);
            setSaved(false);
          }}
          aria-describedby={`${id}-cookieless-help`}
        />
        <CFormText id={`${id}-cookieless-help`}>
          Ignore the tracker's stored id on every page and count visitors by a hash of address and browser that changes daily.
        </CFormText>
      </div>
      <CButton type="submit" color="primary" disabled={update.isPending}>
        {update.isPending ? "Saving…" : "Save exclusions"}
      </CButton>
    </CForm>
  );
}

export default function ExclusionsSection({ property, canEdit }: SectionProps) {
  const details = useAdminProperty(property?.unique_id ?? "");
  if (!property) return null;
  if (details.error) {
    return <CAlert color="danger">{messageOf(details.error, "The settings could not be loaded.")}</CAlert>;
  }
  if (!details.data) {
    return (
      <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
        <CSpinner size="sm" aria-hidden="true" /> Loading the settings…
      </div>
    );
  }
  return canEdit ? <ExclusionsForm property={details.data} /> : <ReadOnly settings={details.data.settings} />;
}
