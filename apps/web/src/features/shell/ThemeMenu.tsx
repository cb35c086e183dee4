// The header's theme menu (SPEC.md §2): Light, Dark, Auto. The toggle shows the current choice.
import { cilContrast, cilMoon, cilSun } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CDropdown, CDropdownItem, CDropdownMenu, CDropdownToggle } from "@coreui/react";
import { useChooseTheme, useLayout } from "./layout-store";
import type { Theme } from "./theme";

const CHOICES: { theme: Theme; label: string; icon: string[] }[] = [
  { theme: "light", label: "Light", icon: cilSun },
  { theme: "dark", label: "Dark", icon: cilMoon },
  { theme: "auto", label: "Auto", icon: cilContrast },
];

export function ThemeMenu() {
  const { state } = useLayout();
  const choose = useChooseTheme();
  const current = CHOICES.find((c) => c.theme === state.theme) ?? CHOICES[0]!;
  return (
    <CDropdown variant="nav-item" placement="bottom-end">
      <CDropdownToggle caret={false} aria-label={`Theme: ${current.label}`} title="Theme">
        <CIcon icon={current.icon} size="lg" aria-hidden="true" />
      </CDropdownToggle>
      {/* A list of buttons, not an ARIA menu (CoreUI's role="menu" would need menuitem children). */}
      <CDropdownMenu role="list">
        {CHOICES.map((c) => (
          <CDropdownItem
            key={c.theme}
            as="button"
            type="button"
            active={c.theme === state.theme}
            aria-current={c.theme === state.theme ? "true" : undefined}
            className="d-flex align-items-center"
            onClick={() => choose(c.theme)}
          >
            <CIcon className="me-2" icon={c.icon} size="lg" aria-hidden="true" />
            {c.label}
          </CDropdownItem>
        ))}
      </CDropdownMenu>
    </CDropdown>
  );
}
