// The CSV cell rule shared by the web's downloads and the server's export (RFC 4180: fields with a
// quote, comma or line break quoted, quotes doubled). Tracked text is untrusted: a text cell
// starting with = + - @ (or a tab or carriage return, which some spreadsheets skip before a
// formula) gets a leading apostrophe so no spreadsheet runs it as a formula (DESIGN.md §7).
// Numbers are written as numbers.
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  let text: string;
  if (typeof cell === "number") text = Number.isFinite(cell) ? String(cell) : "";
  else text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line with its CRLF. */
export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(",")}\r\n`;
