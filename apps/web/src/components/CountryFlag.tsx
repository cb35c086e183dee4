// A country's flag (3:2, 18 × 12 px) from the bundled flag files, with its name as the image's text
// unless the name is printed beside it; a neutral box when the country is unknown.
import { countryName, flagUrl } from "../lib/countries";
import "./country-flag.css";

export function CountryFlag({ code, decorative = false }: { code: string | undefined; decorative?: boolean }) {
  const src = flagUrl(code);
  if (!src) return <span className="country-flag country-flag-unknown" aria-hidden="true" />;
  return <img className="country-flag" src={src} alt={decorative ? "" : countryName(code)} width={18} height={12} />;
}
