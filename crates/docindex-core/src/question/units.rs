//! The unit an amount is asked in, read as a small grammar of currency, scale and filler
//! words: "[USD m]", "(billions, e.g. 12.3)", "in million dollars".

use super::Scale;
use serde::Deserialize;

/// The unit words (`[units]` of `question-words.toml`).
#[derive(Debug, Clone, Deserialize)]
pub struct UnitWords {
    pub currency: Vec<String>,
    pub percent: Vec<String>,
    pub filler: Vec<String>,
    pub thousands: Vec<String>,
    pub millions: Vec<String>,
    pub billions: Vec<String>,
    /// "times", "x": a multiple is asked ("(in times, e.g. 1.4x)").
    pub multiple: Vec<String>,
}

/// What one word of a unit says.
#[derive(Debug, Clone, Copy, PartialEq)]
enum UnitWord {
    Currency,
    Percent,
    Scale(Scale),
    Multiple,
    Filler,
    Number,
}

impl UnitWords {
    fn word(&self, word: &str) -> Option<UnitWord> {
        let is = |list: &[String]| list.iter().any(|w| w == word);
        if is(&self.currency) {
            Some(UnitWord::Currency)
        } else if is(&self.percent) {
            Some(UnitWord::Percent)
        } else if is(&self.thousands) {
            Some(UnitWord::Scale(Scale::Thousands))
        } else if is(&self.millions) {
            Some(UnitWord::Scale(Scale::Millions))
        } else if is(&self.billions) {
            Some(UnitWord::Scale(Scale::Billions))
        } else if is(&self.multiple) {
            Some(UnitWord::Multiple)
        } else if is(&self.filler) {
            Some(UnitWord::Filler)
        } else if let Some(number) = word.strip_suffix(['x', '×']).filter(|n| !n.is_empty()) {
            // "1.4x": an example of the multiple asked.
            self.word(number)
                .filter(|w| *w == UnitWord::Number)
                .map(|_| UnitWord::Multiple)
        } else if word
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
            && word.chars().any(|c| c.is_ascii_digit())
        {
            Some(UnitWord::Number)
        } else {
            None
        }
    }

    /// `text`'s words as unit words (`None` for any other word), a currency sign split
    /// from what it prefixes ("$m" is "$" and "m", "us$bn" "us$" and "bn").
    fn words(&self, text: &str) -> Vec<Option<UnitWord>> {
        let mut out = Vec::new();
        for raw in text
            .to_lowercase()
            .split(|c: char| {
                c.is_whitespace() || matches!(c, ',' | ';' | ':' | '/' | '(' | ')' | '[' | ']')
            })
            .map(|w| {
                w.trim_matches(|c: char| matches!(c, '?' | '!' | '"' | '“' | '”' | '-' | '–' | '—'))
            })
            .filter(|w| !w.is_empty())
        {
            let sign = ["us$", "$"]
                .into_iter()
                .find(|s| raw.starts_with(s) && raw.len() > s.len());
            // "$X.X billion", "$#,###m": a format mask's placeholder digits are no word.
            let placeholder = |w: &str| {
                !w.is_empty()
                    && w.chars().any(|c| matches!(c, 'x' | '#'))
                    && w.chars().all(|c| matches!(c, 'x' | '#' | '.' | ','))
            };
            match sign {
                Some(s) if placeholder(&raw[s.len()..]) => out.push(Some(UnitWord::Currency)),
                Some(s) => {
                    out.push(Some(UnitWord::Currency));
                    out.push(self.word(&raw[s.len()..]));
                }
                None => out.push(self.word(raw.trim_end_matches('.')).or(self.word(raw))),
            }
        }
        out
    }

    /// Whether a bracket's or parenthesis's inside (without its marks) holds only the unit
    /// asked, and the scale it names: `Some(None)` for "(USD)" or "[in %]", `None` when it
    /// holds any other word.
    pub fn group(&self, inside: &str) -> Option<Option<Scale>> {
        let words = self.words(inside);
        if words.is_empty() || words.iter().any(Option::is_none) {
            return None;
        }
        let words: Vec<UnitWord> = words.into_iter().flatten().collect();
        let names_a_unit = words.iter().any(|w| {
            matches!(
                w,
                UnitWord::Currency | UnitWord::Percent | UnitWord::Scale(_) | UnitWord::Multiple
            )
        });
        names_a_unit.then(|| {
            words.iter().find_map(|w| match w {
                UnitWord::Scale(s) => Some(*s),
                _ => None,
            })
        })
    }

    /// The scale a text asks in: a unit-only group's, or a scale word beside a currency
    /// word ("in million dollars", "USD bn", "$m").
    pub fn scale_in(&self, text: &str) -> Option<Scale> {
        if let Some(scale) = groups(text).find_map(|(inside, _)| self.group(inside).flatten()) {
            return Some(scale);
        }
        let words = self.words(text);
        words.iter().enumerate().find_map(|(i, w)| match w {
            Some(UnitWord::Scale(s)) => {
                let beside = |j: Option<usize>| {
                    j.and_then(|j| words.get(j))
                        .is_some_and(|w| *w == Some(UnitWord::Currency))
                };
                (beside(i.checked_sub(1)) || beside(Some(i + 1))).then_some(*s)
            }
            _ => None,
        })
    }

    /// `sentence` without its unit-only groups ("What was it [USD m]?" is "What was it?").
    pub fn without_unit_groups(&self, sentence: &str) -> String {
        let mut out = String::with_capacity(sentence.len());
        let mut kept_to = 0;
        for (inside, (open, close)) in groups(sentence) {
            if self.group(inside).is_some() {
                out.push_str(sentence[kept_to..open].trim_end());
                kept_to = close + 1;
            }
        }
        out.push_str(&sentence[kept_to..]);
        out
    }
}

/// The bracketed and parenthesised groups of `text` (not nested): each one's inside and the
/// byte offsets of its opening and closing marks.
pub(crate) fn groups(text: &str) -> impl Iterator<Item = (&str, (usize, usize))> {
    let mut from = 0;
    std::iter::from_fn(move || {
        let open = from + text[from..].find(['(', '['])?;
        let closing = match text.as_bytes()[open] {
            b'(' => ')',
            _ => ']',
        };
        let close = open + text[open..].find(closing)?;
        from = close + 1;
        Some((&text[open + 1..close], (open, close)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::question::vocabulary::vocabulary;

    #[test]
    fn a_group_of_unit_words_is_the_unit_asked_and_any_other_word_is_not() {
        let units = &vocabulary().expect("vocabulary").units;
        assert_eq!(units.group("USD m"), Some(Some(Scale::Millions)));
        assert_eq!(
            units.group("billions, e.g. 12.3"),
            Some(Some(Scale::Billions))
        );
        assert_eq!(units.group("in $bn"), Some(Some(Scale::Billions)));
        assert_eq!(units.group("in %"), Some(None));
        assert_eq!(units.group("USD 000s"), Some(Some(Scale::Thousands)));
        assert_eq!(units.group("in times, e.g. 1.4x"), Some(None));
        assert_eq!(units.group("x"), Some(None));
        assert_eq!(units.group("equity"), None);
        assert_eq!(units.group("net amount"), None);
        assert_eq!(units.group("start and end"), None);
        assert_eq!(
            units.group("keep 2 decimals"),
            None,
            "a rounding names no unit"
        );
    }

    #[test]
    fn a_scale_beside_a_currency_is_asked_wherever_it_stands() {
        let units = &vocabulary().expect("vocabulary").units;
        assert_eq!(
            units.scale_in("What was the change in million dollars?"),
            Some(Scale::Millions)
        );
        assert_eq!(
            units.scale_in("revenue, USD bn, for 2023"),
            Some(Scale::Billions)
        );
        assert_eq!(
            units.scale_in("revenue in $m please"),
            Some(Scale::Millions)
        );
        assert_eq!(units.scale_in("revenue of $1 billion"), None);
        assert_eq!(
            units.scale_in("revenue for 2023 (billions, e.g. 12.3)"),
            Some(Scale::Billions)
        );
        assert_eq!(
            units.without_unit_groups("what was it [USD m]? And (net amount) kept (in %)"),
            "what was it? And (net amount) kept"
        );
    }
}
