// `npm start`: bootstrap what is missing, then run the server in the foreground.
import { spawn } from "node:child_process";
import { ensureBuilds, ensureDependencies, ROOT, SERVER_BUNDLE } from "./bootstrap.mjs";

ensureDependencies();
ensureBuilds();
// A larger young generation than V8's default: the collector allocates a few kilobytes per event
// at thousands of events per second, and with the default every scavenge (every ~80 ms under load)
// copies the sessions and presence kept in memory. --expose-gc lets the server collect once when
// it is ready (see main.ts). e2e/harness.ts starts the server the same way.
const child = spawn(process.execPath, ["--max-semi-space-size=64", "--expose-gc", SERVER_BUNDLE], {
  cwd: ROOT,
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
