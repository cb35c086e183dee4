// The embedded stores admit one process. A lock file in the data directory names the holder, so
// a second server or the CLI says so plainly instead of corrupting the stores or hanging.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

export class DataDirBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `the data directory ${dir} is in use by another Lookout process (pid ${pid}). ` +
        "Stop that process first, or point LOOKOUT_DATA_DIR elsewhere.",
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws DataDirBusyError. Returns the release function. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "lookout.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) throw new DataDirBusyError(dir, pid);
      // A stale lock left by a killed process: take it over.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}
