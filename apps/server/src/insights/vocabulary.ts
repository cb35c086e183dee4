// The names a property knows (issue #23): a spec that names an event or a custom-prop key the
// property's events have never carried is refused before it runs or is saved, with the field's path
// (`series.1.event: no event "signupp" in this property`), in the shape of every other spec error
// (a ZodError: `{message, code: "invalid_request", details: [{path, message}]}`).
//
// Known: `pageview` always; the event names and prop keys of the property's stored events (all
// time); the built-in dimensions are not names (the schema checks them). A property with no events
// at all accepts any name: one builds a funnel before the first visit arrives. A property with more
// names (or keys) than VOCABULARY_LIMIT is not checked for them.
//
// Cost: each set is read once (through the account's fair queue) and kept per property; a spec
// whose names are all known costs no read. A name not in the kept set is looked up again only when
// the set is older than `recheckAfterMs` or events were stored since (the collector's signal), so
// a name sent a moment ago is accepted, and a stream of bad specs costs at most one read per
// property and interval. The prop keys are read only for a spec that names a prop.
import { type InsightSpec, type SpecPath, specReferences } from "@lookout/schema";
import { type PropertyRow, readEventNames, readPropKeys } from "@lookout/storage";
import { LRUCache } from "lru-cache";
import { ZodError } from "zod";
import type { EventReads } from "../event-reads/fair-reads.js";
import type { Presence } from "../live/presence.js";

type Kind = "names" | "keys";
type Vocabulary = Set<string> | null;

interface Entry {
  value: Promise<Vocabulary>;
  at: number;
  version: number;
}

export interface VocabularyOptions {
  /** A set older than this is read again before a name not in it is refused (default 10 s). */
  recheckAfterMs?: number;
  /** Sets kept at most (default 2000: two per property). */
  maxEntries?: number;
  /** The longest a set is kept (default 10 minutes). */
  maxAgeMs?: number;
  now?: () => number;
}

export interface SpecVocabulary {
  /**
   * Resolves when every event and prop the spec names is known on the property; else rejects with a
   * ZodError listing each unknown one, its path under `prefix` (the spec's place in the body).
   */
  check(property: PropertyRow, spec: InsightSpec, prefix?: SpecPath): Promise<void>;
}

export function createSpecVocabulary(
  reads: EventReads,
  presence?: Pick<Presence, "onStored">,
  opts: VocabularyOptions = {},
): SpecVocabulary {
  const recheckAfterMs = opts.recheckAfterMs ?? 10_000;
  const now = opts.now ?? Date.now;
  const versions = new Map<string, number>();
  const entries = new LRUCache<string, Entry>({
    max: opts.maxEntries ?? 2000,
    ttl: opts.maxAgeMs ?? 10 * 60_000,
    perf: { now },
    ttlResolution: 0,
  });
  presence?.onStored((ids) => {
    for (const id of ids) versions.set(id, (versions.get(id) ?? 0) + 1);
  });

  function load(property: PropertyRow, kind: Kind, again: boolean): Promise<Vocabulary> {
    const id = `${kind}\u0000${property.unique_id}`;
    const version = versions.get(property.unique_id) ?? 0;
    const hit = entries.get(id);
    if (hit && !(again && (hit.version !== version || now() - hit.at >= recheckAfterMs))) return hit.value;
    const reader = reads.of(property);
    const entry: Entry = {
      value: kind === "names" ? readEventNames(reader, property.unique_id) : readPropKeys(reader, property.unique_id),
      at: now(),
      version,
    };
    entries.set(id, entry);
    // A failed read is not kept (if still the current one): the next check reads again.
    entry.value.catch(() => {
      if (entries.peek(id, { allowStale: true }) === entry) entries.delete(id);
    });
    return entry.value;
  }

  return {
    async check(property, spec, prefix = []) {
      const refs = specReferences(spec);
      if (refs.events.length === 0 && refs.props.length === 0) return;
      const unknown = async (again: boolean) => {
        const names = await load(property, "names", again);
        // No events at all: nothing to check against (a property set up before its traffic).
        if (names !== null && names.size === 0) return [];
        const keys = refs.props.length > 0 ? await load(property, "keys", again) : null;
        return [
          ...refs.events
            .filter((r) => names !== null && !names.has(r.name))
            .map((r) => ({ path: r.path, message: `no event "${r.name}" in this property${suggestion(r.name, names)}` })),
          ...refs.props
            .filter((r) => keys !== null && !keys.has(r.key))
            .map((r) => ({ path: r.path, message: `no prop "${r.key}" in this property's events${suggestion(r.key, keys)}` })),
        ];
      };
      let problems = await unknown(false);
      if (problems.length > 0) problems = await unknown(true);
      if (problems.length === 0) return;
      throw new ZodError(
        problems.map((x) => ({ code: "custom" as const, path: [...prefix, ...x.path], message: x.message, input: undefined })),
      );
    },
  };
}

/** `; did you mean "x"?` for the one known name within two edits of `name`, else "". */
function suggestion(name: string, known: ReadonlySet<string> | null): string {
  if (known === null || known.size > 2000) return "";
  let best: string | null = null;
  let bestDistance = 3;
  for (const k of known) {
    if (Math.abs(k.length - name.length) >= bestDistance) continue;
    const dist = editDistance(name, k, bestDistance);
    if (dist < bestDistance) [best, bestDistance] = [k, dist];
  }
  return best === null ? "" : `; did you mean "${best}"?`;
}

/** Levenshtein distance, or `cap` once it is certain to be at least `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let low = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      row.push(v);
      low = Math.min(low, v);
    }
    if (low >= cap) return cap;
    prev = row;
  }
  return Math.min(prev[b.length] as number, cap);
}
