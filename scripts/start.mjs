// `npm start`: bootstrap what is missing, then run the server in the foreground.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ensureBuilds, ensureDependencies, ROOT } from "./bootstrap.mjs";

ensureDependencies();
ensureBuilds();
const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "apps/server/src/main.ts")], {
  cwd: ROOT,
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
