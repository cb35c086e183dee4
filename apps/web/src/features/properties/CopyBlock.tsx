// A block of code to copy: the text (wrapped, never overflowing on a phone) and a copy button
// that says whether copying worked (a page without clipboard access asks to select instead).
import { CButton } from "@coreui/react";
import { useState } from "react";
import "./properties.css";

export function CopyBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <div className="copy-block mb-3">
      <pre className="copy-code mb-2" data-testid={testId} title={label}>
        <code>{code}</code>
      </pre>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <CButton color="secondary" variant="outline" size="sm" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </CButton>
        <span className="small text-body-secondary" aria-live="polite">
          {copied === "done" ? "Copied." : copied === "failed" ? "Copying is blocked here; select the text instead." : ""}
        </span>
      </div>
    </div>
  );
}
