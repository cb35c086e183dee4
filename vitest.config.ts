// One Vitest run over the whole tree: colocated unit tests, integration tests on real engines,
// and browser tests (e2e/) that drive Debian's Chromium against the built server.
import { configDefaults, defineConfig } from "vitest/config";
import SlowFirstSequencer from "./scripts/test-sequencer.ts";

/**
 * Test files share their workers (isolate: false): a worker keeps its loaded modules from one file
 * to the next instead of importing zod, Fastify, the stores, the query printer and Playwright again
 * for each of ~200 files. Measured apart: CPU 905 -> 647 s for the server's tests (imports 273 ->
 * 35 s), 89 -> 24 s for the pure packages' and the web app's; five browser files in one worker
 * import in 5 s instead of 8-11 s each. Every file passes either way: none mocks a module or
 * changes the environment, except the ones below.
 */
const SHARED = ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.{ts,tsx}", "e2e/**/*.test.ts", "bench/**/*.test.ts"];
/** Files that need a process of their own, and why. */
const OWN_PROCESS = [
  // It tests which ECharts parts an import registers: the registry is per process.
  "apps/web/src/components/charts/echarts-live.test.ts",
  // It mocks a module (vi.mock) for the whole file.
  "apps/server/src/auth/auth-hardening.test.ts",
  // It lowers the priority of the process's threads, which would slow the files after it.
  "apps/server/src/thread-priority.test.ts",
];

/** Each project's options (projects do not extend the root: its global setup must run once). */
const common = {
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
          ...common,
          name: "shared",
          include: SHARED,
          exclude: [...configDefaults.exclude, "**/dist/**", ...OWN_PROCESS],
          isolate: false,
        },
      },
      {
        test: {
          ...common,
          name: "isolated",
          include: OWN_PROCESS,
          exclude: [...configDefaults.exclude, "**/dist/**"],
        },
      },
    ],
  },
});
