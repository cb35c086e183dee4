// StagedAppends on its own, with a commit the test releases by hand: flush() resolves only once
// every row staged before it is committed, however several waiters and the timer interleave.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventRow } from "@lookout/schema";
import { afterAll, describe, expect, it } from "vitest";
import { at, event } from "./fixtures.js";
import { StagedAppends } from "./staged-appends.js";

const dir = mkdtempSync(join(tmpdir(), "lookout-staged-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A commit that waits until the test lets it go, recording what it committed. */
function manualCommit() {
  const committed: string[][] = [];
  const pending: (() => void)[] = [];
  const commit = (rows: readonly EventRow[]) =>
    new Promise<void>((resolve) =>
      pending.push(() => {
        committed.push(rows.map((r) => r.path));
        resolve();
      }),
    );
  const release = async () => {
    const next = pending.shift();
    if (!next) throw new Error("no commit is running");
    next();
    // Let every waiter of that commit run before the test looks.
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { commit, committed, release, running: () => pending.length };
}

const rows = (...paths: string[]) => paths.map((path) => event({ property: "p", ts: at("2024-05-09 10:00:00"), path }));
let offset = 0;
const mark = () => ({ gen: 1, offset: ++offset });

describe("StagedAppends.flush()", () => {
  it("waits for a commit another waiter started after the one it was waiting for", async () => {
    const c = manualCommit();
    const staging = new StagedAppends(dir, c.commit, { flushMs: 60_000 });
    staging.stage(rows("/a"), mark());
    const first = staging.flush(); // starts the commit of /a
    staging.stage(rows("/b"), mark());
    let secondDone = false;
    const second = staging.flush().then(() => {
      secondDone = true;
    });
    await c.release(); // /a committed; `first` resumes first and starts /b's commit
    expect(c.running()).toBe(1);
    expect(secondDone).toBe(false); // /b is staged before `second` was called: not committed yet
    await c.release();
    await Promise.all([first, second]);
    expect(c.committed).toEqual([["/a"], ["/b"]]);
    expect(staging.staged).toBe(0);
  });

  it("commits what is staged when the timer fires, and a failed commit keeps its rows for the next", async () => {
    let fail = true;
    const committed: string[][] = [];
    const staging = new StagedAppends(
      dir,
      async (r) => {
        if (fail) throw new Error("disk full");
        committed.push(r.map((e) => e.path));
      },
      { flushMs: 5 },
    );
    staging.stage(rows("/a"), mark());
    await expect(staging.flush()).rejects.toThrow("disk full");
    expect(staging.staged).toBe(1);
    fail = false;
    staging.stage(rows("/b"), mark());
    await staging.flush();
    expect(committed).toEqual([["/a", "/b"]]);
    expect(staging.staged).toBe(0);
  });
});
