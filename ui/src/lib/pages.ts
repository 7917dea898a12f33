// The page view's geometry: PDF points to places on the drawn page and back, the page a
// text offset sits on, and the boxes to draw for the highlighted spans.

import type { PageBoxes, PageInfo, PdfRect } from "./api";
import type { CharIndex } from "./text";

/** A box on the drawn page, as percentages of its width and height (so it scales with it). */
export interface PlacedBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Page points to picture pixels by pdfium's transform [a, b, c, d, e, f]. */
export function toPixels(t: number[], x: number, y: number): [number, number] {
  return [t[0] + t[1] * x + t[2] * y, t[3] + t[4] * x + t[5] * y];
}

/** Picture pixels back to page points (the transform's inverse), for a click. */
export function toPoints(t: number[], px: number, py: number): [number, number] | null {
  const [a, b, c, d, e, f] = t;
  const det = b * f - c * e;
  if (Math.abs(det) < 1e-12) return null;
  const dx = px - a;
  const dy = py - d;
  return [(f * dx - c * dy) / det, (b * dy - e * dx) / det];
}

/** Where a rectangle in points falls on a picture `width` × `height` pixels, in percent. */
export function placeBox(t: number[], width: number, height: number, r: PdfRect): PlacedBox {
  const corners = [
    toPixels(t, r.left, r.bottom),
    toPixels(t, r.right, r.bottom),
    toPixels(t, r.left, r.top),
    toPixels(t, r.right, r.top),
  ];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return {
    left: (100 * left) / width,
    top: (100 * top) / height,
    width: (100 * (Math.max(...xs) - left)) / width,
    height: (100 * (Math.max(...ys) - top)) / height,
  };
}

/** The page whose text range holds char offset `offset` (the last page for the end). */
export function pageOfOffset(pages: PageInfo[], offset: number): number | null {
  let found: number | null = null;
  for (const p of pages) {
    if (p.span.start_char <= offset && (offset < p.span.end_char || p.span.start_char === p.span.end_char)) {
      if (p.span.start_char < p.span.end_char) return p.page;
    }
    if (p.span.start_char <= offset) found = p.page;
  }
  return found;
}

/** The pages a set of marks touches, in order, each once. */
export function markedPages(marks: PageBoxes[][]): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const range of marks) {
    for (const p of range) {
      if (!seen.has(p.page)) {
        seen.add(p.page);
        out.push(p.page);
      }
    }
  }
  return out;
}

/** The page to show for new marks: the current page if they reach it (a click on a paragraph
 * that began a page earlier stays put), else the first page the first mark reaches, else the
 * page the first range starts on. */
export function pageToShow(
  marks: PageBoxes[][],
  ranges: { start_char: number }[],
  pages: PageInfo[],
  current: number | null = null,
): number | null {
  if (current !== null && marks.some((range) => range.some((p) => p.page === current))) return current;
  for (const range of marks) if (range.length) return range[0].page;
  return ranges.length ? pageOfOffset(pages, ranges[0].start_char) : null;
}

/** The paragraph (or table row) around char offset `offset`, in char offsets: from the line
 * break before it to the one after. */
export function blockAround(
  text: string,
  index: CharIndex,
  offset: number,
): { start_char: number; end_char: number } {
  const at = index.toUtf16(offset);
  const before = text.lastIndexOf("\n", Math.max(0, at - 1));
  const after = text.indexOf("\n", at);
  return {
    start_char: index.toChar(before < 0 ? 0 : before + 1),
    end_char: index.toChar(after < 0 ? text.length : after),
  };
}
