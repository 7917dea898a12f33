//! Conversion between byte offsets (how Rust slices) and code-point offsets (public spans).

use crate::model::Span;

const STRIDE: usize = 256;

/// Maps byte offsets of one text to code-point offsets and back in O(stride).
#[derive(Debug, Clone)]
pub struct CharMap<'a> {
    text: &'a str,
    /// `checkpoints[k]` = (byte offset, char offset) of the first char boundary at or after
    /// byte `k * STRIDE`.
    checkpoints: Vec<(usize, usize)>,
}

impl<'a> CharMap<'a> {
    pub fn new(text: &'a str) -> Self {
        // Stride by stride rather than char by char: `chars().count()` counts a block's
        // code points many bytes at a time, which keeps a 4 MB filing's map under a
        // millisecond (a search builds one per hit document).
        let mut checkpoints = Vec::with_capacity(text.len() / STRIDE + 2);
        let mut boundary = 0usize;
        let mut chars = 0usize;
        let mut target = 0usize;
        while target <= text.len() {
            let mut next = target;
            while !text.is_char_boundary(next) {
                next += 1;
            }
            if next > boundary {
                chars += text[boundary..next].chars().count();
                boundary = next;
            }
            checkpoints.push((boundary, chars));
            target += STRIDE;
        }
        CharMap { text, checkpoints }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Code points before byte offset `byte` (which must be a char boundary or the end).
    pub fn char_at(&self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        let slot = byte / STRIDE;
        let (cp_byte, cp_char) = self.checkpoints[slot.min(self.checkpoints.len() - 1)];
        if cp_byte <= byte {
            cp_char + self.text[cp_byte..byte].chars().count()
        } else {
            // The checkpoint moved past `byte` to a char boundary: step back from it.
            cp_char - self.text[byte..cp_byte].chars().count()
        }
    }

    /// Byte offset of code point `ch` (clamped to the end of the text).
    pub fn byte_at(&self, ch: usize) -> usize {
        let idx = self.checkpoints.partition_point(|&(_, c)| c <= ch);
        let (mut byte, mut count) = self.checkpoints[idx.saturating_sub(1)];
        let rest = &self.text[byte..];
        for (off, _) in rest.char_indices() {
            if count == ch {
                return byte + off;
            }
            count += 1;
        }
        byte = self.text.len();
        byte
    }

    pub fn span(&self, start_byte: usize, end_byte: usize) -> Span {
        Span::new(self.char_at(start_byte), self.char_at(end_byte))
    }

    /// The text of a public span.
    pub fn slice(&self, span: Span) -> &'a str {
        let start = self.byte_at(span.start_char);
        let end = self.byte_at(span.end_char).max(start);
        &self.text[start..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_multibyte_text() {
        let text: String = "Apple’s net sales — €1,234 ".repeat(50);
        let map = CharMap::new(&text);
        for (char_idx, (byte, _)) in text.char_indices().enumerate() {
            assert_eq!(map.char_at(byte), char_idx);
            assert_eq!(map.byte_at(char_idx), byte);
        }
        let total = text.chars().count();
        assert_eq!(map.char_at(text.len()), total);
        assert_eq!(map.byte_at(total), text.len());
        assert_eq!(map.slice(Span::new(0, 7)), "Apple’s");
    }

    #[test]
    fn checkpoints_land_on_boundaries_when_wide_chars_straddle_strides() {
        // Three-byte and four-byte characters at every offset against the stride.
        for lead in 0..4 {
            let text = format!("{}{}", "a".repeat(lead), "€📈x".repeat(300));
            let map = CharMap::new(&text);
            for (char_idx, (byte, _)) in text.char_indices().enumerate() {
                assert_eq!(map.char_at(byte), char_idx);
                assert_eq!(map.byte_at(char_idx), byte);
            }
            assert_eq!(map.char_at(text.len()), text.chars().count());
        }
    }
}
