// The rows of an indexing job: one per file, moved on by the messages the shell streams.

export type Stage = string;

export interface FileResult {
  path: string;
  status: "indexed" | "unchanged" | "failed";
  document: { doc_id: string; doc_name: string } | null;
  error: string | null;
  fault: string | null;
}

export type IndexMessage =
  | { kind: "started"; path: string }
  | { kind: "progress"; path: string; stage: Stage; done: number; total: number }
  | { kind: "message"; path: string; stage: Stage; text: string }
  | ({ kind: "finished" } & FileResult)
  | { kind: "embedding"; done: number; total: number; doc_name: string }
  | { kind: "embedding_done"; chunks: number; millis: number }
  | { kind: "embedding_skipped"; reason: string };

export interface FileRow {
  path: string;
  name: string;
  stage: Stage;
  /** 0..1 within the current stage. */
  fraction: number;
  note: string;
  state: "queued" | "running" | "indexed" | "unchanged" | "failed" | "cancelled";
  error: string | null;
  docId: string | null;
}

export function fileName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

export function queuedRows(paths: string[]): FileRow[] {
  return paths.map((path) => ({
    path,
    name: fileName(path),
    stage: "",
    fraction: 0,
    note: "",
    state: "queued",
    error: null,
    docId: null,
  }));
}

/** The rows after `message`; messages for unknown paths add a row. */
export function applyIndexMessage(rows: FileRow[], message: IndexMessage): FileRow[] {
  if (!("path" in message)) return rows;
  const exists = rows.some((r) => r.path === message.path);
  const base = exists ? rows : [...rows, ...queuedRows([message.path])];
  return base.map((row) => {
    if (row.path !== message.path) return row;
    switch (message.kind) {
      case "started":
        return { ...row, state: "running" };
      case "progress":
        return {
          ...row,
          state: "running",
          stage: message.stage,
          fraction: message.total > 0 ? Math.min(1, message.done / message.total) : 0,
        };
      case "message":
        return { ...row, note: message.text };
      case "finished":
        return {
          ...row,
          state: message.status,
          fraction: message.status === "failed" ? row.fraction : 1,
          error: message.error,
          docId: message.document?.doc_id ?? null,
        };
    }
  });
}

/** Rows still running when a job was cancelled are marked so. */
export function markCancelled(rows: FileRow[]): FileRow[] {
  return rows.map((r) =>
    r.state === "running" || r.state === "queued" ? { ...r, state: "cancelled" } : r,
  );
}
