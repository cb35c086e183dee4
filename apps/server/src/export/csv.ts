// CSV as the export writes it (RFC 4180: CRLF lines, quoted when needed, quotes doubled). Tracked
// text is untrusted: a text cell starting with = + - @ (or tab or CR, which some spreadsheets
// skip before a formula) gets a leading apostrophe (DESIGN.md §7; the web's dashboard/csv.ts
// applies the same rule). Numbers are written as numbers.
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  const text =
    typeof cell === "number" ? (Number.isFinite(cell) ? String(cell) : "") : FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(",")}\r\n`;
