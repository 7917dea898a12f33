//! What a PDF's compressed streams cost once inflated, measured before the reader parses
//! them: a 600 KB file whose content inflates to 200 MB of drawing operators (a
//! decompression bomb) would cost the reader gigabytes and minutes for no text, so it is
//! refused, naming the budget. Every stream is tried, whatever its dictionary says: a
//! filter's name can be abbreviated (`/Fl`), given by reference or hidden in an array, and a
//! key like `/Image` is the file's word, not the reader's. A stream that is zlib data inside
//! zlib data (`[/FlateDecode /FlateDecode]`) is counted at its innermost layer. Real
//! filings' images are mostly JPEG (not zlib) and their Flate streams inflate under 20 times
//! the file's size.

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

/// The bytes the zlib-compressed streams of `bytes` inflate to, counted up to `limit`:
/// `Err(limit)` when they inflate past it. A stream that does not inflate cleanly counts
/// what it gave (nothing, for a JPEG); the reader decides what to make of it.
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
        let left = limit.saturating_sub(total);
        total = total.saturating_add(inflated_size(&bytes[data..], left));
        if total > limit {
            return Err(limit);
        }
    }
    Ok(total)
}

/// How many layers of zlib a stream may be wrapped in and still be counted at its core.
const MAX_LAYERS: usize = 4;

/// What `data` inflates to through every zlib layer it is wrapped in, counted up to one
/// byte past `left`.
fn inflated_size(data: &[u8], left: u64) -> u64 {
    let mut layers = 0;
    while layers < MAX_LAYERS && inflates_to_zlib(data, layers) {
        layers += 1;
    }
    let mut reader: Box<dyn Read + '_> = Box::new(ZlibDecoder::new(data));
    for _ in 0..layers {
        reader = Box::new(ZlibDecoder::new(reader));
    }
    std::io::copy(
        &mut reader.take(left.saturating_add(1)),
        &mut std::io::sink(),
    )
    .unwrap_or(0)
}

/// Whether `data`, inflated through `layers + 1` layers, begins with a zlib header: another
/// layer to go through.
fn inflates_to_zlib(data: &[u8], layers: usize) -> bool {
    let mut reader: Box<dyn Read + '_> = Box::new(ZlibDecoder::new(data));
    for _ in 0..layers {
        reader = Box::new(ZlibDecoder::new(reader));
    }
    let mut head = [0u8; 2];
    if reader.read_exact(&mut head).is_err() {
        return false;
    }
    // RFC 1950: deflate (CM 8), a window of at most 32 KB, and a header check.
    head[0] & 0x0f == 8
        && head[0] >> 4 <= 7
        && (u16::from(head[0]) * 256 + u16::from(head[1])) % 31 == 0
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
        // A dictionary's word for what the stream is decides nothing.
        for dict in [
            "/Subtype /Image /Filter /FlateDecode",
            "/Filter /Fl",
            "/Filter 9 0 R",
            "/Image true /Filter /FlateDecode",
        ] {
            let mut disguised = pdf.clone();
            disguised.extend(stream(dict, &drawing));
            assert_eq!(
                inflated_within(&disguised, 1_000_000),
                Err(1_000_000),
                "{dict}"
            );
        }
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

    #[test]
    fn a_bomb_wrapped_in_layers_of_zlib_is_counted_at_its_core() {
        let drawing = b"0 0 m 1 1 l S\n".repeat(400_000);
        let mut inner = ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        inner.write_all(&drawing).unwrap();
        let inner = inner.finish().unwrap();
        let mut pdf = b"%PDF-1.4\n".to_vec();
        pdf.extend(stream("/Filter [/FlateDecode /FlateDecode]", &inner));
        assert!(pdf.len() < 10_000, "{}", pdf.len());
        assert_eq!(inflated_within(&pdf, 1_000_000), Err(1_000_000));
        assert_eq!(inflated_within(&pdf, 10_000_000), Ok(drawing.len() as u64));
    }
}
