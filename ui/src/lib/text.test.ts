// Text geometry of the virtualised viewer: offsets, rows, highlighted segments.
import { describe, expect, it } from "vitest";
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
