// The footer (SPEC.md §2, §9): the copyright line with the year 2025 and the powered-by line.
import { CFooter } from "@coreui/react";

export function AppFooter() {
  return (
    <CFooter className="px-4 flex-wrap gap-1">
      <div>
        <span className="fw-semibold">Lookout</span> <span>© 2025</span>
      </div>
      <div className="ms-sm-auto">Powered by Lookout</div>
    </CFooter>
  );
}
