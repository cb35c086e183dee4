// The date range's keyboard shortcuts (state/date-keys.ts) and their help: a "Keyboard shortcuts"
// button, also opened with `?`, showing a non-modal popover that lists them. The keys change the
// shared range exactly as the picker does, so the dashboard's URL follows the same way.
import { cilKeyboard } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton } from "@coreui/react";
import { useEffect, useId, useRef, useState } from "react";
import { ignoresKey, rangeForKey, SHORTCUTS } from "../state/date-keys";
import { useDateRange } from "../state/date-range";
import "./shortcuts-help.css";

export function ShortcutsHelp() {
  const { range, today, choosePreset, chooseCustom } = useDateRange();
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // The listener reads the latest range through a ref, so it is added once rather than per range.
  const latest = useRef({ range, today, choosePreset, chooseCustom });
  latest.current = { range, today, choosePreset, chooseCustom };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (ignoresKey(e)) return;
      if (e.key === "?") {
        e.preventDefault();
        setOpen((was) => !was);
        return;
      }
      const { range: r, today: day, choosePreset: preset, chooseCustom: custom } = latest.current;
      const action = rangeForKey(e.key, { preset: r.preset, from: r.firstDay, to: r.lastDay }, day);
      if (!action) return;
      // An arrow would otherwise also scroll the page.
      e.preventDefault();
      if ("preset" in action) preset(action.preset);
      else custom(action.from, action.to);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // Escape or a click outside closes the popover, as a menu's would.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!panel.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      // Focus goes back to the button only from inside the popover, never taken from elsewhere.
      if (panel.current?.contains(document.activeElement)) button.current?.focus();
      setOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("keydown", onEscape);
    return () => {
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("keydown", onEscape);
    };
  }, [open]);

  return (
    <div className="shortcuts-help">
      <CButton
        ref={button}
        color="secondary"
        variant="outline"
        aria-expanded={open}
        aria-controls={id}
        title="Keyboard shortcuts (?)"
        onClick={() => setOpen((was) => !was)}
      >
        <CIcon icon={cilKeyboard} size="lg" aria-hidden="true" />
        <span className="visually-hidden">Keyboard shortcuts</span>
      </CButton>
      {open && (
        <div ref={panel} id={id} role="dialog" aria-labelledby={`${id}-title`} className="popover shortcuts-help-popover">
          <h2 id={`${id}-title`} className="popover-header h6 mb-0">
            Keyboard shortcuts
          </h2>
          <div className="popover-body">
            <dl className="mb-0">
              {SHORTCUTS.map((s) => (
                <div key={s.label} className="d-flex gap-2 py-1">
                  <dt className="shortcuts-help-keys">
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && " "}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd className="mb-0">{s.label}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      )}
    </div>
  );
}
