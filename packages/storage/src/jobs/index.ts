// The persisted job queue and runner (DESIGN.md §1 "jobs"), on PGlite and PostgreSQL alike.
export {
  type BackoffOptions,
  backoffMs,
  type EnqueueInput,
  type EnqueueResult,
  type FailOutcome,
  type Job,
  type JobName,
  type JobQueue,
  type JobRecord,
  type JobState,
  PermanentJobError,
} from "./job-queue.js";
export {
  type JobContext,
  type JobHandler,
  type JobHandlers,
  type JobLogger,
  JobRunner,
  type JobRunnerOptions,
} from "./job-runner.js";
export { createJobQueue, type JobQueueOptions, type JobsTable } from "./sql-job-queue.js";
