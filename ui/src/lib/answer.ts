// An answer's text with its inline citation markers ("[2]") split out, so each marker
// becomes a chip that jumps to its span.

export type AnswerPiece = { text: string } | { citation: number };

export function splitCitations(answer: string): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  const marker = /\[(\d+)\]/g;
  let at = 0;
  for (const m of answer.matchAll(marker)) {
    const index = m.index ?? 0;
    if (index > at) pieces.push({ text: answer.slice(at, index) });
    pieces.push({ citation: Number(m[1]) });
    at = index + m[0].length;
  }
  if (at < answer.length) pieces.push({ text: answer.slice(at) });
  return pieces;
}
