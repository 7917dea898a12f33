// Typed calls to the shell's commands. Every call goes through here, so the components
// never name a command string or guess a payload's shape.

import { Channel, invoke } from "@tauri-apps/api/core";
import type { DocumentSummary } from "./library";
import type { FileResult, IndexMessage } from "./jobs";
import type { TreeNode } from "./tree";

export interface CrossRef {
  kind: string;
  source_node_id: string;
  span: { start_char: number; end_char: number };
  target: string;
  target_node_id: string | null;
}

export interface DocumentView {
  summary: DocumentSummary;
  text: string;
  nodes: TreeNode[];
  cross_refs: CrossRef[];
  /** PDF only: each page's range of the text and printed label. */
  pages?: PageInfo[];
}

export interface PageInfo {
  page: number;
  span: { start_char: number; end_char: number };
  label?: string | null;
  has_text: boolean;
}

/** A rectangle in PDF points, origin bottom-left. */
export interface PdfRect {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

/** A PDF page drawn by pdfium, and how its points map onto the picture. */
export interface PageImage {
  page: number;
  page_count: number;
  width_px: number;
  height_px: number;
  /** [a, b, c, d, e, f]: x_px = a + b·x + c·y, y_px = d + e·x + f·y. */
  transform: number[];
  src: string;
}

/** Where a span is printed on one page: one rectangle per run of characters on a line. */
export interface PageBoxes {
  page: number;
  rects: PdfRect[];
  chars: number;
}

export interface Citation {
  marker: number;
  doc_id: string;
  doc_name: string;
  node_id: string;
  title: string;
  start_page?: number | null;
  end_page?: number | null;
  excerpt: string;
  start_char: number;
  end_char: number;
}

export interface Answer {
  question: string;
  answer: string;
  answered: boolean;
  confidence: { label: string; score: number };
  citations: Citation[];
  citations_dropped: number;
  unsupported_numbers: string[];
  reasoning: string[];
  nodes_visited: string[];
  engine: string;
  tokens_used: number;
  /** The table of an answer comparing companies or filings; cells cite their rows. */
  comparison?: Comparison | null;
  /** The documents the answer read, and why. */
  documents?: DocumentUse[];
}

export interface StatedFigure {
  concept: string;
  label: string;
  doc_id: string;
  doc_name: string;
  row_label: string;
  value: number;
  shown: string;
  scale?: string;
  period?: string;
  markers: number[];
}

export interface Comparison {
  columns: { concept: string; label: string }[];
  rows: { label: string; company: string; cells: (StatedFigure | null)[] }[];
  differences: { concept: string; label: string; text: string; shown: string; markers: number[] }[];
  conflicts: { text: string; label: string; period: string }[];
  notes: string[];
}

export interface DocumentUse {
  doc_id: string;
  doc_name: string;
  company?: string;
  why: string;
  votes?: number;
}

export type AskMessage = { kind: "step"; text: string } | { kind: "token"; text: string };

export interface EvidenceExcerpt {
  text: string;
  start_char: number;
  end_char: number;
  /** 0..1, this excerpt's own relevance (absent in reports saved before it existed). */
  relevance?: number;
  /** The topic's concept terms it holds. */
  terms?: string[];
  reason?: string;
  /** It stands in a paragraph written as instructions to a reader or a model. */
  addressed_to_a_model?: boolean;
}

export interface Evidence {
  doc_id: string;
  doc_name: string;
  node_id: string;
  title: string;
  path: string;
  relevance: number;
  reason: string;
  excerpts: EvidenceExcerpt[];
  start_char: number;
  end_char: number;
  start_page?: number | null;
  end_page?: number | null;
}

export interface ProvenanceReport {
  topic: string;
  coverage: {
    documents: number;
    sections_scanned: number;
    sections_total: number;
    sections_skipped: number;
    semantic: boolean;
  };
  evidence: Evidence[];
  summary?: string | null;
}

export type ProvenanceMessage =
  | { kind: "progress"; topic: string; done: number; total: number }
  | { kind: "hit"; topic: string; evidence: Evidence };

export interface SavedEntry {
  id: number;
  kind: string;
  title: string;
  created_at: string;
}

export interface SavedResult extends SavedEntry {
  result: Answer | ProvenanceReport;
  stale: string[];
}

export interface Settings {
  model: string | null;
  base_url: string | null;
  cache: string | null;
  /** `sqlite` (default) or `chroma://HOST:PORT`. */
  vectors: string | null;
  offline: boolean;
}

export interface SettingsView extends Settings {
  api_key_stored: boolean;
  keychain_error: string | null;
  library_dir: string;
  log_dir: string;
}

/** A command's failure: the message names the file or setting and the reason. */
export interface CommandError {
  message: string;
  fault: "user" | "runtime" | "bug";
}

export function errorText(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) return String((e as CommandError).message);
  return String(e);
}

export const api = {
  listDocuments: () => invoke<DocumentSummary[]>("list_documents"),
  removeDocument: (docId: string) => invoke<boolean>("remove_document", { docId }),
  enhanceDocument: (docId: string) =>
    invoke<{ retried: string[]; still_failed: { stage: string; reason: string }[] }>("enhance_document", { docId }),
  openDocument: (docId: string) => invoke<DocumentView>("open_document", { docId }),
  samplePath: () => invoke<string>("sample_path"),
  pageImage: (docId: string, page: number, width: number) =>
    invoke<PageImage>("page_image", { docId, page, width }),
  spanBoxes: (docId: string, startChar: number, endChar: number) =>
    invoke<PageBoxes[]>("span_boxes", { docId, startChar, endChar }),
  pageCharAt: (docId: string, page: number, x: number, y: number) =>
    invoke<number | null>("page_char_at", { docId, page, x, y }),
  indexFiles: (paths: string[], onMessage: (m: IndexMessage) => void) => {
    const onEvent = new Channel<IndexMessage>();
    onEvent.onmessage = onMessage;
    return invoke<FileResult[]>("index_files", { paths, onEvent });
  },
  cancelIndexing: () => invoke<boolean>("cancel_indexing"),
  ask: (question: string, docId: string | null, onMessage: (m: AskMessage) => void) => {
    const onEvent = new Channel<AskMessage>();
    onEvent.onmessage = onMessage;
    return invoke<{ saved_id: number | null; answer: Answer }>("ask", { question, docId, onEvent });
  },
  provenance: (
    topics: string[],
    docId: string | null,
    threshold: number | null,
    onMessage: (m: ProvenanceMessage) => void,
  ) => {
    const onEvent = new Channel<ProvenanceMessage>();
    onEvent.onmessage = onMessage;
    return invoke<{ saved_id: number | null; report: ProvenanceReport }[]>("provenance", {
      topics,
      docId,
      threshold,
      onEvent,
    });
  },
  exportReport: (savedId: number, path: string) =>
    invoke<number>("export_report", { savedId, path }),
  savedList: () => invoke<SavedEntry[]>("saved_list"),
  reopenSaved: (id: number) => invoke<SavedResult>("reopen_saved", { id }),
  getSettings: () => invoke<SettingsView>("get_settings"),
  saveSettings: (settings: Settings, apiKey: string | null) =>
    invoke<SettingsView>("save_settings", { settings, apiKey }),
};
