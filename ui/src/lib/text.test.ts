// Text geometry of the virtualised viewer: offsets, rows, highlighted segments.
import { describe, expect, it } from "vitest";
import { cellsOf, fitWidths, isFigure, placeCells, tablesOf } from "./table";
import { CharIndex, rowAt, segments, visibleWindow, wrapRows } from "./text";

describe("CharIndex", () => {
  it("is the identity without astral characters", () => {
    const index = new CharIndex("Net sales | $81,797");
    expect(index.toUtf16(5)).toBe(5);
    expect(index.chars).toBe(19);
  });

  it("counts an astral character as one char but two UTF-16 units", () => {
    const text = "a😀b€c";
    const index = new CharIndex(text);
    expect(index.chars).toBe(5);
    expect(text.slice(index.toUtf16(2), index.toUtf16(3))).toBe("b");
    expect(text.slice(index.toUtf16(1), index.toUtf16(2))).toBe("😀");
    expect(index.toUtf16(99)).toBe(text.length);
  });
});

describe("wrapRows", () => {
  it("breaks at newlines and at the last space that fits, losing only newlines", () => {
    const text = "Item 7. Management's Discussion and Analysis\nNet sales increased 2% to $391 billion.\n\nEnd";
    const rows = wrapRows(text, 20);
    const joined: string[] = [];
    for (let i = 0; i < rows.count; i++) {
      expect(rows.ends[i] - rows.starts[i]).toBeLessThanOrEqual(20);
      joined.push(text.slice(rows.starts[i], rows.ends[i]));
    }
    expect(joined.join("")).toBe(text.replace(/\n/g, ""));
    expect(joined).toContain("");
    expect(joined[0]).toBe("Item 7. Management's");
  });

  it("cuts a word longer than a row", () => {
    const rows = wrapRows("x".repeat(25), 10);
    expect(Array.from(rows.starts)).toEqual([0, 10, 20]);
  });

  it("finds the row of an offset", () => {
    const text = "aaaa bbbb cccc dddd\nee";
    const rows = wrapRows(text, 10);
    expect(rowAt(rows, 0)).toBe(0);
    expect(rowAt(rows, text.indexOf("cccc"))).toBe(1);
    expect(rowAt(rows, text.indexOf("ee"))).toBe(rows.count - 1);
  });
});

describe("segments", () => {
  it("splits a row into plain and marked parts", () => {
    expect(segments(10, 30, [{ start: 15, end: 20 }, { start: 25, end: 40 }])).toEqual([
      { start: 10, end: 15, mark: -1 },
      { start: 15, end: 20, mark: 0 },
      { start: 20, end: 25, mark: -1 },
      { start: 25, end: 30, mark: 1 },
    ]);
  });

  it("leaves a row outside every range plain", () => {
    expect(segments(0, 5, [{ start: 10, end: 20 }])).toEqual([{ start: 0, end: 5, mark: -1 }]);
  });
});

describe("visibleWindow", () => {
  it("renders only the rows in view plus overscan", () => {
    expect(visibleWindow(2000, 400, 20, 50_000, 5)).toEqual({ first: 95, last: 125 });
    expect(visibleWindow(0, 400, 20, 3, 5)).toEqual({ first: 0, last: 3 });
  });
});

describe("tables", () => {
  const text =
    "Net sales by category:\n" +
    "Three Months Ended | July 1, 2023 | June 25, 2022 | Change\n" +
    "iPhone® | $39,669 | $40,665 | (2)%\n" +
    "Services | 21,213 | 19,604 | 8 %\n" +
    "Total net sales | $81,797 | $82,959 | —\n" +
    "The Company's products are sold in many markets, a sentence long enough to wrap.";

  it("keeps a table line as one row, however narrow the view", () => {
    const rows = wrapRows(text, 20);
    const table = Array.from(rows.table.keys()).filter((i) => rows.table[i]);
    expect(table).toHaveLength(4);
    expect(text.slice(rows.starts[table[1]], rows.ends[table[1]])).toBe("iPhone® | $39,669 | $40,665 | (2)%");
    expect(rows.count).toBeGreaterThan(6);
  });

  it("splits a row into cells whose ranges are the text's, separators after each", () => {
    const start = text.indexOf("iPhone");
    const end = text.indexOf("\n", start);
    const cells = cellsOf(text, start, end);
    expect(cells.map((c) => text.slice(c.start, c.end))).toEqual(["iPhone®", "$39,669", "$40,665", "(2)%"]);
    expect(cells.map((c) => text.slice(c.end, c.sepEnd))).toEqual([" | ", " | ", " | ", ""]);
    // Cells and separators together are the row, character for character.
    expect(cells.map((c) => text.slice(c.start, c.sepEnd)).join("")).toBe(text.slice(start, end));
  });

  it("tells figures from labels", () => {
    for (const figure of ["$39,669", "(1,234)", "12.5%", "(2)%", "—", "2023", "$ (45)"]) {
      expect(isFigure(figure), figure).toBe(true);
    }
    for (const label of ["iPhone®", "July 1, 2023", "Total net sales", ""]) {
      expect(isFigure(label), label).toBe(false);
    }
  });

  it("groups consecutive rows into a table with its column widths and header", () => {
    const rows = wrapRows(text, 100);
    const tables = tablesOf(text, rows);
    expect(tables.shapes).toHaveLength(1);
    const shape = tables.shapes[0];
    expect(shape.widths).toEqual([18, 12, 13, 6]);
    expect(shape.headerRows).toBe(1);
    const first = Array.from(rows.table.keys()).find((i) => rows.table[i])!;
    expect(tables.rowInTable[first + 2]).toBe(2);
    expect(tables.tableOf[0]).toBe(-1);
  });

  it("spreads a header row's fewer cells over the figure columns", () => {
    expect(placeCells(2, 5, true)).toEqual(["2 / span 2", "4 / span 2"]);
    expect(placeCells(4, 5, true)).toEqual(["2 / span 1", "3 / span 1", "4 / span 1", "5 / span 1"]);
    expect(placeCells(5, 5, true)).toEqual(["1", "2", "3", "4", "5"]);
    expect(placeCells(3, 5, false)).toEqual(["1", "2", "3"]);
  });

  it("widens the columns a spanning header cell stands over", () => {
    const statement =
      "Thirteen Weeks Ended | Thirty-Nine Weeks Ended\n" +
      "SALES | $293,618 | $303,457 | $838,490 | $878,719\n" +
      "Gross profit | 140,071 | 147,215 | 393,302 | 418,884";
    const shape = tablesOf(statement, wrapRows(statement, 100)).shapes[0];
    expect(shape.headerRows).toBe(1);
    // Figures are 8 wide; "Thirteen Weeks Ended" (20) and "Thirty-Nine Weeks Ended" (23)
    // each stand over two of them and the gap of 2 between.
    expect(shape.widths).toEqual([12, 9, 9, 11, 11]);
  });

  it("keeps one table across a short subheading line, not across prose", () => {
    const statement =
      "Gross profit | 140,071 | 147,215\n" +
      "OPERATING EXPENSES:\n" +
      "General and administrative | 13,602 | 12,908\n" +
      "\n" +
      "Net income | 44,172 | 51,762";
    const rows = wrapRows(statement, 100);
    const tables = tablesOf(statement, rows);
    expect(tables.shapes).toHaveLength(2);
    expect(tables.shapes[0].widths).toEqual([26, 7, 7]);
    expect(tables.tableOf[1]).toBe(-1);
    expect(tables.tableOf[2]).toBe(0);
    expect(tables.rowInTable[2]).toBe(1);
  });

  it("narrows the label column first to fit the view", () => {
    expect(fitWidths([18, 13, 13, 6], 100)).toEqual([18, 13, 13, 6]);
    expect(fitWidths([40, 10, 10], 60)).toEqual([36, 10, 10]);
    const tight = fitWidths([40, 20, 20], 40);
    expect(tight.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(40);
  });
});
