// The names an insight spec refers to (issue #23): every event name and custom-prop key, each with
// the path of the field that holds it, so that a server which knows a property's events can refuse
// a spec naming one it has never received with a field-level message (`series.1.event: …`). Pure:
// what counts as known is the caller's (apps/server insights/vocabulary.ts).
import { parseFiltersLenient } from "../filter-grammar.js";
import { isPropDimension, propKey } from "../query.js";
import type { EventSelector } from "./common.js";
import type { InsightSpec } from "./index.js";

export type SpecPath = (string | number)[];

export interface SpecReferences {
  /** Event names (selectors, a paths anchor that names a custom event). `pageview` is left out: always known. */
  events: { path: SpecPath; name: string }[];
  /** Custom-prop keys (a `prop:` filter or breakdown, a math over a prop). */
  props: { path: SpecPath; key: string }[];
}

/** The event always known: every property's tracker sends it, before any traffic too. */
export const ALWAYS_KNOWN_EVENT = "pageview";

export function specReferences(spec: InsightSpec): SpecReferences {
  const refs: SpecReferences = { events: [], props: [] };
  const filters = (raw: string | undefined, path: SpecPath) => {
    for (const f of parseFiltersLenient(raw)) {
      if (isPropDimension(f.dimension)) refs.props.push({ path, key: propKey(f.dimension) });
    }
  };
  const selector = (s: EventSelector, path: SpecPath) => {
    if (s.event !== ALWAYS_KNOWN_EVENT) refs.events.push({ path: [...path, "event"], name: s.event });
    filters(s.filters, [...path, "filters"]);
  };
  const breakdown = (b: string | undefined) => {
    if (b !== undefined && isPropDimension(b)) refs.props.push({ path: ["breakdown"], key: propKey(b) });
  };
  filters(spec.filters, ["filters"]);
  switch (spec.kind) {
    case "trends":
      for (const [i, s] of spec.series.entries()) {
        selector(s, ["series", i]);
        if (s.math_property) refs.props.push({ path: ["series", i, "math_property"], key: s.math_property });
      }
      breakdown(spec.breakdown);
      break;
    case "funnel":
      for (const [i, s] of spec.steps.entries()) selector(s, ["steps", i]);
      for (const [i, x] of spec.exclusions.entries()) selector(x, ["exclusions", i]);
      breakdown(spec.breakdown);
      break;
    case "retention":
      selector(spec.start_event, ["start_event"]);
      selector(spec.return_event, ["return_event"]);
      break;
    case "lifecycle":
    case "stickiness":
      selector(spec.event, ["event"]);
      break;
    case "paths":
      // A point is a custom event's name with type "event"; with "all" it is one unless it is a
      // page path (they start with "/"); with "pageview" it is a page path, not checked here.
      for (const key of ["start", "end"] as const) {
        const point = spec[key];
        if (point === undefined || spec.type === "pageview" || (spec.type === "all" && point.startsWith("/"))) continue;
        refs.events.push({ path: [key], name: point });
      }
      break;
  }
  return refs;
}
