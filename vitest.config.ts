// One Vitest run over the whole tree: colocated unit tests, integration tests on real engines,
// and browser tests (e2e/) that drive Debian's Chromium against the built server.
import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./scripts/test-sequencer.ts";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.{ts,tsx}", "e2e/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 30_000,
    // expect.poll waits up to 10 s (Vitest's default is 1 s): a browser test's next screen comes
    // after a fetch and a render, which take longer than a second on two cores shared with the
    // other test file, a server and Chromium. A poll that passes returns as soon as it does.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    globalSetup: ["./scripts/test-global-setup.ts"],
    // The slow files first, so both workers stay busy to the end (scripts/test-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
