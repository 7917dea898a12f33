//! TeX math in a question ("ROE = \frac{NI}{(E_{t-1} + E_t)/2} \times 100", "\text{OCF}
//! \div \text{CL}") written out as the plain arithmetic the rest of the reading knows,
//! before anything else is read: a fraction is its numerator over its denominator, each in
//! parentheses; operator commands are their symbols; text and font commands are their
//! words. A question without TeX is returned unchanged.

/// `text` with its TeX math written as plain arithmetic.
pub fn written_out(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let mut out = fractions_written_out(text);
    for (command, plain) in [
        ("\\times", " × "),
        ("\\cdot", " × "),
        ("\\div", " ÷ "),
        ("\\left(", "("),
        ("\\right)", ")"),
        ("\\left[", "("),
        ("\\right]", ")"),
        ("\\%", "%"),
        ("\\$", "$"),
        ("\\&", "&"),
        ("\\,", " "),
        ("\\;", " "),
        ("\\quad", " "),
    ] {
        out = out.replace(command, plain);
    }
    // "\text{OCF}", "\mathrm{NI}": the words inside.
    for command in [
        "\\text",
        "\\mathrm",
        "\\textrm",
        "\\mathit",
        "\\textit",
        "\\operatorname",
    ] {
        out = unwrapped(&out, command);
    }
    // "\(…\)" only marks math; subscripts' braces group one name ("E_{t-1}").
    out.replace("\\(", "")
        .replace("\\)", "")
        .replace("_{", "_")
        .chars()
        .filter(|c| *c != '{' && *c != '}')
        .collect()
}

/// `text` with every `\frac{a}{b}` (and `\dfrac`, `\tfrac`) as `(a) / (b)`, innermost
/// first. A fraction whose braces do not close is left as written.
fn fractions_written_out(text: &str) -> String {
    let mut out = text.to_string();
    loop {
        let Some((start, after)) = ["\\dfrac", "\\tfrac", "\\frac"]
            .iter()
            .filter_map(|c| out.find(c).map(|at| (at, at + c.len())))
            .min()
        else {
            return out;
        };
        let Some((numerator, rest)) = braced(&out[after..]) else {
            return out;
        };
        let Some((denominator, rest)) = braced(rest) else {
            return out;
        };
        let end = out.len() - rest.len();
        // The parts may hold fractions of their own: written out on the next turns.
        let written = format!("({numerator}) / ({denominator})");
        out.replace_range(start..end, &written);
    }
}

/// The inside of the brace group `text` opens with (after spaces), and what follows it.
fn braced(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    if !text.starts_with('{') {
        return None;
    }
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&text[1..at], &text[at + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` with `command{words}` as `words`.
fn unwrapped(text: &str, command: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(command) {
        out.push_str(&rest[..at]);
        match braced(&rest[at + command.len()..]) {
            Some((inside, after)) => {
                out.push_str(inside);
                rest = after;
            }
            None => {
                out.push_str(command);
                rest = &rest[at + command.len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_and_operators_are_plain_arithmetic() {
        assert_eq!(
            written_out(r"ROE = \frac{\text{net income}}{\text{average equity}} \times 100"),
            "ROE = (net income) / (average equity)  ×  100"
        );
        // A fraction inside a fraction, and a subscript's braces.
        assert_eq!(
            written_out(r"\frac{NI}{\frac{E_{t-1} + E_{t}}{2}}"),
            "(NI) / ((E_t-1 + E_t) / (2))"
        );
        assert_eq!(written_out(r"\text{OCF} \div \text{CL}"), "OCF  ÷  CL");
        // No TeX, no change; an unclosed fraction is left as written.
        assert_eq!(written_out("revenue / assets"), "revenue / assets");
        assert!(written_out(r"\frac{NI").contains("NI"));
    }
}
