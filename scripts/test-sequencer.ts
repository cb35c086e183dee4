// Vitest's file order: the slow files first, so the two workers end together instead of one
// walking the browser screenshots for six minutes after the other has run out of files. Vitest
// itself starts the longest files of the last run first when its cache (node_modules/.vite) has
// them, and otherwise the largest files first, which is all a fresh CI checkout gets: file size
// says little about time (a 300-line browser walk outlasts a 2 000-line unit test many times).
// So the files known to be slow start first, then the other browser and server tests (a real
// server, Chromium), then the three files with a process of their own, then the packages' and
// apps' own files (sharing a worker, most of them quick) at the end, where they fill the gaps as
// the last long files finish.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The slowest files in CI, slowest first (seconds on the 2-core CI machine, before the speed-ups). */
const SLOWEST = [
  "e2e/web/screenshots.test.ts", // ~450 s before its screens were loaded once for both themes
  "apps/server/src/visitors/visitors-tables.test.ts", // ~190 s
  "apps/server/src/cli/cli.test.ts",
  "e2e/web/billing.test.ts",
];

const rank = (spec: TestSpecification): number => {
  const id = spec.moduleId.replaceAll("\\", "/");
  const at = SLOWEST.findIndex((p) => id.endsWith(`/${p}`));
  if (at >= 0) return at;
  if (id.includes("/e2e/")) return SLOWEST.length;
  // The shared project's files (isolate: false) last and together: a worker keeps its process and
  // modules only while the next file in the queue shares too.
  return spec.project.config.isolate === false ? SLOWEST.length + 2 : SLOWEST.length + 1;
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    // Stable: within a rank, Vitest's own order.
    return base
      .map((spec, i) => ({ spec, i, r: rank(spec) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.spec);
  }
}
