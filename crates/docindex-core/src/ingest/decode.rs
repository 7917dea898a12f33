//! Bytes to text: BOMs, declared HTML charsets, then statistical detection for legacy
//! encodings (Windows-1252, Latin-1 and the like). Binary data is refused.

use crate::error::{IngestError, Result};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// Decoded text and the name of the encoding it came from.
pub struct Decoded {
    pub text: String,
    pub encoding: &'static str,
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
        let (text, _, _) = encoding.decode(bytes);
        return Ok(Decoded {
            text: text.into_owned(),
            encoding: encoding.name(),
        });
    }
    if let Some(encoding) = utf16_without_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(bytes);
        return Ok(Decoded {
            text: text.into_owned(),
            encoding: encoding.name(),
        });
    }
    let sample = &bytes[..bytes.len().min(64 * 1024)];
    if looks_binary(sample) {
        return Err(IngestError::Binary(
            "control characters that text documents do not contain".into(),
        ));
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Decoded {
            text: text.to_owned(),
            encoding: UTF_8.name(),
        });
    }
    let encoding = declared_charset(sample)
        .filter(|e| *e != UTF_8)
        .unwrap_or_else(|| {
            let mut detector =
                chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            detector.feed(bytes, true);
            detector.guess(None, chardetng::Utf8Detection::Allow)
        });
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    Ok(Decoded {
        text: text.into_owned(),
        encoding: encoding.name(),
    })
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
