// Layout state of the shell (SPEC.md §3): sidebarShow, sidebarUnfoldable and theme, in a
// context with a reducer. Only the theme outlives the page (see theme.ts).
import { createContext, type Dispatch, type ReactNode, useContext, useEffect, useReducer } from "react";
import { applyTheme, initialTheme, storeTheme, type Theme } from "./theme";

export interface LayoutState {
  sidebarShow: boolean;
  sidebarUnfoldable: boolean;
  theme: Theme;
}

type LayoutAction =
  | { type: "sidebarShow"; value: boolean }
  | { type: "toggleSidebar" }
  | { type: "toggleUnfoldable" }
  | { type: "theme"; value: Theme };

const defaultLayout: LayoutState = { sidebarShow: true, sidebarUnfoldable: false, theme: "light" };

function layoutReducer(state: LayoutState, action: LayoutAction): LayoutState {
  switch (action.type) {
    case "sidebarShow":
      return state.sidebarShow === action.value ? state : { ...state, sidebarShow: action.value };
    case "toggleSidebar":
      return { ...state, sidebarShow: !state.sidebarShow };
    case "toggleUnfoldable":
      return { ...state, sidebarUnfoldable: !state.sidebarUnfoldable };
    case "theme":
      return { ...state, theme: action.value };
  }
}

const LayoutContext = createContext<{ state: LayoutState; dispatch: Dispatch<LayoutAction> } | null>(null);

export function LayoutProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(layoutReducer, defaultLayout, (d) => ({ ...d, theme: initialTheme() }));
  useEffect(() => applyTheme(state.theme), [state.theme]);
  return <LayoutContext.Provider value={{ state, dispatch }}>{children}</LayoutContext.Provider>;
}

export function useLayout() {
  const ctx = useContext(LayoutContext);
  if (!ctx) throw new Error("useLayout outside LayoutProvider");
  return ctx;
}

/** Chooses a theme from the menu: the one place a theme is written to storage. */
export function useChooseTheme(): (theme: Theme) => void {
  const { dispatch } = useLayout();
  return (theme) => {
    storeTheme(theme);
    dispatch({ type: "theme", value: theme });
  };
}
