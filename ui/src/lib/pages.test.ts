// The page view's geometry: points to pixels and back, boxes placed on the drawn page, the
// page to show for a span, and the paragraph a click picks.
import { describe, expect, it } from "vitest";
import { blockAround, markedPages, pageOfOffset, pageToShow, placeBox, toPixels, toPoints } from "./pages";
import { CharIndex } from "./text";

// A US letter page (612 × 792 points) drawn 1000 pixels wide, as pdfium maps it.
const scale = 1000 / 612;
const letter = [0, scale, 0, 792 * scale, 0, -scale];

describe("page geometry", () => {
  it("maps points to pixels with y downwards, and back", () => {
    expect(toPixels(letter, 0, 792)).toEqual([0, 0]);
    const [x, y] = toPixels(letter, 306, 396);
    expect(x).toBeCloseTo(500);
    expect(y).toBeCloseTo(647.06 / 1);
    const back = toPoints(letter, x, y)!;
    expect(back[0]).toBeCloseTo(306);
    expect(back[1]).toBeCloseTo(396);
  });

  it("inverts a rotated page's transform too", () => {
    // A page turned a quarter: x runs down the picture, y runs right.
    const turned = [0, 0, 2, 0, 2, 0];
    const [px, py] = toPixels(turned, 100, 50);
    expect([px, py]).toEqual([100, 200]);
    expect(toPoints(turned, px, py)).toEqual([100, 50]);
    expect(toPoints([0, 0, 0, 0, 0, 0], 1, 1)).toBeNull();
  });

  it("places a box in percent of the picture, top-left first", () => {
    const width = 1000;
    const height = Math.round(792 * scale);
    const box = placeBox(letter, width, height, { left: 61.2, bottom: 712.8, right: 306, top: 792 });
    expect(box.left).toBeCloseTo(10);
    expect(box.top).toBeCloseTo(0);
    expect(box.width).toBeCloseTo(40);
    expect(box.height).toBeCloseTo(10, 0);
  });
});

describe("which page", () => {
  const pages = [
    { page: 1, span: { start_char: 0, end_char: 100 }, has_text: true },
    { page: 2, span: { start_char: 100, end_char: 100 }, has_text: false },
    { page: 3, span: { start_char: 100, end_char: 250 }, has_text: true },
  ];

  it("finds the page an offset is printed on, skipping pages without text", () => {
    expect(pageOfOffset(pages, 0)).toBe(1);
    expect(pageOfOffset(pages, 99)).toBe(1);
    expect(pageOfOffset(pages, 100)).toBe(3);
    expect(pageOfOffset(pages, 250)).toBe(3);
    expect(pageOfOffset([], 5)).toBeNull();
  });

  it("shows the first marked page, or stays on the current one when the marks reach it", () => {
    const rect = { left: 0, bottom: 0, right: 1, top: 1 };
    const marks = [[{ page: 3, rects: [rect], chars: 4 }, { page: 4, rects: [rect], chars: 2 }]];
    expect(pageToShow(marks, [{ start_char: 120 }], pages)).toBe(3);
    expect(pageToShow(marks, [{ start_char: 120 }], pages, 4)).toBe(4);
    expect(pageToShow(marks, [{ start_char: 120 }], pages, 1)).toBe(3);
    // No printed character in the span: the page its start is on.
    expect(pageToShow([[]], [{ start_char: 50 }], pages)).toBe(1);
    expect(markedPages([...marks, [{ page: 3, rects: [rect], chars: 1 }]])).toEqual([3, 4]);
  });
});

describe("blockAround", () => {
  it("picks the line or paragraph around a char offset, in char offsets", () => {
    const text = "Title\n\nRevenue grew 5%.\nCash | 1,234";
    const index = new CharIndex(text);
    const at = text.indexOf("grew");
    const block = blockAround(text, index, at);
    expect(text.slice(block.start_char, block.end_char)).toBe("Revenue grew 5%.");
    const row = blockAround(text, index, text.indexOf("1,234"));
    expect(text.slice(row.start_char, row.end_char)).toBe("Cash | 1,234");
    expect(blockAround(text, index, 2)).toEqual({ start_char: 0, end_char: 5 });
  });

  it("counts an astral character as one char", () => {
    const text = "😀 intro\nSales rose.";
    const index = new CharIndex(text);
    const chars = Array.from(text);
    const at = chars.indexOf("S");
    const block = blockAround(text, index, at);
    expect(chars.slice(block.start_char, block.end_char).join("")).toBe("Sales rose.");
    expect(index.toChar(index.toUtf16(at))).toBe(at);
  });
});
