// What the composition root hands to every route module.
import type { EventStore, MetaStore, SharedState } from "@lookout/storage";
import type { AuthService } from "./auth/auth-service.js";
import type { BillingService } from "./billing/service.js";
import type { Collector } from "./collect/collector.js";
import type { Config } from "./config/config.js";
import type { EventReads } from "./event-reads/fair-reads.js";
import type { Presence } from "./live/presence.js";
import type { Mailer } from "./mail/mailer.js";

export interface AppDeps {
  config: Config;
  meta: MetaStore;
  mailer: Mailer;
  auth: AuthService;
  presence: Presence;
  /** Appends and deletions; and reads outside any account (start-up, the CLI). */
  events: EventStore;
  /** Every read on an account's behalf: the store's reads in that account's fair queue. */
  reads: EventReads;
  collector: Collector;
  /** Throttles, rate limits and visits: in-process, or in Redis shared by every server. */
  shared: SharedState;
  billing: BillingService;
}
