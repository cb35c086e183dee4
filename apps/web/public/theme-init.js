// Applies the stored colour theme before the first paint, so a dark-theme user never sees a white
// flash. It is a file, not an inline script, because the CSP forbids inline scripts. The key and
// rules match src/features/shell/theme.ts.
(() => {
  let stored = null;
  try {
    stored = localStorage.getItem("coreui-free-react-admin-template-theme");
  } catch {
    // Storage can be blocked (privacy settings); the system preference still applies.
  }
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  const mode = stored === "light" || stored === "dark" ? stored : systemDark ? "dark" : "light";
  document.documentElement.setAttribute("data-coreui-theme", mode);
})();
