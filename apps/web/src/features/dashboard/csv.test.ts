import { describe, expect, it } from "vitest";
import { csvCell, safeFileName, toCsv } from "./csv";

describe("CSV export", () => {
  it("neutralises cells that a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("/pricing")).toBe("/pricing");
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("writes numbers as numbers, negative ones included", () => {
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(68.9)).toBe("68.9");
    expect(csvCell(Number.NaN)).toBe("");
    expect(csvCell(null)).toBe("");
  });

  it("quotes fields with commas, quotes and line breaks", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\r")).toBe('"cr\r"');
  });

  it("joins rows with CRLF under a header", () => {
    expect(
      toCsv(
        ["Page", "Visitors"],
        [
          ["/", 10],
          ["=1+1", 2],
        ],
      ),
    ).toBe("Page,Visitors\r\n/,10\r\n'=1+1,2\r\n");
  });

  it("makes safe file names", () => {
    expect(safeFileName("lookout", "page", "2024-01-01,2024-01-31")).toBe("lookout-page-2024-01-01-2024-01-31");
    expect(safeFileName("a/../b", "c d")).toBe("a-..-b-c-d");
  });
});
