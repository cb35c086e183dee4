// Settings › Tracking code: the property's snippet with a copy button, the tracker's options as
// checkboxes that rewrite it (the script's own data-* attributes), the install check (from
// received events), and copyable examples of custom events, revenue and identify.
import { CFormCheck } from "@coreui/react";
import { useState } from "react";
import { CopyBlock } from "../../properties/CopyBlock";
import { InstallCheck } from "../../properties/InstallCheck";
import {
  API_EXAMPLES,
  NO_OPTIONS,
  QUEUE_STUB,
  SNIPPET_ATTRIBUTES,
  type SnippetOptions,
  trackerSnippet,
} from "../../properties/snippet";
import type { SectionProps } from "../section-props";

const OPTION_LABELS: Record<keyof SnippetOptions, { label: string; help: string }> = {
  outbound: { label: "Outbound links", help: "Counts clicks on links to other sites as “Outbound Link: Click”." },
  downloads: { label: "File downloads", help: "Counts clicks on links to files (pdf, zip, …) as “File Download”." },
  hash: { label: "Hash routing", help: "For single-page apps that route with #: the fragment is part of the page path." },
  cookieless: {
    label: "Cookieless",
    help: "The browser stores nothing; visitors are counted by a daily hash. (Exclusions › Cookieless mode applies it server-side to every page.)",
  },
};

export default function TrackingSection({ property }: SectionProps) {
  const [options, setOptions] = useState<SnippetOptions>(NO_OPTIONS);
  if (!property) return null;
  const snippet = trackerSnippet(window.location.origin, property.unique_id, options);
  return (
    <>
      <h3 className="h6">Install</h3>
      <p>
        Add this line to the <code>&lt;head&gt;</code> of every page of the site.
      </p>
      <CopyBlock code={snippet} label="Tracking snippet" testId="tracking-snippet" />
      <fieldset className="mb-4">
        <legend className="h6">Options</legend>
        {(Object.keys(SNIPPET_ATTRIBUTES) as (keyof SnippetOptions)[]).map((k) => (
          <CFormCheck
            key={k}
            id={`snippet-${k}`}
            className="mb-2"
            checked={options[k]}
            onChange={(e) => setOptions((o) => ({ ...o, [k]: e.target.checked }))}
            label={
              <>
                {OPTION_LABELS[k].label} <code className="small">{SNIPPET_ATTRIBUTES[k]}</code>
                <span className="d-block small text-body-secondary">{OPTION_LABELS[k].help}</span>
              </>
            }
          />
        ))}
      </fieldset>
      <h3 className="h6">Install check</h3>
      <p className="text-body-secondary small mb-2">From the events this server received; it never visits your site.</p>
      <div className="mb-4">
        <InstallCheck uniqueId={property.unique_id} />
      </div>
      <h3 className="h6">Custom events, revenue and identify</h3>
      <p>
        Once the script is on the page, call <code>lookout(…)</code> from your own code. To call it before the script has loaded,
        add this line first; the calls wait and are sent once it loads:
      </p>
      <CopyBlock code={QUEUE_STUB} label="Queue stub" />
      {API_EXAMPLES.map((ex) => (
        <div key={ex.id}>
          <h4 className="h6 mb-1">{ex.title}</h4>
          <p className="small text-body-secondary mb-2">{ex.help}</p>
          <CopyBlock code={ex.code} label={`${ex.title} example`} />
        </div>
      ))}
    </>
  );
}
