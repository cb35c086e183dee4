// CSV export built in the browser (RFC 4180: CRLF lines, fields with a quote, comma or line break
// quoted, quotes doubled). Tracked text is untrusted: a text cell starting with = + - @ (or a tab
// or carriage return, which some spreadsheets skip before a formula) gets a leading apostrophe so
// no spreadsheet runs it as a formula (DESIGN.md §7). Numbers are written as numbers.
import { saveFile } from "../../lib/download";

export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  let text: string;
  if (typeof cell === "number") text = Number.isFinite(cell) ? String(cell) : "";
  else text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows]
    .map((r) => r.map(csvCell).join(","))
    .join("\r\n")
    .concat("\r\n");
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
