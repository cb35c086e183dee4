// Unsaved changes warned on leave: while `dirty`, a move to another page inside the app asks first
// (react-router's blocker, with a ConfirmModal), and closing or reloading the tab gets the
// browser's own warning (beforeunload). Changes of the query string on the same page (the spec in
// `?q=`) are edits, not leaving. `allowNext()` lets the next move through (after a save or delete).
import { useEffect, useRef } from "react";
import { useBlocker } from "react-router-dom";
import { ConfirmModal } from "../../components/ConfirmModal";

export function useLeaveGuard(dirty: boolean) {
  const allowed = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (allowed.current) return;
      e.preventDefault();
      // Older browsers show the warning only when returnValue is set.
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const modal =
    blocker.state === "blocked" ? (
      <ConfirmModal
        title="Leave without saving?"
        action="Leave"
        busy={false}
        error={null}
        onClose={() => blocker.reset()}
        onConfirm={() => blocker.proceed()}
      >
        <p className="mb-0">This insight has changes that are not saved. They are lost if you leave.</p>
      </ConfirmModal>
    ) : null;
  return {
    modal,
    allowNext: () => {
      allowed.current = true;
    },
  };
}
