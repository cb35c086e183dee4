// Reads a 400's `details` ([{path, message}], apps/server/src/http/errors.ts) into per-field and
// per-line messages: "settings.excluded_ips.3" is line 4 of the excluded IPs.
import { HttpError } from "../../lib/http";

export interface FieldIssue {
  path: string;
  message: string;
}

export function issuesOf(err: unknown): FieldIssue[] {
  if (!(err instanceof HttpError) || !Array.isArray(err.details)) return [];
  return err.details.filter(
    (d): d is FieldIssue => !!d && typeof d === "object" && typeof d.path === "string" && typeof d.message === "string",
  );
}

/** The issues under `prefix` ("settings.excluded_ips"), each with its 0-based line, or null for the list itself. */
export function lineIssues(issues: FieldIssue[], prefix: string): { line: number | null; message: string }[] {
  return issues
    .filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`))
    .map((i) => {
      const rest = i.path.slice(prefix.length + 1);
      return { line: /^\d+$/.test(rest) ? Number(rest) : null, message: i.message };
    });
}
