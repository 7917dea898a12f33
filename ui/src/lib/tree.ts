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
