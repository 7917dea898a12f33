// The document tree as the reader shows it: which nodes are visible given the collapsed
// ones, and how each is labelled.

export interface TreeNode {
  node_id: string;
  title: string;
  level: number;
  parent_id: string | null;
  span: { start_char: number; end_char: number };
  token_count: number;
  summary: string;
  children: string[];
  start_page?: number | null;
  end_page?: number | null;
  /** What the section is for an analyst: a statement (with its period columns), a note… */
  financial?: FinancialSection | null;
}

export interface FinancialSection {
  kind: string;
  note_number?: number | null;
  periods?: { heading: string; year?: number | null; months?: number | null }[];
}

const KIND_LABELS: Record<string, string> = {
  income_statement: "income statement",
  comprehensive_income: "comprehensive income",
  balance_sheet: "balance sheet",
  cash_flows: "cash flows",
  equity_statement: "equity",
  financial_statements: "financial statements",
  notes: "notes",
  note: "note",
  segments: "segments",
  mdna: "MD&A",
  mdna_results: "MD&A results",
  auditor_report: "auditor's report",
};

/** "cash flows", "note 7", "MD&A": the section's type as the tree marks it; "" for none. */
export function kindLabel(node: { financial?: FinancialSection | null }): string {
  const f = node.financial;
  if (!f) return "";
  const label = KIND_LABELS[f.kind] ?? f.kind.replace(/_/g, " ");
  return f.note_number != null ? `${label} ${f.note_number}` : label;
}

/** A statement's period columns, left to right: "Year Ended June 30, 2023 · …". */
export function periodsLabel(node: { financial?: FinancialSection | null }): string {
  return (node.financial?.periods ?? []).map((p) => p.heading).join(" · ");
}

/** Nodes in document order, skipping the descendants of collapsed nodes. */
export function visibleNodes(nodes: TreeNode[], collapsed: Set<string>): TreeNode[] {
  const hidden = new Set<string>();
  const out: TreeNode[] = [];
  for (const node of nodes) {
    if (node.parent_id && (hidden.has(node.parent_id) || collapsed.has(node.parent_id))) {
      hidden.add(node.node_id);
      continue;
    }
    out.push(node);
  }
  return out;
}

/** "p. 4" or "pp. 4–7" for PDF nodes, "" otherwise. */
export function pageLabel(node: { start_page?: number | null; end_page?: number | null }): string {
  if (node.start_page == null) return "";
  const end = node.end_page ?? node.start_page;
  return end === node.start_page ? `p. ${node.start_page}` : `pp. ${node.start_page}–${end}`;
}

/** A node's size for the tree: tokens, shortened. */
export function sizeLabel(tokens: number): string {
  if (tokens >= 10_000) return `${Math.round(tokens / 1000)}k tok`;
  if (tokens >= 1000) return `${(tokens / 1000).toFixed(1)}k tok`;
  return `${tokens} tok`;
}

/** The ids of a node's ancestors, nearest first. */
export function ancestors(nodes: Map<string, TreeNode>, id: string): string[] {
  const out: string[] = [];
  let parent = nodes.get(id)?.parent_id ?? null;
  while (parent) {
    out.push(parent);
    parent = nodes.get(parent)?.parent_id ?? null;
  }
  return out;
}
