// `npm start`: bootstrap what is missing, then run the server in the foreground.
import { spawn } from "node:child_process";
import { ensureBuilds, ensureDependencies, ROOT, SERVER_NODE_ARGS, serverEnv } from "./bootstrap.mjs";

ensureDependencies();
ensureBuilds();
// Node's flags and the environment: see SERVER_NODE_ARGS.
const child = spawn(process.execPath, SERVER_NODE_ARGS, {
  cwd: ROOT,
  env: serverEnv(),
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
