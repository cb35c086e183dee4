// One Vitest run over the whole tree: colocated unit tests, integration tests on real engines,
// and browser tests (e2e/) that drive Debian's Chromium against the built server.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.{ts,tsx}", "e2e/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    globalSetup: ["./scripts/test-global-setup.ts"],
  },
});
