//! Analysts' shorthand ("ttl current liabs", "op cash flow", "SG&A exp. in '22") read as the
//! words it stands for before anything else of the question is read; the pairs are the
//! vocabulary's `shorthand`.

use super::vocabulary::Vocabulary;
use regex::Regex;
use std::sync::LazyLock;

/// Characters a token may carry around its word: "(ttl", "liabs,", "exp.?".
const EDGE: &[char] = &['(', ')', '[', ']', ',', ';', ':', '?', '!', '"', '“', '”'];

/// "E.P.S.", "e.b.i.t.d.a.", "R.O.E": an acronym written with a dot after each letter.
static DOTTED_ACRONYM: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b(?:[A-Za-z]\.){2,}(?:[A-Za-z]\b\.?)?").ok());

/// `text` with acronyms written with dots ("E.P.S.") written as one word ("EPS"); "i.e.",
/// "e.g." and "U.S." stay as they are.
fn undotted(text: &str) -> String {
    let Some(re) = DOTTED_ACRONYM.as_ref() else {
        return text.to_string();
    };
    re.replace_all(text, |c: &regex::Captures| {
        let written = &c[0];
        let letters: String = written.chars().filter(char::is_ascii_alphabetic).collect();
        match letters.to_ascii_lowercase().as_str() {
            "ie" | "eg" | "us" | "uk" | "am" | "pm" => written.to_string(),
            // In capitals, as acronyms are written: "l.t.d." is "LTD", long-term debt.
            _ => letters.to_ascii_uppercase(),
        }
    })
    .into_owned()
}

/// `text` with every shorthand written out, matched on whole tokens and case-insensitively,
/// the longest first; the rest is kept as written.
pub fn expanded(text: &str, v: &Vocabulary) -> String {
    let text = undotted(text);
    let text = with_figures_for_titles(&text, v);
    let text = text
        .split_whitespace()
        .map(|token| {
            let lead: String = token.chars().take_while(|c| EDGE.contains(c)).collect();
            let body = token[lead.len()..].trim_end_matches(EDGE);
            match v.capitals_shorthand.iter().find(|[short, _]| short == body) {
                Some([short, long]) => format!("{lead}{long}{}", trailing(token, short.len())),
                None => token.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = tokens
        .iter()
        .map(|t| t.trim_matches(EDGE).to_lowercase())
        .collect();
    // Longer shorthand first: "op inc" before "op".
    let mut entries: Vec<&[String; 2]> = v.shorthand.iter().collect();
    entries.sort_by_key(|[short, _]| {
        std::cmp::Reverse((short.split_whitespace().count(), short.len()))
    });
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let found = entries.iter().find_map(|[short, long]| {
            let words: Vec<&str> = short.split_whitespace().collect();
            let end = i + words.len();
            (end <= tokens.len()
                && words
                    .iter()
                    .zip(&lower[i..end])
                    .all(|(w, t)| bare(t, w) == *w))
            .then_some((end, long))
        });
        match found {
            Some((end, long)) => {
                let first = tokens[i];
                let last = tokens[end - 1];
                let lead: String = first.chars().take_while(|c| EDGE.contains(c)).collect();
                let short_last = lower[end - 1].len();
                // What followed the shorthand in its last token: "liabs," keeps its comma.
                let trail = trailing(last, short_last);
                out.push(format!("{lead}{long}{trail}"));
                i = end;
            }
            None => {
                out.push(within_hyphens(tokens[i], v));
                i += 1;
            }
        }
    }
    out.join(" ")
}

/// `text` with a title that is also a figure's shorthand ("CFO") written as the figure when
/// the question names a period and asks nothing of a person: "Nike's CFO in FY23?" asks
/// its operating cash flow, "Who was Nike's CFO in FY23?" its officer.
fn with_figures_for_titles(text: &str, v: &Vocabulary) -> String {
    let lower = text.to_lowercase();
    let words = crate::search::words(&lower);
    let about_a_person = words.iter().any(|w| v.person_words.contains(w));
    if about_a_person || super::periods::periods_in(text).is_empty() {
        return text.to_string();
    }
    text.split_whitespace()
        .map(|token| {
            // "The CFO's office": a possessive title is the person's.
            let bare = token.trim_matches(EDGE).to_lowercase();
            match v
                .figure_or_person_shorthand
                .iter()
                .find(|[short, _]| *short == bare)
            {
                Some([short, long]) => {
                    let lead: String = token.chars().take_while(|c| EDGE.contains(c)).collect();
                    format!("{lead}{long}{}", trailing(token, short.len()))
                }
                None => token.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A token joined by hyphens or slashes with each of its parts written out
/// ("exp.-to-revenue" is "expense-to-revenue", "CFO/NI" "CFO/net income").
fn within_hyphens(token: &str, v: &Vocabulary) -> String {
    // A word of its own is no compound: "Who is Apple's CFO?" asks for an officer.
    if !token.contains(['-', '/']) {
        return token.to_string();
    }
    // "CFO-office", "IR-team": a shorthand joined to a word of no figure is an adjective
    // of the asker's, not a figure ("CFO/NI", "OCF-to-CL", "exp.-to-revenue" are figures).
    let is_shorthand = |part: &str| {
        let lower = part.trim_matches(EDGE).trim_end_matches('.').to_lowercase();
        v.shorthand
            .iter()
            .chain(&v.compound_shorthand)
            .any(|[short, _]| !short.contains(' ') && *short == lower)
    };
    let of_a_figure = |part: &str| {
        let lower = part.trim_matches(EDGE).trim_end_matches('.').to_lowercase();
        lower.is_empty()
            || is_shorthand(part)
            || ["to", "vs", "over", "per", "and", "of", "adjusted", "based"]
                .contains(&lower.as_str())
            || lower.chars().all(|c| c.is_ascii_digit())
            || crate::finance::concepts::concept_table()
                .is_ok_and(|table| table.is_phrasing_word(&lower))
    };
    if !token.split(['-', '/']).all(of_a_figure) {
        return token.to_string();
    }
    let mut out = String::new();
    let mut part = String::new();
    let written_out = |part: &str| {
        let word = part.trim_matches(EDGE);
        // "exp." is a shorthand with its full stop; "CL." one that ends a sentence.
        let candidates = [word, word.trim_end_matches('.')];
        let found = candidates.iter().find_map(|w| {
            let lower = w.to_lowercase();
            v.shorthand
                .iter()
                .chain(&v.compound_shorthand)
                .find(|[short, _]| !short.contains(' ') && *short == lower)
                .map(|[_, long]| (*w, long))
        });
        match found {
            Some((w, long)) if !w.is_empty() => part.replacen(w, long, 1),
            _ => part.to_string(),
        }
    };
    for c in token.chars() {
        if c == '-' || c == '/' {
            out.push_str(&written_out(&part));
            out.push(c);
            part.clear();
        } else {
            part.push(c);
        }
    }
    out.push_str(&written_out(&part));
    out
}

/// The token without a full stop that ends the sentence, when the shorthand has none
/// ("liabs." is "liabs"; "exp." stays "exp.").
fn bare<'t>(token: &'t str, word: &str) -> &'t str {
    match (token.strip_suffix('.'), word.ends_with('.')) {
        (Some(without), false) => without,
        _ => token,
    }
}

/// The characters after the word in `token`, whose trimmed lowercase form is `len` bytes.
fn trailing(token: &str, len: usize) -> String {
    let start = token.len() - token.trim_start_matches(EDGE).len();
    token.get(start + len..).unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::super::vocabulary::vocabulary;
    use super::*;

    fn expand(text: &str) -> String {
        expanded(text, vocabulary().unwrap())
    }

    #[test]
    fn shorthand_is_written_out_and_the_rest_kept() {
        assert_eq!(
            expand("Off AbbVie's B/S, ttl assets at 12/31/23 in bn?"),
            "Off AbbVie's balance sheet, total assets at 12/31/23 in bn?"
        );
        assert_eq!(
            expand("AbbVie: SG&A exp. in '22 -- what's the reported number?"),
            "AbbVie: SG&A expense in '22 -- what's the reported number?"
        );
        assert_eq!(
            expand("need Cisco's dil. EPS and its current liabs (ttl), thx"),
            "need Cisco's diluted EPS and its current liabilities (total), thx"
        );
        assert_eq!(
            expand("whats Johnson & Johnson's dep & amort in '23"),
            "whats Johnson & Johnson's depreciation and amortization in '23"
        );
        assert_eq!(
            expand("mean of annual SG&A exp.-to-revenue %"),
            "mean of annual SG&A expense-to-revenue %"
        );
        assert_eq!(
            expand("Colgate's CFO/NI for FY23?"),
            "Colgate's operating cash flow/net income for FY23?"
        );
        assert_eq!(expand("Meta's R&D/NI"), "Meta's R&D/net income");
        assert_eq!(expand("net A/R at YE"), "net A/R at YE");
        assert_eq!(expand("Who is Apple's CFO?"), "Who is Apple's CFO?");
        assert_eq!(
            expand("For our CFO-office deck: GE's EPS"),
            "For our CFO-office deck: GE's EPS"
        );
        assert_eq!(expand("GM op inc in '23"), "GM operating income in '23");
        assert_eq!(
            expand("J&J's OCF-to-CL ratio, and CL's revenue"),
            "J&J's operating cash flow-to-current liabilities ratio, and CL's revenue"
        );
        // A title that is also a figure's shorthand is the figure when a period is asked.
        assert_eq!(
            expand("Nike's CFO in FY23, in $m?"),
            "Nike's operating cash flow in FY23, in $m?"
        );
        assert_eq!(
            expand("Who was Nike's CFO in FY23?"),
            "Who was Nike's CFO in FY23?"
        );
        assert_eq!(
            expand("Benchmarking against Nike in the CFO's office: inventory in FY23?"),
            "Benchmarking against Nike in the CFO's office: inventory in FY23?"
        );
        assert_eq!(
            expand("Tesla's LTD excluding the current piece"),
            "Tesla's long-term debt excluding the current piece"
        );
        assert_eq!(expand("Tata Motors Ltd revenue"), "Tata Motors Ltd revenue");
        // An acronym written with dots is the acronym; "i.e." and "U.S." stay.
        assert_eq!(
            expand("Nike's E.P.S. growth and e.b.i.t.d.a. in FY23, i.e. U.S. GAAP"),
            "Nike's EPS growth and EBITDA in FY23, i.e. U.S. GAAP"
        );
        // Words that only begin like a shorthand are kept.
        assert_eq!(
            expand("Operating income in total"),
            "Operating income in total"
        );
    }
}
