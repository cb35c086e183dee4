// `npm start`: the Lookout server. Loads configuration, opens the stores, creates the first owner
// on an empty store, serves HTTP, and drains cleanly on SIGTERM/SIGINT.
import { ensureOwner } from "./accounts/provision.js";
import { buildApp } from "./app.js";
import { startUsageRunner } from "./billing/usage-job.js";
import { ConfigError, loadConfig } from "./config/config.js";
import { DataDirBusyError } from "./config/data-dir-lock.js";
import { createDemoProperty, startDemoTraffic } from "./demo/demo-site.js";
import { guardProcess } from "./process-guard.js";
import { startReportRunner } from "./reports/report-job.js";
import { createServices } from "./services.js";
import { keepBackgroundThreadsLow } from "./thread-priority.js";

async function main(): Promise<void> {
  const config = loadConfig();
  const services = await createServices(config);
  const owner = await ensureOwner(services.meta, config);
  if (owner) process.stdout.write(`${owner.message}\n`);
  const origin = config.publicUrl ?? `http://localhost:${config.port}`;
  if (owner && config.demo) {
    const demo = await createDemoProperty(services, owner.accountId, origin);
    process.stdout.write(
      `Created the "Demo site" property (${demo.unique_id}) with 30 days of sample traffic; open ${origin}/demo/site\n`,
    );
  }
  const stopDemo = config.demo ? await startDemoTraffic(services, origin) : async () => {};
  const app = await buildApp(services);
  guardProcess(app.log);
  // Scheduled e-mail reports (reports/report-job.ts): the server runs jobs, the CLI never does.
  const reportRunner = startReportRunner(services, app.log);
  // The billing usage check (billing/usage-job.ts), with LOOKOUT_BILLING=stripe only.
  const usageRunner = startUsageRunner(services, app.log);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    try {
      await stopDemo();
      // Connections busy when closing began go idle once their request is answered; close them
      // then, or keep-alive clients would hold the server open until their timeout.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
      await app.close();
      clearInterval(reaper);
      await reportRunner.stop();
      await usageRunner?.stop();
      await services.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  await app.listen({ port: config.port, host: config.host });
  // Every thread has started by now (the store's, libuv's pool, V8's helpers).
  keepBackgroundThreadsLow();
  if (!config.publicUrl)
    app.log.warn(
      "LOOKOUT_PUBLIC_URL is not set: links in e-mails use the address the owner first signed in from (never a request's Host); set it in production",
    );
  // Opening the stores leaves a few hundred MB of dead buffers behind (PGlite's initdb instance and
  // file bundle, DuckDB's first catalog reads); an idle server allocates too little to ever collect
  // them. One full collection once ready returns them (started with --expose-gc: scripts/start.mjs).
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(`Lookout is running at http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}\n`);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirBusyError) {
    process.stderr.write(`lookout: ${err.message}\n`);
  } else {
    process.stderr.write(`lookout: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
