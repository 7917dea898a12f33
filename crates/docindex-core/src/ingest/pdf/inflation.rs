//! What a PDF's compressed streams cost once inflated, measured before the reader parses
//! them: a 600 KB file whose content inflates to 200 MB of drawing operators (a
//! decompression bomb) would cost the reader gigabytes and minutes for no text, so it is
//! refused, naming the budget. Image streams are not counted: the reader does not draw them.

use flate2::read::ZlibDecoder;
use std::io::Read;

/// The inflated size past which a PDF is refused: `ratio` times its own size, and never
/// less than `floor` bytes (real filings inflate their text and fonts a few times over).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InflationBudget {
    pub ratio: u64,
    pub floor: u64,
}

impl InflationBudget {
    pub fn for_file(&self, file_bytes: usize) -> u64 {
        (file_bytes as u64)
            .saturating_mul(self.ratio)
            .max(self.floor)
    }
}

/// The bytes the Flate-compressed streams of `bytes` (images aside) inflate to, counted up
/// to `limit`: `Err(limit)` when they inflate past it. A stream that does not inflate
/// cleanly counts what it gave; the reader decides what to make of it.
pub fn inflated_within(bytes: &[u8], limit: u64) -> Result<u64, u64> {
    let mut total: u64 = 0;
    let mut from = 0;
    while let Some(at) = find(&bytes[from..], b"stream").map(|i| i + from) {
        from = at + b"stream".len();
        // "endstream" holds "stream" too.
        if at >= 3 && &bytes[at - 3..at] == b"end" {
            continue;
        }
        let Some(data) = stream_data_start(bytes, from) else {
            continue;
        };
        let dict_start = at.saturating_sub(2048);
        let dict = &bytes[dict_start..at];
        let dict = match rfind(dict, b"obj") {
            Some(obj) => &dict[obj..],
            None => dict,
        };
        if find(dict, b"/FlateDecode").is_none() || find(dict, b"/Image").is_some() {
            continue;
        }
        let left = limit.saturating_sub(total);
        let mut decoder = ZlibDecoder::new(&bytes[data..]).take(left.saturating_add(1));
        let inflated = std::io::copy(&mut decoder, &mut std::io::sink()).unwrap_or(0);
        total = total.saturating_add(inflated);
        if total > limit {
            return Err(limit);
        }
    }
    Ok(total)
}

/// Where a stream's data starts after the `stream` keyword: past its end of line.
fn stream_data_start(bytes: &[u8], after_keyword: usize) -> Option<usize> {
    match bytes.get(after_keyword..after_keyword + 2)? {
        [b'\r', b'\n'] => Some(after_keyword + 2),
        [b'\n', _] | [b'\r', _] => Some(after_keyword + 1),
        _ => None,
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::ZlibEncoder;
    use std::io::Write;

    fn stream(dict: &str, content: &[u8]) -> Vec<u8> {
        let mut encoder = ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(content).unwrap();
        let data = encoder.finish().unwrap();
        let mut out =
            format!("4 0 obj\n<< /Length {} {dict} >>\nstream\n", data.len()).into_bytes();
        out.extend(data);
        out.extend(b"\nendstream\nendobj\n");
        out
    }

    #[test]
    fn a_stream_inflating_past_the_budget_is_caught_and_images_are_not_counted() {
        let drawing = b"0 0 m 1 1 l S\n".repeat(400_000);
        let mut pdf = b"%PDF-1.4\n".to_vec();
        pdf.extend(stream("/Filter /FlateDecode", b"BT (Revenue) Tj ET"));
        assert_eq!(inflated_within(&pdf, 1_000_000), Ok(18));
        let mut image = pdf.clone();
        image.extend(stream("/Subtype /Image /Filter /FlateDecode", &drawing));
        assert_eq!(inflated_within(&image, 1_000_000), Ok(18));
        pdf.extend(stream("/Filter /FlateDecode", &drawing));
        assert!(pdf.len() < 100_000, "{}", pdf.len());
        assert_eq!(inflated_within(&pdf, 1_000_000), Err(1_000_000));
        assert_eq!(
            inflated_within(&pdf, 10_000_000),
            Ok(18 + drawing.len() as u64)
        );
        let budget = InflationBudget {
            ratio: 50,
            floor: 1_000,
        };
        assert_eq!(budget.for_file(100), 5_000);
        assert_eq!(budget.for_file(10), 1_000);
    }
}
