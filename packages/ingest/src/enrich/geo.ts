// IP -> {country, region, city} from MaxMind-format databases. The country database ships in an
// npm package so a fresh install has countries with no download; an optional city database
// (GeoLite2-City, DB-IP City Lite or ip-location-db city mmdb) adds region and city. Readers open
// lazily on the first lookup so a server that never collects pays nothing.
import { createRequire } from "node:module";
import maxmind, { type Reader, type Response } from "maxmind";
import { LruMap } from "../lru.js";
import { isNonPublicIp, normalizeIp } from "./ip.js";

export interface GeoLocation {
  /** ISO 3166-1 alpha-2, "" when unknown. */
  country: string;
  region: string;
  city: string;
}

export interface GeoLookup {
  /** Opens the databases now; rejects if one is missing, so a bad path fails at startup. */
  ready(): Promise<void>;
  /**
   * Never rejects: an unreadable database degrades to unknown locations, not lost events. The
   * answer is frozen and may be shared with other callers.
   */
  lookup(ip: string): Promise<Readonly<GeoLocation>>;
}

export interface GeoOptions {
  /** Country mmdb; defaults to the one in @ip-location-db/geo-whois-asn-country-mmdb. */
  countryDbPath?: string;
  /** Optional city mmdb (the server reads its path from its configuration). */
  cityDbPath?: string;
  /** Addresses whose answers are remembered (and lookup cache entries per reader). */
  cacheSize?: number;
}

export const UNKNOWN_GEO: Readonly<GeoLocation> = Object.freeze({ country: "", region: "", city: "" });

export function defaultCountryDbPath(): string {
  const require = createRequire(import.meta.url);
  return require.resolve("@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb");
}

type Named = { names?: Record<string, string> };
/** The record shapes of the databases we accept; every field optional because each has a subset. */
interface GeoRecord {
  country_code?: string;
  state1?: string;
  city?: string | Named;
  country?: { iso_code?: string };
  subdivisions?: (Named & { iso_code?: string })[];
}

const text = (v: unknown, max = 120): string => (typeof v === "string" ? v.slice(0, max) : "");
const english = (n: Named | undefined): string => text(n?.names?.en);

/** Maps one database record to our fields, whichever of the supported formats it comes from. */
export function geoFromRecord(record: unknown): GeoLocation {
  if (typeof record !== "object" || record === null) return { ...UNKNOWN_GEO };
  const r = record as GeoRecord;
  const country = text(r.country_code ?? r.country?.iso_code, 3).toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) return { ...UNKNOWN_GEO };
  const region = r.subdivisions ? english(r.subdivisions[0]) : text(r.state1);
  const city = typeof r.city === "string" ? text(r.city) : english(r.city);
  return { country, region, city };
}

export function createGeoLookup(opts: GeoOptions = {}): GeoLookup {
  const cache = { max: opts.cacheSize ?? 10_000 };
  // A visitor's events come from one address: remembering the answer per address text skips
  // normalising, the private-range check and the record mapping on every event after the first.
  const answers = new LruMap<string, Readonly<GeoLocation>>(cache.max);
  let readers: Promise<Reader<Response>[]> | undefined;

  const open = (): Promise<Reader<Response>[]> => {
    if (readers === undefined) {
      // The city database comes first: it knows the country as well, and more.
      const paths = [opts.cityDbPath, opts.countryDbPath ?? defaultCountryDbPath()].filter((p): p is string => !!p);
      const opening = Promise.all(paths.map((p) => maxmind.open<Response>(p, { cache })));
      // A failed open (missing file) must not poison every later lookup with the same rejection.
      opening.catch(() => {
        if (readers === opening) readers = undefined;
      });
      readers = opening;
    }
    return readers;
  };

  return {
    async ready() {
      await open();
    },
    async lookup(raw) {
      const known = answers.get(raw);
      if (known !== undefined) return known;
      const ip = normalizeIp(raw);
      let answer = UNKNOWN_GEO;
      if (ip !== null && !isNonPublicIp(ip)) {
        let list: Reader<Response>[];
        try {
          list = await open();
        } catch {
          // Not remembered: the database may be readable on the next event.
          return UNKNOWN_GEO;
        }
        for (const reader of list) {
          const geo = geoFromRecord(reader.get(ip));
          if (geo.country !== "") {
            answer = Object.freeze(geo);
            break;
          }
        }
      }
      answers.set(raw, answer);
      return answer;
    },
  };
}
