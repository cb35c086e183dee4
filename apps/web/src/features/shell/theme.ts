// The colour theme (SPEC.md §4): light, dark or auto, kept in localStorage under the CoreUI
// template's key. With nothing stored the system preference decides; auto follows it live.
// public/theme-init.js applies the same rule before the first paint.
const THEME_KEY = "coreui-free-react-admin-template-theme";
const THEMES = ["light", "dark", "auto"] as const;
export type Theme = (typeof THEMES)[number];

const DARK_QUERY = "(prefers-color-scheme: dark)";

function isTheme(v: unknown): v is Theme {
  return typeof v === "string" && (THEMES as readonly string[]).includes(v);
}

function storedTheme(): Theme | null {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return isTheme(v) ? v : null;
  } catch {
    return null;
  }
}

function systemPrefersDark(): boolean {
  return window.matchMedia(DARK_QUERY).matches;
}

/** The theme at start-up: the stored choice, else what the system prefers. */
export function initialTheme(): Theme {
  return storedTheme() ?? (systemPrefersDark() ? "dark" : "light");
}

export function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Blocked storage: the choice lasts for this page only.
  }
}

/** Sets CoreUI's `data-coreui-theme` for a theme and keeps auto in step with the system. */
export function applyTheme(theme: Theme): () => void {
  const root = document.documentElement;
  const paint = () => {
    root.dataset.coreuiTheme = theme === "auto" ? (systemPrefersDark() ? "dark" : "light") : theme;
  };
  paint();
  if (theme !== "auto") return () => {};
  const mql = window.matchMedia(DARK_QUERY);
  mql.addEventListener("change", paint);
  return () => mql.removeEventListener("change", paint);
}
