//! A formula written in words, read by an expression grammar: "current assets minus
//! inventories, divided by current liabilities" is (current assets − inventories) ÷ current
//! liabilities. The result is a tree whose leaves are the phrases that name line items;
//! `defined.rs` resolves them against the concept table.
//!
//! Binding, loosest first: an operator after a comma (", divided by C" applies to all that
//! came before it); an operator in words ("minus", "divided by"), read left to right as a
//! sentence is read ("A plus B divided by C" is (A + B) ÷ C); `+`/`-`; `*`/`/`. Parentheses
//! group; a parenthesis right after a phrase explains it ("gross profit (revenue minus cost
//! of sales)") and is left out.

/// A parsed formula.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Number(f64),
    /// The words of one operand ("average total assets", "the sum of A and B").
    Phrase(String),
    Binary {
        operator: char,
        left: Box<Node>,
        right: Box<Node>,
    },
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Phrase(String),
    Operator { operator: char, binding: u8 },
    Open,
    Close,
}

/// Operator words, longest first so "divided by" is found before "by".
const OPERATOR_WORDS: &[(&str, char)] = &[
    ("all divided by", '/'),
    ("all over", '/'),
    ("then divide by", '/'),
    ("then multiply by", '*'),
    ("then subtract", '-'),
    ("then add", '+'),
    ("after adding back", '+'),
    ("before deducting", '+'),
    ("before subtracting", '+'),
    ("with added back", '+'),
    ("adding back", '+'),
    ("add back", '+'),
    ("exclusive of", '-'),
    ("except for", '-'),
    ("except", '-'),
    ("other than", '-'),
    ("excluding", '-'),
    ("net of", '-'),
    ("after deducting", '-'),
    ("after subtracting", '-'),
    ("scaled by", '/'),
    ("subtract", '-'),
    ("add", '+'),
    ("multiplied by", '*'),
    ("divided by", '/'),
    ("divide by", '/'),
    ("minus", '-'),
    ("less", '-'),
    ("plus", '+'),
    ("over", '/'),
    ("times", '*'),
    ("x", '*'),
];

const AFTER_COMMA: u8 = 10;
const IN_WORDS: u8 = 20;
const SYMBOL_SUM: u8 = 30;
const SYMBOL_PRODUCT: u8 = 40;

fn symbol_binding(operator: char) -> u8 {
    match operator {
        '+' | '-' => SYMBOL_SUM,
        _ => SYMBOL_PRODUCT,
    }
}

/// The operator word `text` starts with (after a word boundary), and its length.
fn operator_word_at(text: &str) -> Option<(char, usize)> {
    let lower = text.to_lowercase();
    OPERATOR_WORDS.iter().find_map(|(word, operator)| {
        let rest = lower.strip_prefix(word)?;
        let ends_word = rest.chars().next().is_none_or(|c| !c.is_alphanumeric());
        ends_word.then_some((*operator, word.len()))
    })
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut phrase = String::new();
    let mut explaining = 0usize;
    let mut comma_pending = false;
    let flush = |phrase: &mut String, out: &mut Vec<Token>| {
        let p = phrase.trim().trim_end_matches('.').trim();
        if !p.is_empty() {
            out.push(Token::Phrase(p.to_string()));
        }
        phrase.clear();
    };
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let width = c.len_utf8();
        if explaining > 0 {
            match c {
                '(' => explaining += 1,
                ')' => explaining -= 1,
                _ => {}
            }
            rest = &rest[width..];
            continue;
        }
        let at_word_start = phrase.is_empty() || phrase.ends_with(' ');
        if at_word_start && c.is_alphabetic() {
            if let Some((operator, len)) = operator_word_at(rest) {
                flush(&mut phrase, &mut out);
                // "…, all over revenue": "all" takes in everything before.
                let all = rest
                    .get(..4)
                    .is_some_and(|w| w.eq_ignore_ascii_case("all "));
                let binding = if comma_pending || all {
                    AFTER_COMMA
                } else {
                    IN_WORDS
                };
                out.push(Token::Operator { operator, binding });
                comma_pending = false;
                rest = &rest[len..];
                continue;
            }
            // ", and then divide": the joining words are the comma's.
            if comma_pending {
                let lower = rest.to_lowercase();
                if let Some(skip) = ["and then ", "then ", "and "]
                    .iter()
                    .find(|w| lower.starts_with(*w) && operator_word_at(&rest[w.len()..]).is_some())
                {
                    rest = &rest[skip.len()..];
                    continue;
                }
            }
        }
        // "operating income → + D&A → ÷ revenue → ×100": each arrow is a step, applied to
        // the result so far, as a comma before an operator is.
        if let Some(arrow) = ["→", "->", "⇒", "=>", "⟶"]
            .iter()
            .find(|a| rest.starts_with(**a))
        {
            flush(&mut phrase, &mut out);
            comma_pending = true;
            rest = &rest[arrow.len()..];
            continue;
        }
        if c == ',' || c == ';' {
            // A comma inside a phrase ("selling, general and administrative") stays in it
            // unless an operator follows.
            let after = rest[width..].trim_start();
            let lower = after.to_lowercase();
            let joined = ["and then ", "then ", "and ", ""]
                .iter()
                .any(|w| lower.starts_with(w) && operator_word_at(&after[w.len()..]).is_some());
            if joined {
                flush(&mut phrase, &mut out);
                comma_pending = true;
                rest = &rest[width..];
                continue;
            }
            phrase.push(c);
            rest = &rest[width..];
            continue;
        }
        let symbol = match c {
            '×' | '*' => Some('*'),
            '÷' | '/' => Some('/'),
            '+' => Some('+'),
            '−' => Some('-'),
            // A spaced en dash ("[current assets – inventories]") subtracts.
            '–' if at_word_start => Some('-'),
            // A hyphen inside a word ("pre-tax", "end-of-year") is the word's.
            '-' if at_word_start => Some('-'),
            _ => None,
        };
        if let Some(operator) = symbol {
            flush(&mut phrase, &mut out);
            let binding = if comma_pending {
                AFTER_COMMA
            } else {
                symbol_binding(operator)
            };
            out.push(Token::Operator { operator, binding });
            comma_pending = false;
        } else if c == '(' {
            if phrase.trim().is_empty() {
                out.push(Token::Open);
            } else {
                explaining = 1;
            }
        } else if c == ')' {
            flush(&mut phrase, &mut out);
            out.push(Token::Close);
        } else {
            phrase.push(c);
        }
        rest = &rest[width..];
    }
    flush(&mut phrase, &mut out);
    out
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.at).cloned();
        self.at += 1;
        token
    }

    fn operand(&mut self) -> Result<Node, String> {
        match self.next() {
            Some(Token::Phrase(p)) => Ok(match p.replace(',', "").parse::<f64>() {
                Ok(n) => Node::Number(n),
                Err(_) => Node::Phrase(p),
            }),
            Some(Token::Open) => {
                let inner = self.expression(0)?;
                match self.next() {
                    Some(Token::Close) => Ok(inner),
                    _ => Err("a parenthesis is not closed".into()),
                }
            }
            Some(Token::Operator { operator, .. }) => {
                Err(format!("an operand is missing before \"{operator}\""))
            }
            Some(Token::Close) => Err("a parenthesis closes nothing".into()),
            None => Err("an operand is missing at the end".into()),
        }
    }

    /// Precedence climbing: operators binding tighter than `floor` join here.
    fn expression(&mut self, floor: u8) -> Result<Node, String> {
        let mut left = self.operand()?;
        while let Some(Token::Operator { operator, binding }) = self.peek().cloned() {
            if binding <= floor {
                break;
            }
            self.at += 1;
            let right = self.expression(binding)?;
            left = Node::Binary {
                operator,
                left: Box::new(left),
                right: Box::new(right),
            };
        }
        Ok(left)
    }
}

/// `text` read as a formula.
pub(crate) fn parse_words(text: &str) -> Result<Node, String> {
    let mut parser = Parser {
        tokens: tokens(text),
        at: 0,
    };
    let node = parser.expression(0)?;
    match parser.peek() {
        None => Ok(node),
        Some(Token::Close) => Err("a parenthesis closes nothing".into()),
        Some(_) => Err("the formula has words the grammar does not join".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree written back with every group in parentheses.
    fn shown(node: &Node) -> String {
        match node {
            Node::Number(n) => format!("{n}"),
            Node::Phrase(p) => p.clone(),
            Node::Binary {
                operator,
                left,
                right,
            } => format!("({} {operator} {})", shown(left), shown(right)),
        }
    }

    fn read(text: &str) -> String {
        shown(&parse_words(text).unwrap())
    }

    #[test]
    fn except_takes_away() {
        assert_eq!(
            read("everything in current assets except inventories, over current liabilities"),
            "((everything in current assets - inventories) / current liabilities)"
        );
    }

    #[test]
    fn each_arrow_is_a_step_applied_to_the_result_so_far() {
        assert_eq!(
            read("operating income → + D&A → ÷ revenue → ×100"),
            "(((operating income + D&A) / revenue) * 100)"
        );
        assert_eq!(
            read("total current assets -> minus inventories -> ÷ total current liabilities"),
            "((total current assets - inventories) / total current liabilities)"
        );
        // "all over" divides everything before it.
        assert_eq!(
            read("accounts receivable plus revenue all over revenue"),
            "((accounts receivable + revenue) / revenue)"
        );
        assert_eq!(
            read("average receivables, all over revenue, times 365"),
            "((average receivables / revenue) * 365)"
        );
    }

    #[test]
    fn net_of_excluding_and_adding_back_are_operators() {
        assert_eq!(
            read("current assets excluding inventories, divided by current liabilities"),
            "((current assets - inventories) / current liabilities)"
        );
        assert_eq!(
            read("operating cash flow net of capital expenditures"),
            "(operating cash flow - capital expenditures)"
        );
        assert_eq!(
            read("operating income adding back depreciation and amortization"),
            "(operating income + depreciation and amortization)"
        );
    }

    #[test]
    fn a_comma_scopes_the_operator_after_it_over_all_before() {
        assert_eq!(
            read("current assets minus inventories, divided by current liabilities"),
            "((current assets - inventories) / current liabilities)"
        );
        assert_eq!(
            read("net income, divided by the sum of A and B"),
            "(net income / the sum of A and B)"
        );
        assert_eq!(
            read("operating income plus depreciation, and then divide by revenue"),
            "((operating income + depreciation) / revenue)"
        );
    }

    #[test]
    fn words_read_left_to_right_and_symbols_by_precedence() {
        assert_eq!(
            read("operating cash flow minus capex divided by revenue"),
            "((operating cash flow - capex) / revenue)"
        );
        assert_eq!(read("a - b / c"), "(a - (b / c))");
        assert_eq!(read("(a - b) / c"), "((a - b) / c)");
        assert_eq!(read("a / b * 365"), "((a / b) * 365)");
    }

    #[test]
    fn phrases_keep_their_commas_hyphens_and_explanations() {
        assert_eq!(
            read("selling, general and administrative expenses / revenue"),
            "(selling, general and administrative expenses / revenue)"
        );
        assert_eq!(read("pre-tax income less tax"), "(pre-tax income - tax)");
        assert_eq!(
            read("gross profit (revenue minus cost of sales) over revenue"),
            "(gross profit / revenue)"
        );
        assert_eq!(
            read("FY2017 net income / (average total assets between FY2016 and FY2017)"),
            "(FY2017 net income / average total assets between FY2016 and FY2017)"
        );
    }

    #[test]
    fn a_broken_formula_is_an_error() {
        assert!(parse_words("(a - b / c").is_err());
        assert!(parse_words("a minus").is_err());
    }
}
