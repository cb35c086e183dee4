// Vitest global setup: the browser and integration tests need the built web app and tracker.
// Rebuilds only what is stale, so `npx vitest run <file>` works straight from a checkout.
// @ts-expect-error plain ESM script without types
import { ensureBuilds } from "./bootstrap.mjs";

export default async function setup(): Promise<void> {
  ensureBuilds();
}
