// Tables in the text view: the canonical text writes a table row as one line of cells
// joined by " | " ("iPhone® | $39,669 | $40,665"). The viewer shows such lines as rows of an
// aligned grid, each cell still a range of the text, so highlights and citation chips fall
// on exactly the same characters as in plain text.

import type { Rows } from "./text";

export const CELL_SEPARATOR = " | ";

/** Whether the line [start, end) of `text` is a table row. */
export function isTableLine(text: string, start: number, end: number): boolean {
  const at = text.indexOf(CELL_SEPARATOR, start);
  return at >= 0 && at + CELL_SEPARATOR.length <= end;
}

/** One cell of a row: its text range, and the separator range after it (empty for the last). */
export interface Cell {
  start: number;
  end: number;
  sepEnd: number;
}

/** The cells of the table row [start, end), in UTF-16 offsets of `text`. */
export function cellsOf(text: string, start: number, end: number): Cell[] {
  const cells: Cell[] = [];
  let at = start;
  for (;;) {
    const sep = text.indexOf(CELL_SEPARATOR, at);
    if (sep < 0 || sep + CELL_SEPARATOR.length > end) {
      cells.push({ start: at, end, sepEnd: end });
      return cells;
    }
    cells.push({ start: at, end: sep, sepEnd: sep + CELL_SEPARATOR.length });
    at = sep + CELL_SEPARATOR.length;
  }
}

/** A figure as statements print them: "$39,669", "(1,234)", "12.5%", "—", "2023". */
export function isFigure(cell: string): boolean {
  const t = cell.trim();
  return /^[-–—]$/.test(t) || /^[($€£¥\s]*[-–]?\s*\$?\s*\d[\d,.]*\s*[)%]?\)?%?$/.test(t);
}

/** How one table (a run of consecutive table rows) is laid out. */
export interface TableShape {
  /** Width of each column, in characters. */
  widths: number[];
  /** Rows before the first that holds a figure beside its label: the header. */
  headerRows: number;
}

const MAX_COLUMN = 48;
/** The longest line inside a table that is taken for a subheading of its rows. */
const SUBHEADING = 60;

/**
 * The shape of the table whose rows are `lines` ([start, end) ranges of `text`). Rows with a
 * cell per column size the columns; a header row with fewer cells ("Thirteen Weeks Ended"
 * over two periods) is placed over the columns it spans (`placeCells`), which widen to
 * hold it.
 */
export function tableShape(text: string, lines: { start: number; end: number }[]): TableShape {
  const rows = lines.map((line) => cellsOf(text, line.start, line.end));
  let headerRows = rows.findIndex(
    (cells) =>
      cells.slice(1).some((c) => isFigure(text.slice(c.start, c.end))) &&
      !isFigure(text.slice(cells[0].start, cells[0].end)),
  );
  if (headerRows < 0) headerRows = 0;
  const columns = Math.max(...rows.map((cells) => cells.length));
  const widths: number[] = Array.from({ length: columns }, () => 1);
  const fit = (k: number, length: number) => (widths[k] = Math.min(MAX_COLUMN, Math.max(widths[k], length)));
  rows.forEach((cells, row) => {
    if (row < headerRows && cells.length < columns) return;
    cells.forEach((c, k) => fit(k, c.end - c.start));
  });
  rows.slice(0, headerRows).forEach((cells) => {
    if (cells.length >= columns) return;
    placeCells(cells.length, columns, true).forEach((place, k) => {
      const [first, span] = place.split(" / span ").map(Number);
      const spanned = Array.from({ length: span }, (_, j) => first - 1 + j);
      const room = spanned.reduce((a, j) => a + widths[j], 0) + 2 * (span - 1);
      const short = cells[k].end - cells[k].start - room;
      if (short > 0) spanned.forEach((j) => fit(j, widths[j] + Math.ceil(short / span)));
    });
  });
  return { widths, headerRows };
}

/**
 * Where each of a row's `count` cells goes in a grid of `columns` columns, as CSS
 * `grid-column` values. A header row with fewer cells than the table spreads them evenly
 * over the figure columns, right to left, as statements print period headings.
 */
export function placeCells(count: number, columns: number, header: boolean): string[] {
  if (!header || count >= columns || count === 0) {
    return Array.from({ length: count }, (_, k) => `${k + 1}`);
  }
  const figures = columns - 1;
  const span = Math.max(1, Math.floor(figures / count));
  const first = columns - span * count + 1;
  return Array.from({ length: count }, (_, k) => `${first + k * span} / span ${span}`);
}

/**
 * Column widths that fit `columns` characters: the label column gives way first (not
 * below 12), then every column in proportion.
 */
export function fitWidths(widths: number[], columns: number, gap = 2): number[] {
  const total = () => widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, widths.length - 1);
  const fitted = [...widths];
  const over = total() - columns;
  if (over <= 0) return fitted;
  fitted[0] = Math.max(12, fitted[0] - over);
  const still = fitted.reduce((a, b) => a + b, 0) + gap * Math.max(0, fitted.length - 1) - columns;
  if (still <= 0) return fitted;
  const scale = (columns - gap * Math.max(0, fitted.length - 1)) / fitted.reduce((a, b) => a + b, 0);
  return fitted.map((w) => Math.max(3, Math.floor(w * scale)));
}

/** Every table of the text: which table each row belongs to, and each table's shape. */
export interface Tables {
  /** Index into `shapes` of the row's table, or -1 for a row of prose. */
  tableOf: Int32Array;
  /** The row's position in its table (0 for the first row). */
  rowInTable: Uint32Array;
  shapes: TableShape[];
}

/** Group consecutive table rows into tables and shape each one. */
export function tablesOf(text: string, rows: Rows): Tables {
  const tableOf = new Int32Array(rows.count).fill(-1);
  const rowInTable = new Uint32Array(rows.count);
  const shapes: TableShape[] = [];
  let i = 0;
  while (i < rows.count) {
    if (!rows.table[i]) {
      i++;
      continue;
    }
    const lines: { start: number; end: number }[] = [];
    for (;;) {
      while (i < rows.count && rows.table[i]) {
        tableOf[i] = shapes.length;
        rowInTable[i] = lines.length;
        lines.push({ start: rows.starts[i], end: rows.ends[i] });
        i++;
      }
      // One short line between rows ("OPERATING EXPENSES:") does not end the table: the
      // rows after it keep its columns.
      const gap = i < rows.count ? rows.ends[i] - rows.starts[i] : 0;
      if (i + 1 < rows.count && gap > 0 && gap <= SUBHEADING && rows.table[i + 1]) {
        i++;
        continue;
      }
      break;
    }
    shapes.push(tableShape(text, lines));
  }
  return { tableOf, rowInTable, shapes };
}
