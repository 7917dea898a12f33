//! ~200-token chunks of each node's own text (the part not covered by its children), cut
//! at paragraph, then sentence, then word boundaries, each mapped to a byte range.

use crate::summary::sentences;
use crate::tokens::TokenCounter;
use std::ops::Range;

/// A piece of text with its token count.
struct Piece {
    span: Range<usize>,
    tokens: usize,
}

/// Cut the blocks (byte ranges with their token counts) into chunks of about `target`
/// tokens. Returns byte ranges and token counts.
pub fn chunk_blocks(
    text: &str,
    blocks: &[(Range<usize>, usize)],
    target: usize,
    counter: &TokenCounter,
) -> Vec<(Range<usize>, usize)> {
    let limit = target + target / 3;
    let mut pieces = Vec::new();
    for (span, tokens) in blocks {
        if *tokens <= limit {
            pieces.push(Piece {
                span: span.clone(),
                tokens: *tokens,
            });
        } else {
            split_long(text, span.clone(), limit, counter, &mut pieces);
        }
    }
    let mut chunks: Vec<(Range<usize>, usize)> = Vec::new();
    let mut current: Option<(Range<usize>, usize)> = None;
    for piece in pieces {
        current = match current.take() {
            Some((span, tokens)) if tokens + piece.tokens <= limit && tokens < target => {
                Some((span.start..piece.span.end, tokens + piece.tokens))
            }
            Some(done) => {
                chunks.push(done);
                Some((piece.span, piece.tokens))
            }
            None => Some((piece.span, piece.tokens)),
        };
    }
    chunks.extend(current);
    chunks
}

fn split_long(
    text: &str,
    span: Range<usize>,
    limit: usize,
    counter: &TokenCounter,
    out: &mut Vec<Piece>,
) {
    let slice = &text[span.clone()];
    let mut group_start: Option<usize> = None;
    let mut group_end = 0usize;
    let mut group_tokens = 0usize;
    for sentence in sentences(slice) {
        let offset = sentence.as_ptr() as usize - slice.as_ptr() as usize;
        let start = span.start + offset;
        let end = start + sentence.len();
        let tokens = counter.count(sentence);
        if tokens > limit {
            if let Some(s) = group_start.take() {
                out.push(Piece {
                    span: s..group_end,
                    tokens: group_tokens,
                });
            }
            split_words(text, start..end, limit, counter, out);
            group_tokens = 0;
            continue;
        }
        match group_start {
            Some(_) if group_tokens + tokens > limit => {
                if let Some(s) = group_start {
                    out.push(Piece {
                        span: s..group_end,
                        tokens: group_tokens,
                    });
                }
                group_start = Some(start);
                group_tokens = tokens;
            }
            Some(_) => group_tokens += tokens,
            None => {
                group_start = Some(start);
                group_tokens = tokens;
            }
        }
        group_end = end;
    }
    if let Some(s) = group_start {
        out.push(Piece {
            span: s..group_end,
            tokens: group_tokens,
        });
    }
}

fn split_words(
    text: &str,
    span: Range<usize>,
    limit: usize,
    counter: &TokenCounter,
    out: &mut Vec<Piece>,
) {
    let slice = &text[span.clone()];
    let mut start = 0usize;
    let mut words = 0usize;
    let words_per_piece = (limit * 2 / 3).max(20);
    for (i, _) in slice.match_indices(' ') {
        words += 1;
        if words >= words_per_piece {
            out.push(Piece {
                span: span.start + start..span.start + i,
                tokens: counter.count(&slice[start..i]),
            });
            start = i + 1;
            words = 0;
        }
    }
    if start < slice.len() {
        out.push(Piece {
            span: span.start + start..span.end,
            tokens: counter.count(&slice[start..]),
        });
    }
}
