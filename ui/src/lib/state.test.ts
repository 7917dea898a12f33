// UI state the components rely on: library filters, indexing rows, tree visibility and
// labels, citation chips.
import { describe, expect, it } from "vitest";
import { splitCitations } from "./answer";
import { applyIndexMessage, batchLabel, batchProgress, markCancelled, queuedRows, rowsToShow } from "./jobs";
import { facets, filterDocuments, noFilter, type DocumentSummary } from "./library";
import {
  ancestors,
  kindLabel,
  pageLabel,
  periodsLabel,
  sizeLabel,
  visibleNodes,
  type TreeNode,
} from "./tree";

function doc(name: string, company: string | null, year: number | null, type: string): DocumentSummary {
  return {
    doc_id: name,
    doc_name: name,
    doc_type: type,
    format: "html",
    page_count: 0,
    company_name: company,
    ticker: null,
    fiscal_year: year,
    period_end_date: null,
    node_count: 1,
    char_count: 1,
    description: null,
  };
}

describe("library filters", () => {
  const docs = [
    doc("apple-10k", "Apple Inc.", 2024, "10-K"),
    doc("apple-10q", "Apple Inc.", 2023, "10-Q"),
    doc("tesla-10k", "Tesla, Inc.", 2023, "10-K"),
    doc("unknown", null, null, "other"),
  ];

  it("filters by company, year and type together", () => {
    expect(filterDocuments(docs, { ...noFilter, company: "Apple Inc." }).map((d) => d.doc_id)).toEqual([
      "apple-10k",
      "apple-10q",
    ]);
    expect(filterDocuments(docs, { ...noFilter, year: "2023", type: "10-K" }).map((d) => d.doc_id)).toEqual([
      "tesla-10k",
    ]);
    expect(filterDocuments(docs, { ...noFilter, text: "TESLA" })).toHaveLength(1);
    expect(filterDocuments(docs, noFilter)).toHaveLength(4);
  });

  it("offers each distinct value once", () => {
    const f = facets(docs);
    expect(f.companies).toEqual(["Apple Inc.", "Tesla, Inc."]);
    expect(f.years).toEqual(["2024", "2023"]);
    expect(f.types).toEqual(["10-K", "10-Q", "other"]);
  });

  it("takes one company's spellings as one company", () => {
    const buckle = [
      doc("buckle-8k", "BUCKLE, INC", 2024, "8-K"),
      doc("buckle-ex99", "THE BUCKLE, INC.", 2023, "earnings_release"),
      doc("buckle-10k", "The Buckle, Inc.", 2024, "10-K"),
      doc("buckle-10q", "The Buckle, Inc.", 2024, "10-Q"),
      ...docs,
    ];
    expect(facets(buckle).companies).toEqual(["Apple Inc.", "Tesla, Inc.", "The Buckle, Inc."]);
    expect(filterDocuments(buckle, { ...noFilter, company: "The Buckle, Inc." }).map((d) => d.doc_id)).toEqual([
      "buckle-8k",
      "buckle-ex99",
      "buckle-10k",
      "buckle-10q",
    ]);
  });
});

describe("indexing rows", () => {
  it("follow the streamed messages and keep a bad file's error on its own row", () => {
    let rows = queuedRows(["/a/good.html", "/a/bad.pdf"]);
    rows = applyIndexMessage(rows, { kind: "started", path: "/a/good.html" });
    rows = applyIndexMessage(rows, { kind: "progress", path: "/a/good.html", stage: "tree", done: 1, total: 4 });
    expect(rows[0]).toMatchObject({ state: "running", stage: "tree", fraction: 0.25 });
    rows = applyIndexMessage(rows, {
      kind: "finished",
      path: "/a/bad.pdf",
      status: "failed",
      document: null,
      error: "/a/bad.pdf: not a PDF",
      fault: "user",
    });
    expect(rows[1]).toMatchObject({ state: "failed", error: "/a/bad.pdf: not a PDF" });
    expect(rows[0].state).toBe("running");
    rows = markCancelled(rows);
    expect(rows.map((r) => r.state)).toEqual(["cancelled", "failed"]);
  });
});

describe("tree", () => {
  const node = (id: string, parent: string | null, level: number): TreeNode => ({
    node_id: id,
    title: id,
    level,
    parent_id: parent,
    span: { start_char: 0, end_char: 1 },
    token_count: 1,
    summary: "",
    children: [],
  });
  const nodes = [node("0000", null, 0), node("0001", "0000", 1), node("0002", "0001", 2), node("0003", null, 0)];

  it("hides every descendant of a collapsed node", () => {
    expect(visibleNodes(nodes, new Set(["0000"])).map((n) => n.node_id)).toEqual(["0000", "0003"]);
    expect(visibleNodes(nodes, new Set(["0001"])).map((n) => n.node_id)).toEqual(["0000", "0001", "0003"]);
  });

  it("lists ancestors nearest first", () => {
    expect(ancestors(new Map(nodes.map((n) => [n.node_id, n])), "0002")).toEqual(["0001", "0000"]);
  });

  it("labels pages and sizes", () => {
    expect(pageLabel({ start_page: 4, end_page: 7 })).toBe("pp. 4–7");
    expect(pageLabel({ start_page: 4, end_page: 4 })).toBe("p. 4");
    expect(pageLabel({})).toBe("");
    expect(sizeLabel(950)).toBe("950 tok");
    expect(sizeLabel(12_400)).toBe("12k tok");
  });

  it("marks statements, notes and MD&A with their type and a statement's columns", () => {
    const cashFlows = {
      financial: {
        kind: "cash_flows",
        periods: [{ heading: "Year Ended June 30, 2023" }, { heading: "Year Ended June 30, 2022" }],
      },
    };
    expect(kindLabel(cashFlows)).toBe("cash flows");
    expect(periodsLabel(cashFlows)).toBe("Year Ended June 30, 2023 · Year Ended June 30, 2022");
    expect(kindLabel({ financial: { kind: "note", note_number: 7 } })).toBe("note 7");
    expect(kindLabel({ financial: { kind: "mdna" } })).toBe("MD&A");
    expect(kindLabel({})).toBe("");
    expect(periodsLabel({})).toBe("");
  });
});

describe("citations", () => {
  it("become chips between text pieces", () => {
    expect(splitCitations("Net sales were $81,797 million [1] and iPhone $39,669 [2].")).toEqual([
      { text: "Net sales were $81,797 million " },
      { citation: 1 },
      { text: " and iPhone $39,669 " },
      { citation: 2 },
      { text: "." },
    ]);
  });
});

describe("a large batch", () => {
  it("counts files done of all, with the rate and the time left", () => {
    const paths = Array.from({ length: 1000 }, (_, i) => `/f/${i}.htm`);
    let rows = queuedRows(paths);
    for (let i = 0; i < 10; i++) {
      rows = applyIndexMessage(rows, {
        kind: "finished",
        path: paths[i],
        status: i === 3 ? "failed" : "indexed",
        document: null,
        error: i === 3 ? "bad file" : null,
        fault: null,
      });
    }
    rows = applyIndexMessage(rows, { kind: "started", path: paths[10] });
    const p = batchProgress(rows, 0, 5000);
    expect(p).toEqual({ done: 10, total: 1000, failed: 1, perSecond: 2, secondsLeft: 495 });
    expect(batchLabel(p)).toBe("10 of 1,000 files · 1 failed · 2.0 files/s · about 8 min left");
    expect(batchLabel(batchProgress(rows, 0, 0))).toBe("10 of 1,000 files · 1 failed");
    // Only the running and failed rows get a line of their own.
    expect(rowsToShow(rows).map((r) => r.state)).toEqual(["failed", "running"]);
    expect(rowsToShow(rows.slice(0, 5))).toHaveLength(5);
  });
});
