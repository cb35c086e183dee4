// `npm run lookout -- <command>`: administration from the shell. Works on the same stores as the
// server (LOOKOUT_DATA_DIR, DATABASE_URL) and refuses plainly while a server holds the embedded ones.

import { ProvisionError } from "../accounts/provision.js";
import { ConfigError, loadConfig } from "../config/config.js";
import { DataDirBusyError } from "../config/data-dir-lock.js";
import { createServices } from "../services.js";
import { COMMANDS, type Command, UsageError } from "./commands.js";

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(22)} ${c.usage}\n  ${"".padEnd(22)} ${c.summary}`);
  return `Usage: npm run lookout -- <command> [options]\n\nCommands:\n${lines.join("\n")}\n`;
}

async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command: Command | undefined = COMMANDS[name];
  if (!command) {
    process.stderr.write(`lookout: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const args = command.parse(rest);
  const config = loadConfig();
  const remote = command.withoutStore?.(args, config, (line) => process.stdout.write(`${line}\n`));
  if (remote) {
    await remote;
    return 0;
  }
  const services = await createServices(config, { print: (line) => process.stdout.write(`${line}\n`) });
  try {
    await command.run(services, args, (line) => process.stdout.write(`${line}\n`));
  } finally {
    await services.close();
  }
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`lookout: ${err.message}\n`);
      process.exit(2);
    }
    if (err instanceof ProvisionError || err instanceof ConfigError || err instanceof DataDirBusyError) {
      process.stderr.write(`lookout: ${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`lookout: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
