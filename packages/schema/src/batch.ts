// POST /api/batch (DESIGN.md §5): up to 500 collector events in one body, for server-side senders
// and imports. Each event is validated on its own, exactly as POST /api/event validates one
// (TrackerEventSchema), so the body schema only checks the envelope; the answer lists each event's
// outcome, in order.
import { z } from "zod";

export const BATCH_MAX_EVENTS = 500;

export const BatchBodySchema = z
  .object({
    events: z.array(z.unknown()).min(1).max(BATCH_MAX_EVENTS),
  })
  .strict();
export type BatchBody = z.infer<typeof BatchBodySchema>;

/** Why an event was stored nowhere on purpose: the same reasons POST /api/event gives. */
export const BatchDropReasonSchema = z.enum(["unknown_property", "bot", "excluded_ip", "excluded_path", "hostname_not_allowed"]);

export const BatchOutcomeSchema = z.discriminatedUnion("status", [
  /** Durable (as a 202 from POST /api/event). */
  z.object({ status: z.literal("accepted") }),
  z.object({ status: z.literal("dropped"), reason: BatchDropReasonSchema }),
  /** Failed validation: the event's own error, as POST /api/event's 400 would say it. */
  z.object({ status: z.literal("invalid"), error: z.string() }),
  /** Past the property's rate: send it again after this many ms. */
  z.object({ status: z.literal("rate_limited"), retry_after_ms: z.number().int().nonnegative() }),
]);
export type BatchOutcome = z.infer<typeof BatchOutcomeSchema>;

export const BatchAnswerSchema = z.object({
  accepted: z.number().int().nonnegative(),
  dropped: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  rate_limited: z.number().int().nonnegative(),
  /** One per event of the body, in its order. */
  results: z.array(BatchOutcomeSchema),
});
export type BatchAnswer = z.infer<typeof BatchAnswerSchema>;
