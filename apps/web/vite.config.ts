// Builds the dashboard SPA into dist/, which the server serves with an SPA fallback. In `vite dev`
// the API calls and the live socket are proxied to a running server (LOOKOUT_API_URL); /logout
// stays with the dev server, where the app revokes the bearer token itself. The manifest
// (dist/.vite/manifest.json, never served: a dot directory) lets scripts/web-budget.mjs find the
// first route's chunks; `npm run build` then writes .br/.gz copies and checks that budget.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const api = process.env.LOOKOUT_API_URL ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, manifest: true },
  server: {
    proxy: {
      "/wp-json": api,
      "/static-api": api,
      "/api": { target: api, ws: true },
    },
  },
});
