//! What the model is shown and what its answers are checked against: unsure regions,
//! block windows, packed batches, cut texts, metadata gaps.

use super::*;

/// Sections whose children are all size-bounded splits: the parsers found no headings in
/// them. `path` locates the section by child indices from the top level.
pub(super) fn unsure_regions(
    section: &Section,
    path: Vec<usize>,
    out: &mut Vec<(Vec<usize>, std::ops::Range<usize>, String)>,
) {
    if !section.children.is_empty()
        && section
            .children
            .iter()
            .all(|c| c.origin == NodeOrigin::SizeSplit)
    {
        let inside = (section.blocks.start + 1).min(section.blocks.end)..section.blocks.end;
        out.push((path, inside, section.title.clone()));
        return;
    }
    for (i, child) in section.children.iter().enumerate() {
        let mut child_path = path.clone();
        child_path.push(i);
        unsure_regions(child, child_path, out);
    }
}

pub(super) fn section_at<'s>(
    sections: &'s mut [Section],
    path: &[usize],
) -> Option<&'s mut Section> {
    let (first, rest) = path.split_first()?;
    let mut current = sections.get_mut(*first)?;
    for &i in rest {
        current = current.children.get_mut(i)?;
    }
    Some(current)
}

/// The blocks of `range` that could be headings, as listing lines in windows of at most
/// `max_chars`.
pub(super) fn block_windows(
    c: &Canonical,
    range: std::ops::Range<usize>,
    max_chars: usize,
) -> Vec<Vec<BlockLine>> {
    let mut windows = Vec::new();
    let mut current: Vec<BlockLine> = Vec::new();
    let mut size = 0;
    for block in range {
        if c.blocks[block].kind == BlockKind::TableRow {
            continue;
        }
        let text = c
            .block_text(block)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() {
            continue;
        }
        let line = cut_chars(&text, 100);
        if size + line.len() > max_chars && !current.is_empty() {
            windows.push(std::mem::take(&mut current));
            size = 0;
        }
        size += line.len() + 8;
        current.push(BlockLine { block, text: line });
    }
    if !current.is_empty() {
        windows.push(current);
    }
    windows
}

/// The heading as it stands in the block, when the block's text starts with `claimed`
/// (ignoring case, spacing and trailing punctuation).
pub(super) fn confirmed_title(block_text: &str, claimed: &str) -> Option<String> {
    let block = fold(block_text);
    let title = fold(claimed.trim().trim_end_matches(['.', ':']));
    if title.is_empty() || title.chars().count() > 200 || !block.starts_with(&title) {
        return None;
    }
    // A line of figures is a table row, whatever the model says.
    let figures = block
        .split_whitespace()
        .take(12)
        .filter(|w| {
            w.chars().any(|c| c.is_ascii_digit())
                && w.chars()
                    .all(|c| c.is_ascii_digit() || ",.()$%-".contains(c))
        })
        .count();
    if figures >= 3 {
        return None;
    }
    let written = block_text.split_whitespace().collect::<Vec<_>>().join(" ");
    if written.chars().count() <= 160 {
        Some(written)
    } else {
        Some(claimed.split_whitespace().collect::<Vec<_>>().join(" "))
    }
}

/// The text with its blank lines and runs of spaces dropped: the same words in fewer tokens.
pub(super) fn compact(text: &str) -> String {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lowercase with runs of whitespace as one space and typographic quotes made plain.
pub(super) fn fold(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .replace(['’', '‘'], "'")
        .replace(['“', '”'], "\"")
}

pub(super) fn cut_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    }
}

/// At most about `tokens` tokens of `text` (four characters each), cut at a char boundary.
pub(super) fn cut_to_tokens(text: &str, tokens: usize) -> &str {
    let max = tokens * 4;
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Group summary inputs into batches under the prompt budget, at most `most` to a batch.
pub(super) fn pack(
    inputs: Vec<SummaryInput>,
    budget_tokens: usize,
    most: usize,
) -> Vec<Vec<SummaryInput>> {
    let mut batches = Vec::new();
    let mut current = Vec::new();
    let mut size = 0;
    for input in inputs {
        let cost = (input.text.len()
            + input.path.len()
            + input
                .children
                .iter()
                .map(|(t, s)| t.len() + s.len() + 4)
                .sum::<usize>())
            / 4
            + 20;
        if (size + cost > budget_tokens || current.len() >= most) && !current.is_empty() {
            batches.push(std::mem::take(&mut current));
            size = 0;
        }
        size += cost;
        current.push(input);
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}

pub(super) fn missing_fields(m: &Metadata) -> Vec<&'static str> {
    let mut missing = Vec::new();
    let checks: [(&'static str, bool); 7] = [
        ("company_name", m.company_name.is_none()),
        ("ticker", m.ticker.is_none()),
        ("filing_date", m.filing_date.is_none()),
        ("period_end_date", m.period_end_date.is_none()),
        ("fiscal_year", m.fiscal_year.is_none()),
        ("fiscal_quarter", m.fiscal_quarter.is_none()),
        ("key_people", m.key_people.is_empty()),
    ];
    for (field, is_missing) in checks {
        if is_missing {
            missing.push(field);
        }
    }
    missing
}

pub(super) fn known_fields(m: &Metadata) -> Vec<(String, String)> {
    let mut known = Vec::new();
    let mut add = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            known.push((k.to_string(), v));
        }
    };
    add("company_name", m.company_name.clone());
    add("ticker", m.ticker.clone());
    add("filing_date", m.filing_date.clone());
    add("period_end_date", m.period_end_date.clone());
    add("fiscal_year", m.fiscal_year.map(|y| y.to_string()));
    add("fiscal_quarter", m.fiscal_quarter.map(|q| q.to_string()));
    known
}

pub(super) fn is_iso_date(v: &str) -> bool {
    let parts: Vec<&str> = v.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && matches!(parts[1].parse::<u8>(), Ok(1..=12))
        && matches!(parts[2].parse::<u8>(), Ok(1..=31))
}

#[cfg(test)]
mod tests {
    use super::pack;
    use crate::prompts::enhance::SummaryInput;

    fn input(i: usize) -> SummaryInput {
        SummaryInput {
            node_id: format!("{i:04}"),
            path: format!("Item {i}"),
            text: "Revenue grew 5% to $1,200 million. ".repeat(4),
            children: Vec::new(),
        }
    }

    #[test]
    fn batches_hold_no_more_summaries_than_the_reply_allows() {
        let roomy = pack((0..45).map(input).collect(), 1_000_000, usize::MAX);
        assert_eq!(roomy.len(), 1);
        let small = pack((0..45).map(input).collect(), 1_000_000, 20);
        let sizes: Vec<usize> = small.iter().map(Vec::len).collect();
        assert_eq!(sizes, [20, 20, 5]);
    }
}
