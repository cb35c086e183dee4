// The JobRunner: polls a JobQueue for the jobs it has handlers for, runs them with bounded
// concurrency, heartbeats each running job so its lock outlives long work, and records the
// outcome. Every handler error is caught, logged and recorded as a failed attempt (retried with
// backoff): a failing job never crashes the process. Recurring work is a `schedule` callback
// called every `scheduleEveryMs` that enqueues with idempotent keys, so N servers calling it
// enqueue each occurrence once.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { errorText, type Job, type JobName, type JobQueue, type JobRecord, PermanentJobError } from "./job-queue.js";

export interface JobContext {
  /** Aborted when this runner lost the job's lock (another runner may now run it): stop early. */
  signal: AbortSignal;
  workerId: string;
}

export type JobHandler<N extends string, P> = (job: JobRecord<N, P>, ctx: JobContext) => Promise<void>;

/** One handler per job name of `J`: the compiler checks that none is missing or mistyped. */
export type JobHandlers<J extends object> = { [K in JobName<J>]: JobHandler<K, J[K]> };

/** pino-compatible (Fastify's `app.log`). */
export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobRunnerOptions<J extends object> {
  queue: JobQueue<J>;
  handlers: JobHandlers<J>;
  /** Default host:pid:random. */
  workerId?: string;
  /** Jobs run at once. Default 2. */
  concurrency?: number;
  /** Wait between polls when there is nothing to claim. Default 1 s. */
  pollMs?: number;
  /** How long a claim holds a job without a heartbeat. Default 5 min. */
  lockMs?: number;
  /** Heartbeat interval. Default lockMs / 3. */
  heartbeatMs?: number;
  /** Recurring work: enqueue due jobs with idempotent keys. Errors are logged, never thrown. */
  schedule?: (queue: JobQueue<J>, now: Date) => Promise<void>;
  /** Default 60 s. */
  scheduleEveryMs?: number;
  logger?: JobLogger;
}

const consoleLogger: JobLogger = {
  info: (obj, msg) => console.info(msg, obj),
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

export class JobRunner<J extends object> {
  readonly workerId: string;
  readonly #queue: JobQueue<J>;
  readonly #handlers: JobHandlers<J>;
  readonly #names: JobName<J>[];
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #lockMs: number;
  readonly #heartbeatMs: number;
  readonly #schedule: JobRunnerOptions<J>["schedule"];
  readonly #scheduleEveryMs: number;
  readonly #log: JobLogger;
  readonly #running = new Set<Promise<void>>();
  #loop: Promise<void> | undefined;
  #stopping = false;
  #wake: (() => void) | undefined;
  #lastSchedule = Number.NEGATIVE_INFINITY;

  constructor(options: JobRunnerOptions<J>) {
    this.#queue = options.queue;
    this.#handlers = options.handlers;
    this.#names = Object.keys(options.handlers) as JobName<J>[];
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? 2));
    this.#pollMs = options.pollMs ?? 1000;
    this.#lockMs = options.lockMs ?? 5 * 60_000;
    this.#heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(this.#lockMs / 3));
    if (this.#heartbeatMs >= this.#lockMs) throw new RangeError("heartbeatMs must be shorter than lockMs");
    this.#schedule = options.schedule;
    this.#scheduleEveryMs = options.scheduleEveryMs ?? 60_000;
    this.#log = options.logger ?? consoleLogger;
  }

  /** Jobs running now. */
  get active(): number {
    return this.#running.size;
  }

  /** Starts polling in the background. */
  start(): void {
    if (this.#loop) return;
    this.#stopping = false;
    this.#loop = this.#run();
  }

  /** Stops polling and resolves once every running job has finished. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /**
   * One poll: runs the schedule when due, then claims jobs for the free slots and starts them.
   * True when every free slot was filled (more may be waiting). Used by the loop and by tests.
   */
  async tick(): Promise<boolean> {
    if (this.#schedule && Date.now() - this.#lastSchedule >= this.#scheduleEveryMs) {
      this.#lastSchedule = Date.now();
      try {
        await this.#schedule(this.#queue, new Date());
      } catch (err) {
        this.#log.error({ err, workerId: this.workerId }, "job schedule failed");
      }
    }
    const free = this.#concurrency - this.#running.size;
    if (free <= 0 || this.#names.length === 0) return false;
    const jobs = await this.#queue.claim(this.workerId, this.#names, this.#lockMs, free);
    for (const job of jobs) {
      const p: Promise<void> = this.#execute(job).finally(() => {
        this.#running.delete(p);
        this.#wake?.();
      });
      this.#running.add(p);
    }
    return jobs.length === free;
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      let more = false;
      try {
        more = await this.tick();
      } catch (err) {
        this.#log.error({ err, workerId: this.workerId }, "job poll failed");
      }
      if (!more && !this.#stopping) await this.#sleep(this.#pollMs);
    }
  }

  /** Waits `ms`, or less when a job finishes or stop() is called. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }

  async #execute(job: Job<J>): Promise<void> {
    const abort = new AbortController();
    const ctx: JobContext = { signal: abort.signal, workerId: this.workerId };
    const about = { jobId: job.id, job: job.name, attempt: job.attempts, workerId: this.workerId };
    let beating = false;
    const heartbeat = setInterval(async () => {
      if (beating || abort.signal.aborted) return;
      beating = true;
      try {
        if (!(await this.#queue.extendLock(job.id, this.workerId, this.#lockMs))) {
          abort.abort(new Error(`lock on job ${job.id} lost`));
          this.#log.warn(about, "job lock lost; another runner may run it");
        }
      } catch (err) {
        this.#log.warn({ ...about, err }, "job heartbeat failed");
      } finally {
        beating = false;
      }
    }, this.#heartbeatMs);
    heartbeat.unref?.();

    let error: unknown;
    let failed = false;
    try {
      const handler = this.#handlers[job.name] as JobHandler<string, unknown>;
      await handler(job as JobRecord<string, unknown>, ctx);
    } catch (err) {
      failed = true;
      error = err;
    } finally {
      clearInterval(heartbeat);
    }

    try {
      if (!failed) {
        if (!(await this.#queue.complete(job.id, this.workerId))) {
          this.#log.warn(about, "job finished after its lock was lost; not marked done by this runner");
        }
        return;
      }
      const outcome = await this.#queue.fail(job.id, this.workerId, error, {
        permanent: error instanceof PermanentJobError,
      });
      const msg =
        outcome === "retry"
          ? "job failed; will retry"
          : outcome === "failed"
            ? "job failed for good"
            : "job failed after its lock was lost";
      this.#log.error({ ...about, err: error, error: errorText(error), outcome }, msg);
    } catch (err) {
      // The store is unreachable: the job stays claimed and is picked up again when its lock expires.
      this.#log.error({ ...about, err, handlerError: failed ? errorText(error) : undefined }, "could not record job outcome");
    }
  }
}
