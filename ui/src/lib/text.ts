// Text geometry for the virtualised viewer: char offsets (what the library's spans count)
// to UTF-16 offsets (what JavaScript strings index), rows of a fixed width, and the
// highlighted segments of one row.

import { isTableLine } from "./table";

/** Converts the library's char offsets (Unicode scalar values) to UTF-16 offsets. */
export class CharIndex {
  /** UTF-16 offset of every char offset, or null when the text has no astral chars. */
  private readonly utf16: Uint32Array | null;
  readonly chars: number;

  constructor(text: string) {
    if (!/[\uD800-\uDFFF]/.test(text)) {
      this.utf16 = null;
      this.chars = text.length;
      return;
    }
    const offsets: number[] = [];
    for (let i = 0; i < text.length; i++) {
      offsets.push(i);
      const code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
    }
    offsets.push(text.length);
    this.utf16 = Uint32Array.from(offsets);
    this.chars = offsets.length - 1;
  }

  toUtf16(charOffset: number): number {
    const c = Math.max(0, Math.min(charOffset, this.chars));
    return this.utf16 ? this.utf16[c] : c;
  }

  /** The char offset of a UTF-16 offset (the char it falls in). */
  toChar(utf16Offset: number): number {
    if (!this.utf16) return Math.max(0, Math.min(utf16Offset, this.chars));
    let lo = 0;
    let hi = this.chars;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.utf16[mid] <= utf16Offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Row boundaries: row i covers [starts[i], ends[i]) in UTF-16 offsets. */
export interface Rows {
  starts: Uint32Array;
  ends: Uint32Array;
  /** 1 where the row is a whole table line (shown as a grid row, never wrapped). */
  table: Uint8Array;
  count: number;
}

/**
 * Break `text` into rows of at most `width` code units: at every newline, and within a
 * line at the last space that fits (a word longer than a row is cut). A table line (cells
 * joined by " | ") is one row: the viewer lays its cells out in columns. The newline itself
 * belongs to no row, so the rows' text joined is the text without its newlines.
 */
export function wrapRows(text: string, width: number): Rows {
  const w = Math.max(8, Math.floor(width));
  const starts: number[] = [];
  const ends: number[] = [];
  const table: number[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    if (isTableLine(text, lineStart, lineEnd)) {
      starts.push(lineStart);
      ends.push(lineEnd);
      table.push(1);
      if (lineEnd >= text.length) break;
      lineStart = lineEnd + 1;
      continue;
    }
    let rowStart = lineStart;
    do {
      let rowEnd = Math.min(rowStart + w, lineEnd);
      if (rowEnd < lineEnd) {
        const space = text.lastIndexOf(" ", rowEnd - 1);
        if (space >= rowStart + Math.floor(w / 2)) rowEnd = space + 1;
      }
      starts.push(rowStart);
      ends.push(rowEnd);
      table.push(0);
      rowStart = rowEnd;
    } while (rowStart < lineEnd);
    if (lineEnd >= text.length) break;
    lineStart = lineEnd + 1;
  }
  return {
    starts: Uint32Array.from(starts),
    ends: Uint32Array.from(ends),
    table: Uint8Array.from(table),
    count: starts.length,
  };
}

/** The row holding UTF-16 `offset` (the last row starting at or before it). */
export function rowAt(rows: Rows, offset: number): number {
  let lo = 0;
  let hi = rows.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows.starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface Range {
  start: number;
  end: number;
}

export interface Segment {
  start: number;
  end: number;
  /** Index of the highlight range covering the segment, or -1. */
  mark: number;
}

/** Split [start, end) into plain and highlighted segments (ranges in UTF-16 offsets). */
export function segments(start: number, end: number, ranges: Range[]): Segment[] {
  const cuts: Segment[] = [];
  let at = start;
  const inside = ranges
    .map((r, i) => ({ ...r, i }))
    .filter((r) => r.end > start && r.start < end)
    .sort((a, b) => a.start - b.start);
  for (const r of inside) {
    const s = Math.max(r.start, at);
    const e = Math.min(r.end, end);
    if (s >= e) continue;
    if (s > at) cuts.push({ start: at, end: s, mark: -1 });
    cuts.push({ start: s, end: e, mark: r.i });
    at = e;
  }
  if (at < end) cuts.push({ start: at, end, mark: -1 });
  return cuts;
}

/** The rows to render for a scroll position, with `overscan` rows either side. */
export function visibleWindow(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan = 10,
): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { first, last };
}
