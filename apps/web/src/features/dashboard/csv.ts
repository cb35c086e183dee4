// CSV built in the browser: the shared cell rule (@lookout/schema csv.ts: quoting, and formula
// escaping of tracked text) joined into a file, and the download.
import { type CsvCell, csvCell, csvLine } from "@lookout/schema";
import { saveFile } from "../../lib/download";

export { type CsvCell, csvCell };

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map(csvLine).join("");
}

/** Offers `csv` as a download named `filename`. */
export function downloadCsv(filename: string, csv: string): void {
  saveFile(new Blob([csv], { type: "text/csv;charset=utf-8" }), filename);
}

/** A file name safe on every system: letters, digits, dots, dashes and underscores. */
export function safeFileName(...parts: string[]): string {
  return parts
    .map((p) => p.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter(Boolean)
    .join("-");
}
