// A country's flag (3:2, 1em high) with its name as the image's text; a neutral box when unknown.
import { countryName, flagUrl } from "../../lib/countries";

export function CountryFlag({ code, decorative = false }: { code: string | undefined; decorative?: boolean }) {
  const src = flagUrl(code);
  if (!src) return <span className="country-flag country-flag-unknown" aria-hidden="true" />;
  return (
    <img className="country-flag" src={src} alt={decorative ? "" : countryName(code)} width={18} height={12} loading="lazy" />
  );
}
