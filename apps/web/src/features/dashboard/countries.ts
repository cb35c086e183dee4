// Country names and flags for ISO 3166-1 alpha-2 codes, all from npm packages bundled with the
// app (nothing is fetched from elsewhere): English names from i18n-iso-countries, flags from
// country-flag-icons' SVG files, which the build copies next to the app, so each flag is a
// same-origin image loaded only when shown.
import countries, { type LocaleData } from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";

countries.registerLocale(en as LocaleData);

// The packages are hoisted to the repository's node_modules (npm workspaces).
const FLAG_FILES = import.meta.glob<string>("../../../../../node_modules/country-flag-icons/3x2/*.svg", {
  eager: true,
  query: "?no-inline",
  import: "default",
});
const FLAGS = new Map<string, string>();
for (const [path, url] of Object.entries(FLAG_FILES)) {
  const code = /\/([A-Z]{2})\.svg$/.exec(path)?.[1];
  if (code) FLAGS.set(code, url);
}

export function countryName(code: string): string {
  const upper = code.toUpperCase();
  return countries.getName(upper, "en") ?? code;
}

/** The flag's same-origin URL, or null for codes without one. */
export function flagUrl(code: string): string | null {
  return FLAGS.get(code.toUpperCase()) ?? null;
}

/** ISO numeric (as in the world map's features) to alpha-2. */
export function numericToAlpha2(numeric: string | number): string | undefined {
  return countries.numericToAlpha2(numeric);
}
