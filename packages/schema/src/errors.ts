// The one error body every API answers with (DESIGN.md §5): clients read `message`.
import { z } from "zod";

export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  details: z.unknown().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
