// `npm start`: bootstrap what is missing, then run the server in the foreground under the
// supervisor, which starts it again if it crashes (scripts/supervisor.mjs).
import { ensureBuilds, ensureDependencies, ROOT, SERVER_NODE_ARGS, serverEnv } from "./bootstrap.mjs";
import { supervise } from "./supervisor.mjs";

ensureDependencies();
ensureBuilds();
// Node's flags and the environment: see SERVER_NODE_ARGS.
const code = await supervise({ command: process.execPath, args: SERVER_NODE_ARGS, cwd: ROOT, env: serverEnv() });
process.exit(code);
