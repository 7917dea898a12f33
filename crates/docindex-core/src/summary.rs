//! Extractive summaries: the opening sentences of a node's own text, verbatim.

/// At most `max_chars` of leading sentences from `body` (the node text after its title).
/// Falls back to the children's titles when the node has no prose of its own.
pub fn extractive(body: &str, child_titles: &[&str], max_chars: usize) -> String {
    let mut out = String::new();
    for line in body.split('\n') {
        let line = line.trim();
        // Table rows and short labels are not prose.
        if line.contains(" | ") || line.split_whitespace().count() < 6 {
            continue;
        }
        for sentence in sentences(line) {
            if !out.is_empty() && out.chars().count() + sentence.chars().count() + 1 > max_chars {
                return out;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            if sentence.chars().count() > max_chars {
                let cut: String = sentence.chars().take(max_chars.saturating_sub(1)).collect();
                out.push_str(cut.trim_end());
                out.push('…');
                return out;
            }
            out.push_str(sentence);
        }
        if out.chars().count() >= max_chars / 2 {
            break;
        }
    }
    if out.is_empty() && !child_titles.is_empty() {
        let mut list = String::from("Sections: ");
        for (i, t) in child_titles.iter().enumerate() {
            if list.chars().count() + t.chars().count() > max_chars {
                list.push('…');
                break;
            }
            if i > 0 {
                list.push_str("; ");
            }
            list.push_str(t);
        }
        return list;
    }
    if out.is_empty() {
        if let Some(first) = body.lines().map(str::trim).find(|l| !l.is_empty()) {
            out = first.chars().take(max_chars).collect();
        }
    }
    out
}

/// Split at `. `, `! `, `? ` followed by a capital, a digit or a quote; keep abbreviations
/// like `U.S. ` and `Inc. ` attached.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 2 < bytes.len() {
        if matches!(bytes[i], b'.' | b'!' | b'?') && bytes[i + 1] == b' ' {
            let next = text[i + 2..].chars().next().unwrap_or(' ');
            let word_start = text[..i].rfind(' ').map(|p| p + 1).unwrap_or(0);
            let word = &text[word_start..i];
            let abbreviation = word.len() <= 3
                && word.chars().next().is_some_and(|c| c.is_uppercase())
                || matches!(
                    word,
                    "Inc" | "Corp" | "Co" | "Ltd" | "No" | "vs" | "approx" | "Mr" | "Ms" | "Dr"
                );
            if (next.is_uppercase() || next.is_ascii_digit() || next == '“' || next == '"')
                && !abbreviation
            {
                out.push(text[start..=i].trim());
                start = i + 2;
            }
        }
        i += 1;
    }
    if start < text.len() {
        out.push(text[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_leading_sentences_verbatim() {
        let body = "Net sales | $391,035\nThe Company designs, manufactures and markets smartphones. Net sales rose 2% in 2024 compared to 2023. Apple Inc. sells in the U.S. and abroad.";
        let s = extractive(body, &[], 120);
        assert_eq!(s, "The Company designs, manufactures and markets smartphones. Net sales rose 2% in 2024 compared to 2023.");
        assert!(body.contains("Net sales rose 2% in 2024 compared to 2023."));
    }

    #[test]
    fn lists_children_when_no_prose() {
        assert_eq!(
            extractive("PART I", &["Item 1. Business", "Item 2. Properties"], 200),
            "Sections: Item 1. Business; Item 2. Properties"
        );
    }
}
