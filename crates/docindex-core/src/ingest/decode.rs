//! Bytes to text: BOMs, declared HTML charsets, then statistical detection for legacy
//! encodings (Windows-1252, Latin-1 and the like). Binary data is refused.

use crate::error::{IngestError, Result};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// Decoded text and the name of the encoding it came from.
pub struct Decoded {
    pub text: String,
    pub encoding: &'static str,
    /// Characters that could not be decoded and stand as U+FFFD in `text`.
    pub replaced: usize,
}

/// Past this share of characters that could not be decoded, a text is refused: it is not
/// in the encoding it claims (or seems) to be, and an index of it would be noise.
pub const MAX_UNDECODABLE_SHARE: f64 = 0.2;

impl Decoded {
    fn of(
        text: std::borrow::Cow<'_, str>,
        encoding: &'static Encoding,
        lossy: bool,
    ) -> Result<Self> {
        let replaced = match lossy {
            true => text
                .chars()
                .filter(|c| *c == char::REPLACEMENT_CHARACTER)
                .count(),
            false => 0,
        };
        let total = text.chars().count().max(1);
        let share = replaced as f64 / total as f64;
        if share > MAX_UNDECODABLE_SHARE {
            return Err(IngestError::Undecodable {
                encoding: encoding.name().to_string(),
                percent: (share * 100.0).round() as u32,
            });
        }
        Ok(Decoded {
            text: text.into_owned(),
            encoding: encoding.name(),
            replaced,
        })
    }

    /// The warning a user reads when some of the text could not be decoded.
    pub fn warning(&self) -> Option<String> {
        let total = self.text.chars().count().max(1);
        (self.replaced > 0).then(|| {
            format!(
                "{} character(s) ({:.1}% of the text) could not be decoded as {} and were replaced with U+FFFD",
                self.replaced,
                self.replaced as f64 * 100.0 / total as f64,
                self.encoding
            )
        })
    }
}

/// Decode `bytes`, refusing empty input and binary data.
pub fn decode(bytes: &[u8]) -> Result<Decoded> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(IngestError::Empty);
    }
    if let Some(kind) = binary_signature(bytes) {
        return Err(IngestError::Binary(kind.to_string()));
    }
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        let (text, _, lossy) = encoding.decode(bytes);
        return Decoded::of(text, encoding, lossy);
    }
    if let Some(encoding) = utf16_without_bom(bytes) {
        let (text, lossy) = encoding.decode_without_bom_handling(bytes);
        return Decoded::of(text, encoding, lossy);
    }
    let sample = &bytes[..bytes.len().min(64 * 1024)];
    if looks_binary(sample) {
        return Err(IngestError::Binary(
            "control characters that text documents do not contain".into(),
        ));
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Decoded::of(std::borrow::Cow::Borrowed(text), UTF_8, false);
    }
    let encoding = declared_charset(sample)
        .filter(|e| *e != UTF_8)
        .unwrap_or_else(|| {
            let mut detector =
                chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            detector.feed(bytes, true);
            detector.guess(None, chardetng::Utf8Detection::Allow)
        });
    let (text, lossy) = encoding.decode_without_bom_handling(bytes);
    Decoded::of(text, encoding, lossy)
}

fn binary_signature(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: [(&[u8], &str); 9] = [
        (b"%PDF", "a PDF file"),
        (b"PK\x03\x04", "a ZIP archive or Office document"),
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"\x7fELF", "an executable"),
        (b"\x1f\x8b", "a gzip archive"),
        (b"\xd0\xcf\x11\xe0", "a legacy Office document"),
        (b"SQLite format 3", "a SQLite database"),
    ];
    SIGNATURES
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|(_, kind)| *kind)
}

/// UTF-16 without a BOM shows up as every other byte being zero in ASCII-heavy text.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    if sample.len() < 16 {
        return None;
    }
    let pairs = sample.len() / 2;
    let even_zero = sample.iter().step_by(2).filter(|b| **b == 0).count();
    let odd_zero = sample
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|b| **b == 0)
        .count();
    if odd_zero * 10 > pairs * 9 && even_zero == 0 {
        Some(UTF_16LE)
    } else if even_zero * 10 > pairs * 9 && odd_zero == 0 {
        Some(UTF_16BE)
    } else {
        None
    }
}

fn looks_binary(sample: &[u8]) -> bool {
    if sample.contains(&0) {
        return true;
    }
    let control = sample
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c))
        .count();
    control * 100 > sample.len()
}

/// `<meta charset=…>` or `content="text/html; charset=…"` in the first bytes.
fn declared_charset(sample: &[u8]) -> Option<&'static Encoding> {
    let head = String::from_utf8_lossy(&sample[..sample.len().min(8192)]).to_ascii_lowercase();
    let at = head.find("charset=")?;
    let rest = head[at + 8..].trim_start_matches(['"', '\'']);
    let label: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    Encoding::for_label(label.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_utf16_with_bom() {
        let mut bytes = vec![0xff, 0xfe];
        for unit in "Net sales €5".encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        let decoded = decode(&bytes).unwrap();
        assert_eq!(decoded.text, "Net sales €5");
        assert_eq!(decoded.encoding, "UTF-16LE");
    }

    #[test]
    fn text_that_does_not_decode_is_counted_and_past_a_fifth_refused() {
        // UTF-16LE with a BOM, and lone surrogates where characters should be.
        let utf16 = |text: &str, broken: usize| {
            let mut bytes = vec![0xFF, 0xFE];
            for unit in text.encode_utf16() {
                bytes.extend(unit.to_le_bytes());
            }
            for _ in 0..broken {
                bytes.extend(0xD800u16.to_le_bytes());
                bytes.extend(u16::from(b'x').to_le_bytes());
            }
            bytes
        };
        let clean = decode(&utf16("Net sales were $5 million in the quarter.", 0)).unwrap();
        assert_eq!(clean.replaced, 0);
        assert_eq!(clean.warning(), None);
        let some = decode(&utf16("Net sales were $5 million in the quarter.", 3)).unwrap();
        assert_eq!(some.replaced, 3);
        let warning = some.warning().unwrap();
        assert!(
            warning.starts_with("3 character(s)") && warning.contains("UTF-16LE"),
            "{warning}"
        );
        let mostly = decode(&utf16("Net sales", 40)).err().unwrap();
        assert!(
            matches!(mostly, IngestError::Undecodable { ref encoding, .. } if encoding == "UTF-16LE"),
            "{mostly:?}"
        );
    }

    #[test]
    fn decodes_windows_1252_quotes() {
        let bytes = b"The Company\x92s \x93Adjusted EBITDA\x94 rose to \x80 5 million in fiscal 1999, as described in Item 7.".to_vec();
        let decoded = decode(&bytes).unwrap();
        assert!(
            decoded.text.contains("Company’s “Adjusted EBITDA”"),
            "{}",
            decoded.text
        );
        assert!(decoded.text.contains("€ 5"));
    }

    #[test]
    fn refuses_empty_and_binary() {
        assert_eq!(decode(b"  \n\t ").err(), Some(IngestError::Empty));
        assert!(matches!(
            decode(b"%PDF-1.7 ..."),
            Err(IngestError::Binary(_))
        ));
        assert!(matches!(
            decode(&[1u8, 2, 3, 0, 5, 6, 7, 8, 9, 10]),
            Err(IngestError::Binary(_))
        ));
    }
}
