// The ingest log: a durable append-only log in front of the embedded event store, so that the
// collector can answer 202 after one write + fdatasync of a compact record instead of a DuckDB
// transaction. DuckDB's cost per transaction is mostly fixed (on the 2-core box ~8 ms for a few
// rows of the 40-column events table, against ~30 µs a row), so the rows reach DuckDB later in
// transactions of thousands (duckdb-batches.ts), each recording in the same transaction how far
// into the log it has applied. On open, whatever the log holds past that mark is applied first;
// a record cut short by a crash was never acknowledged and is skipped.
//
// Layout: a folder of files `<generation>.log`, each a run of records [u32 length][u32 checksum]
// [v8-serialized EventRow[]]. Appends go to the newest file; past `rotateBytes` the next append
// starts a new one, and a file is deleted once a later file's mark has been applied.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { type FileHandle, open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { EventRow } from "@lookout/schema";

/** A position in the log: everything before `offset` in file `gen` (and every earlier file). */
export interface LogMark {
  gen: number;
  offset: number;
}

export interface LogRecord {
  rows: EventRow[];
  /** The mark just past this record. */
  end: LogMark;
}

const HEADER_BYTES = 8;
const DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024;
const FILE = /^(\d{10})\.log$/;
const fileName = (gen: number) => `${String(gen).padStart(10, "0")}.log`;
const checksum = (payload: Uint8Array) => createHash("md5").update(payload).digest().readUInt32LE(0);

/**
 * A batch as the log stores it: v8's serializer, the one postMessage uses, so that the server
 * encodes a batch once for both the log and the store's thread (duckdb-thread-store.ts).
 */
export const encodeRows = (rows: readonly EventRow[]): Buffer => serialize(rows);
export const decodeRows = (payload: Uint8Array): EventRow[] => deserialize(payload) as EventRow[];

export const formatMark = (m: LogMark) => `${m.gen}:${m.offset}`;
export function parseMark(text: string | undefined): LogMark | null {
  const m = /^(\d+):(\d+)$/.exec(text ?? "");
  return m ? { gen: Number(m[1]), offset: Number(m[2]) } : null;
}

function generations(dir: string): number[] {
  const gens: number[] = [];
  if (!existsSync(dir)) return gens;
  for (const f of readdirSync(dir)) {
    const m = FILE.exec(f);
    if (m) gens.push(Number(m[1]));
  }
  return gens.sort((a, b) => a - b);
}

/** The whole records of one file from `offset` on; stops at the first torn or damaged one. */
function* records(buf: Buffer, gen: number, offset: number): Generator<LogRecord> {
  let at = offset;
  while (at + HEADER_BYTES <= buf.length) {
    const length = buf.readUInt32LE(at);
    const end = at + HEADER_BYTES + length;
    if (end > buf.length) return;
    const payload = buf.subarray(at + HEADER_BYTES, end);
    if (checksum(payload) !== buf.readUInt32LE(at + 4)) return;
    yield { rows: decodeRows(payload), end: { gen, offset: end } };
    at = end;
  }
}

/**
 * The records of the log in `dir` past `applied` (all of them without a mark), oldest first, and
 * the generation a new log file should take.
 */
export async function readIngestLog(dir: string, applied: LogMark | null): Promise<{ records: LogRecord[]; nextGen: number }> {
  const out: LogRecord[] = [];
  const gens = generations(dir);
  for (const gen of gens) {
    if (applied && gen < applied.gen) continue;
    const from = applied && gen === applied.gen ? applied.offset : 0;
    for (const r of records(await readFile(join(dir, fileName(gen))), gen, from)) out.push(r);
  }
  return { records: out, nextGen: Math.max(applied?.gen ?? 0, gens.at(-1) ?? 0) + 1 };
}

export class IngestLog {
  readonly #dir: string;
  readonly #rotateBytes: number;
  #file: FileHandle;
  #gen: number;
  #size = 0;
  /**
   * The next file, created once this one is half full: creating one syncs the folder, which on
   * ext4 waits for a journal commit (measured: acknowledgements stalled up to 1.8 s when the
   * switch waited for it), so it happens before an append needs it.
   */
  #next: Promise<FileHandle> | null = null;
  /** Appends run one after another, in call order. */
  #tail: Promise<unknown> = Promise.resolve();

  private constructor(dir: string, file: FileHandle, gen: number, rotateBytes: number) {
    this.#dir = dir;
    this.#file = file;
    this.#gen = gen;
    this.#rotateBytes = rotateBytes;
  }

  /** Starts a new log file of generation `gen` in `dir` (see readIngestLog for the number). */
  static async create(dir: string, gen: number, rotateBytes = DEFAULT_ROTATE_BYTES): Promise<IngestLog> {
    mkdirSync(dir, { recursive: true });
    return new IngestLog(dir, await IngestLog.#newFile(dir, gen), gen, rotateBytes);
  }

  static async #newFile(dir: string, gen: number): Promise<FileHandle> {
    const file = await open(join(dir, fileName(gen)), "wx");
    // The file's name must be durable before any record in it is acknowledged.
    const folder = await open(dir, "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    return file;
  }

  /** Writes one record (see encodeRows); resolves with the mark past it once it is on disk. */
  append(payload: Uint8Array): Promise<LogMark> {
    const record = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
    record.writeUInt32LE(payload.length, 0);
    record.writeUInt32LE(checksum(payload), 4);
    record.set(payload, HEADER_BYTES);
    const run = this.#tail.then(async () => {
      if (this.#size > 0 && this.#size + record.length > this.#rotateBytes) {
        const next = await this.#prepareNext();
        this.#next = null;
        await this.#file.close();
        this.#file = next;
        this.#gen += 1;
        this.#size = 0;
      }
      // A failed write may leave part of a record behind; later records must not follow it.
      await this.#file.write(record, 0, record.length, this.#size);
      await this.#file.datasync();
      this.#size += record.length;
      if (this.#size > this.#rotateBytes / 2) this.#prepareNext().catch(() => undefined);
      return { gen: this.#gen, offset: this.#size };
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #prepareNext(): Promise<FileHandle> {
    if (!this.#next) {
      const next = IngestLog.#newFile(this.#dir, this.#gen + 1);
      // A failed creation is tried again by the next append that needs the file.
      next.catch(() => {
        if (this.#next === next) this.#next = null;
      });
      this.#next = next;
    }
    return this.#next;
  }

  async close(): Promise<void> {
    await this.#tail;
    await this.#file.close();
    // A file made ready but never written to is left empty: reading it finds no records.
    await (await this.#next?.catch(() => null))?.close();
  }
}

/** Deletes the log files of generations before `gen`. */
export async function deleteBefore(dir: string, gen: number): Promise<void> {
  for (const g of generations(dir)) if (g < gen) await unlink(join(dir, fileName(g))).catch(() => undefined);
}
