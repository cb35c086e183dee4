// A copy-to-clipboard button that says how it went: "Copied", or, where the page has no
// clipboard access (plain http on another host, say), that the text must be selected by hand.
// The button's own text changes, so the row around it never reflows; a live region speaks it.
import { CButton } from "@coreui/react";
import { useState } from "react";

const SPOKEN = { idle: "", done: "Copied.", failed: "Copying is blocked here; select the text instead." } as const;
const SHOWN = { idle: "Copy", done: "Copied", failed: "Select it" } as const;

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<keyof typeof SPOKEN>("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <>
      <CButton
        color="secondary"
        variant="outline"
        size="sm"
        onClick={copy}
        aria-label={label}
        title={SPOKEN[copied] || label}
        className="flex-shrink-0 share-copy"
      >
        {SHOWN[copied]}
      </CButton>
      <span className="visually-hidden" aria-live="polite">
        {SPOKEN[copied]}
      </span>
    </>
  );
}
