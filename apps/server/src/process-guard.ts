// Last line of defence for the server process: an error that escaped every callback's own catch.
// A rejected promise nobody awaited is logged and the server goes on (it failed one piece of work,
// not the process). An uncaught exception leaves the process in an unknown state, so it is logged
// with its cause and the process exits with CRASH_EXIT_CODE, which `npm start`'s supervisor
// (scripts/supervisor.mjs) answers by starting the server again.
import type { FastifyBaseLogger } from "fastify";

/** EX_SOFTWARE; scripts/supervisor.mjs restarts a server that exits with it. */
export const CRASH_EXIT_CODE = 70;

export function guardProcess(log: Pick<FastifyBaseLogger, "error" | "fatal">): void {
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason }, "unhandled promise rejection; the server goes on");
  });
  process.on("uncaughtException", (err, origin) => {
    log.fatal({ err, origin }, "uncaught exception; the server stops and its supervisor restarts it");
    process.exit(CRASH_EXIT_CODE);
  });
}
