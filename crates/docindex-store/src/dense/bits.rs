//! The sign bits of the dense index: one per dimension, and the Hamming scan of every
//! vector's bits that picks a search's shortlist.

/// The Hamming distance of each code (`words` little-endian u64 each) to `query`, in
/// order. With the CPU's POPCNT instruction when it has one: the portable bit count is
/// several times slower, and this scan of every vector is most of the dense leg's time.
pub(super) fn hamming_distances(codes: &[u8], words: usize, query: &[u64]) -> Vec<u16> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (checked just above).
        return unsafe { hamming_distances_popcnt(codes, words, query) };
    }
    hamming_distances_portable(codes, words, query)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn hamming_distances_popcnt(codes: &[u8], words: usize, query: &[u64]) -> Vec<u16> {
    hamming_distances_portable(codes, words, query)
}

#[inline(always)]
pub(super) fn hamming_distances_portable(codes: &[u8], words: usize, query: &[u64]) -> Vec<u16> {
    // The codes are read where they lie (a mapped file need not align them to 8 bytes).
    let codes = codes.as_chunks::<8>().0;
    // A code of a known length is unrolled: the scan of every vector runs beside the
    // lexical legs, and a loop of unknown length over six words is most of its cost.
    match words {
        6 => hamming_distances_of::<6>(codes, query),
        12 => hamming_distances_of::<12>(codes, query),
        16 => hamming_distances_of::<16>(codes, query),
        _ => codes
            .chunks_exact(words.max(1))
            .map(|code| {
                code.iter()
                    .zip(query)
                    .map(|(a, b)| (u64::from_le_bytes(*a) ^ b).count_ones() as u16)
                    .sum()
            })
            .collect(),
    }
}

#[inline(always)]
fn hamming_distances_of<const WORDS: usize>(codes: &[[u8; 8]], query: &[u64]) -> Vec<u16> {
    let mut query_words = [0u64; WORDS];
    for (to, from) in query_words.iter_mut().zip(query) {
        *to = *from;
    }
    codes
        .chunks_exact(WORDS)
        .map(|code| {
            let mut bits = 0u32;
            for w in 0..WORDS {
                bits += (u64::from_le_bytes(code[w]) ^ query_words[w]).count_ones();
            }
            bits as u16
        })
        .collect()
}

/// One bit per dimension, set where the value is positive.
pub(super) fn sign_code(values: impl Iterator<Item = f32>, words: usize) -> Vec<u64> {
    let mut code = vec![0u64; words];
    for (d, v) in values.enumerate() {
        if v > 0.0 {
            code[d / 64] |= 1 << (d % 64);
        }
    }
    code
}
