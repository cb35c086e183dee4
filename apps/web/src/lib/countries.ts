// Country names and flags for the dashboard and the Live View, from maintained packages and bundled at build time
// (nothing loads from another site): names from i18n-iso-countries, flags from
// country-flag-icons' SVG files, each emitted as its own small asset and fetched only when shown.
import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";

countries.registerLocale(en);

// The package's files, found through the workspace's hoisted node_modules.
const FLAG_FILES = import.meta.glob<string>("../../../../node_modules/country-flag-icons/3x2/*.svg", {
  eager: true,
  query: "?no-inline",
  import: "default",
});

const FLAGS = new Map<string, string>();
for (const [path, url] of Object.entries(FLAG_FILES)) {
  const code = /\/([A-Z]{2})\.svg$/.exec(path)?.[1];
  if (code) FLAGS.set(code, url);
}

/** The address of a country's flag image, or null for an unknown code. */
export function flagUrl(code: string | undefined): string | null {
  return code ? (FLAGS.get(code.toUpperCase()) ?? null) : null;
}

const names = new Map<string, string>();

/**
 * Where the package's official name is not what people say ("Russian Federation", "Islamic
 * Republic of Iran", "Taiwan, Province of China"), its first alias is used instead. Congo's two
 * states keep their official names: both have the alias "Congo".
 */
const PREFER_ALIAS = new Set(["CI", "CN", "CZ", "GM", "IR", "MK", "PS", "RU", "TW", "TZ", "US"]);

/** The English name of a country code, from i18n-iso-countries. */
export function countryName(code: string | undefined): string {
  if (!code) return "Unknown location";
  const upper = code.toUpperCase();
  let name = names.get(upper);
  if (name === undefined) {
    const [official, alias] = countries.getName(upper, "en", { select: "all" }) ?? [];
    name = (PREFER_ALIAS.has(upper) && alias) || official || upper;
    names.set(upper, name);
  }
  return name;
}

/** ISO 3166-1 numeric (as in Natural Earth's map) to alpha-2, or undefined. */
export function alpha2FromNumeric(numeric: string | number | undefined): string | undefined {
  return numeric === undefined ? undefined : countries.numericToAlpha2(numeric);
}
