//! Years written in words ("fiscal year twenty twenty-three", "two thousand and twenty-two",
//! "nineteen ninety-nine") put in digits, so the period readers see them.

use regex::{Captures, Regex};
use std::borrow::Cow;
use std::sync::LazyLock;

const UNITS: [&str; 9] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];
const TEENS: [&str; 10] = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// "twenty-three", "ninety nine", "fifteen", "seven": a number below a hundred in words.
const BELOW_A_HUNDRED: &str = r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\s](?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|one|two|three|four|five|six|seven|eight|nine)";

static SPELLED_YEAR: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:(nineteen|twenty)\s+(oh[-\s]+)?({BELOW_A_HUNDRED})|two[-\s]+thousand(?:[-\s]+and)?[-\s]+({BELOW_A_HUNDRED}))\b"
    ))
    .ok()
});

/// The value of a number below a hundred written in words.
fn below_a_hundred(words: &str) -> Option<i32> {
    let lower = words.to_lowercase();
    let parts: Vec<&str> = lower.split(['-', ' ']).filter(|p| !p.is_empty()).collect();
    let position = |list: &[&str], word: &str| list.iter().position(|w| *w == word);
    match parts.as_slice() {
        [tens, unit] => {
            let tens = position(&TENS, tens)? as i32;
            let unit = position(&UNITS, unit)? as i32;
            Some(20 + 10 * tens + unit + 1)
        }
        [one] => position(&UNITS, one)
            .map(|u| u as i32 + 1)
            .or_else(|| position(&TEENS, one).map(|t| t as i32 + 10))
            .or_else(|| position(&TENS, one).map(|t| 20 + 10 * t as i32)),
        _ => None,
    }
}

/// `text` with each year written in words in digits; years outside 1950–2099 stay words.
pub fn years_in_digits(text: &str) -> Cow<'_, str> {
    let Some(re) = SPELLED_YEAR.as_ref() else {
        return Cow::Borrowed(text);
    };
    re.replace_all(text, |c: &Captures| {
        let year = match (c.get(1), c.get(3), c.get(4)) {
            (Some(century), Some(rest), _) => {
                let hundreds = if century.as_str().eq_ignore_ascii_case("nineteen") {
                    1900
                } else {
                    2000
                };
                // "twenty three" is 23; "twenty oh three" is 2003.
                below_a_hundred(rest.as_str())
                    .filter(|v| *v >= 10 || c.get(2).is_some())
                    .map(|v| hundreds + v)
            }
            (_, _, Some(rest)) => below_a_hundred(rest.as_str()).map(|v| 2000 + v),
            _ => None,
        };
        match year {
            Some(y) if (1950..2100).contains(&y) => y.to_string(),
            _ => c[0].to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_in_words_are_put_in_digits() {
        for (text, want) in [
            ("in fiscal year twenty twenty-three", "in fiscal year 2023"),
            ("FY twenty twenty four?", "FY 2024?"),
            ("two thousand and twenty-two", "2022"),
            ("two thousand twenty", "2020"),
            ("nineteen ninety-nine", "1999"),
            ("twenty oh nine", "2009"),
            ("twenty ten", "2010"),
        ] {
            assert_eq!(years_in_digits(text), want, "{text}");
        }
        // Counts are no years.
        for text in [
            "twenty-three employees",
            "twenty three employees",
            "the last twenty years",
            "two thousand shares",
        ] {
            assert_eq!(years_in_digits(text), text);
        }
    }
}
