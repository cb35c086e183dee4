// The registry of insight kinds on the web (DESIGN.md §6): one view per kind of the InsightSpec
// union, in a record the type checker proves complete. A new kind: its folder beside trends/ and one
// line below.
import type { InsightKind } from "@lookout/schema";
import { pathsView } from "./paths/view";
import { funnelView } from "./funnel/view";
import { lifecycleView } from "./lifecycle/view";
import { retentionView } from "./retention/view";
import { stickinessView } from "./stickiness/view";
import { trendsView } from "./trends/view";
import type { KindView } from "./types";

export const KIND_VIEWS: { readonly [K in InsightKind]: KindView<K> } = {
  trends: trendsView,
  paths: pathsView,
  funnel: funnelView,
  retention: retentionView,
  lifecycle: lifecycleView,
  stickiness: stickinessView,
};

export function kindLabel(kind: string): string {
  return (KIND_VIEWS as Record<string, KindView<InsightKind> | undefined>)[kind]?.label ?? kind;
}
