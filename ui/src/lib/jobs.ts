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
  | { kind: "embedding_done"; chunks: number; millis: number; failed: string[] }
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

/** How far a batch has come: files finished of all, the rate so far and the time left. */
export interface BatchProgress {
  done: number;
  total: number;
  failed: number;
  /** Files per second since the batch started; null before the first finishes. */
  perSecond: number | null;
  secondsLeft: number | null;
}

export function batchProgress(rows: FileRow[], startedAt: number, now: number): BatchProgress {
  const finished = (r: FileRow) => r.state !== "queued" && r.state !== "running";
  const done = rows.filter(finished).length;
  const failed = rows.filter((r) => r.state === "failed").length;
  const seconds = (now - startedAt) / 1000;
  const perSecond = done > 0 && seconds > 0 ? done / seconds : null;
  const secondsLeft = perSecond ? (rows.length - done) / perSecond : null;
  return { done, total: rows.length, failed, perSecond, secondsLeft };
}

/** "12 of 1,000 files · 1.7 files/s · about 9 min left". */
export function batchLabel(p: BatchProgress): string {
  const parts = [`${p.done.toLocaleString("en-US")} of ${p.total.toLocaleString("en-US")} files`];
  if (p.failed) parts.push(`${p.failed} failed`);
  if (p.perSecond !== null) parts.push(`${p.perSecond.toFixed(1)} files/s`);
  if (p.secondsLeft !== null && p.done < p.total) {
    const s = Math.round(p.secondsLeft);
    parts.push(s < 60 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`);
  }
  return parts.join(" · ");
}

/** The rows worth a line of their own: all of a small batch; of a large one, those
 * running or in trouble (the batch line counts the rest). */
export function rowsToShow(rows: FileRow[]): FileRow[] {
  if (rows.length <= 20) return rows;
  return rows.filter((r) => r.state === "running" || r.state === "failed" || r.state === "cancelled");
}
