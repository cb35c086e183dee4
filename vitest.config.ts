// One Vitest run over the whole tree: colocated unit tests, integration tests on real engines,
// and browser tests (e2e/) that drive Debian's Chromium against the built server.
import { configDefaults, defineConfig } from "vitest/config";
import SlowFirstSequencer from "./scripts/test-sequencer.ts";

/**
 * Tests of pure modules (no store, server, browser or process-wide state) run without isolation:
 * a worker keeps its loaded modules from one file to the next instead of importing zod, the query
 * printer and React's helpers again for each of the ~70 files (their CPU 89 s -> 24 s, measured).
 */
const UNIT = [
  "packages/query/src/**/*.test.ts",
  "packages/schema/src/**/*.test.ts",
  "packages/ingest/src/**/*.test.ts",
  "apps/web/src/**/*.test.{ts,tsx}",
];
/** What it tests is which ECharts parts an import registers, so it needs a process of its own. */
const UNIT_ISOLATED = ["apps/web/src/components/charts/echarts-live.test.ts"];

/** Each project's options (projects do not extend the root: its global setup must run once). */
const shared = {
  testTimeout: 30_000,
  // expect.poll waits up to 10 s (Vitest's default is 1 s): a browser test's next screen comes
  // after a fetch and a render, which take longer than a second on two cores shared with the
  // other test file, a server and Chromium. A poll that passes returns as soon as it does.
  expect: { poll: { timeout: 10_000 } },
  hookTimeout: 120_000,
  pool: "forks",
} as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    globalSetup: ["./scripts/test-global-setup.ts"],
    // The slow files first, so both workers stay busy to the end (scripts/test-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          include: UNIT,
          exclude: [...configDefaults.exclude, ...UNIT_ISOLATED],
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: "integration",
          include: [
            "packages/*/src/**/*.test.ts",
            "apps/*/src/**/*.test.{ts,tsx}",
            "e2e/**/*.test.ts",
            "bench/**/*.test.ts",
          ],
          exclude: [...configDefaults.exclude, "**/dist/**", ...UNIT],
        },
      },
      { test: { ...shared, name: "unit-isolated", include: UNIT_ISOLATED } },
    ],
  },
});
