//! A metric as the question itself defines it ("Operating cash flow ratio is defined as: cash
//! from operations / total current liabilities"; "ROA is defined as: FY2017 net income /
//! (average total assets between FY2016 and FY2017)"): the definition read into operands
//! (a line item of the concept table, the fiscal year it is taken for, an average or change
//! between two years) and worked out from the document's rows. The question's definition
//! wins over the table's.

use super::asked::AskedColumns;
use super::concepts::{Concept, ConceptTable, MetricUnit, PRIOR_SUFFIX};
use super::formula_words::{parse_words, Node};
use super::metrics::{evaluate, format_amount, MetricResult, Operand};
use super::rows::RowMatch;
use crate::lexicon::lexicon;
use crate::question::{periods::periods_in, Definition, Question};
use regex::Regex;
use std::sync::LazyLock;

/// One operand of a definition, as read.
#[derive(Debug, Clone, PartialEq)]
enum Term {
    /// A line item in one fiscal year (`None`: the year asked).
    Item { concept: String, year: Option<i32> },
    /// The mean of a line item's two year-end balances.
    Average { concept: String, from: i32, to: i32 },
    /// A line item's change between two years.
    Change { concept: String, from: i32, to: i32 },
}

static BETWEEN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)^(average|avg\.?|mean|change in|changes in)\s+(.+?)\s+(?:between|from)\s+(.+?)\s+(?:and|to)\s+(.+)$").ok()
});

/// The definition's right-hand side as an expression over `terma`, `termb`, … and its terms, or
/// the phrase no line item of the table is.
fn parse(
    table: &ConceptTable,
    formula: &str,
    asked: Option<i32>,
) -> Result<(String, Vec<(String, Term)>), String> {
    let tree = parse_words(&rephrased(formula))?;
    let mut terms: Vec<(String, Term)> = Vec::new();
    let expression = written(table, &tree, asked, &mut terms)?;
    if terms.is_empty() {
        return Err("the definition names no line item".into());
    }
    Ok((expression, terms))
}

/// How tightly an operator binds, for writing the fewest parentheses.
fn binding(operator: char) -> u8 {
    match operator {
        '+' | '-' => 1,
        _ => 2,
    }
}

/// `node` written as an expression over term ids, each phrase resolved into `terms`.
fn written(
    table: &ConceptTable,
    node: &Node,
    asked: Option<i32>,
    terms: &mut Vec<(String, Term)>,
) -> Result<String, String> {
    match node {
        Node::Number(n) => Ok(format!("{n}")),
        Node::Phrase(phrase) => operand_expression(table, phrase, asked, terms),
        Node::Binary {
            operator,
            left,
            right,
        } => {
            let side = |child: &Node, right_side: bool, terms: &mut Vec<(String, Term)>| {
                let text = written(table, child, asked, terms)?;
                let grouped = match child {
                    Node::Binary {
                        operator: inner, ..
                    } => {
                        binding(*inner) < binding(*operator)
                            || (right_side
                                && binding(*inner) == binding(*operator)
                                && matches!(operator, '-' | '/'))
                    }
                    _ => false,
                };
                Ok::<String, String>(match grouped {
                    true => format!("({text})"),
                    false => text,
                })
            };
            let l = side(left, false, terms)?;
            let r = side(right, true, terms)?;
            Ok(format!("{l} {operator} {r}"))
        }
    }
}

/// A new term id for `term`.
fn push_term(terms: &mut Vec<(String, Term)>, term: Term) -> String {
    // Letters only: the evaluator reads every digit run as a number.
    let id = format!("term{}", letter(terms.len()));
    terms.push((id.clone(), term));
    id
}

/// The expression one phrase of a definition stands for: a line item ("total assets"), an
/// average or change of one, a sum or difference written out ("the sum of net income and
/// depreciation"), or a metric of the table ("EBITDA less capital expenditures").
fn operand_expression(
    table: &ConceptTable,
    phrase: &str,
    asked: Option<i32>,
    terms: &mut Vec<(String, Term)>,
) -> Result<String, String> {
    let phrase = phrase.trim();
    let lower = phrase.to_lowercase();
    let bare = lower.strip_prefix("the ").unwrap_or(&lower);
    let offset = phrase.len() - bare.len();
    let original = &phrase[offset..];
    let year = periods_in(phrase).first().map(|p| p.year).or(asked);
    for (opener, joiner) in [("sum of ", '+'), ("total of ", '+')] {
        if let Some(rest) = bare.strip_prefix(opener) {
            let items: Vec<&Concept> = table
                .asked_in(&original[opener.len()..])
                .into_iter()
                .filter(|c| !c.is_metric())
                .collect();
            if items.len() >= 2 {
                let ids: Vec<String> = items
                    .iter()
                    .map(|c| {
                        push_term(
                            terms,
                            Term::Item {
                                concept: c.id.clone(),
                                year: periods_in(rest).first().map(|p| p.year),
                            },
                        )
                    })
                    .collect();
                return Ok(format!("({})", ids.join(&format!(" {joiner} "))));
            }
        }
    }
    for (opener, separator, operator) in [
        ("difference between ", " and ", '-'),
        ("ratio of ", " to ", '/'),
    ] {
        if let Some(rest) = bare.strip_prefix(opener) {
            let rest_original = &original[opener.len()..];
            for (at, _) in rest.match_indices(separator) {
                let (a, b) = (&rest_original[..at], &rest_original[at + separator.len()..]);
                let mut tried = terms.clone();
                let sides = operand_expression(table, a, asked, &mut tried)
                    .and_then(|a| Ok((a, operand_expression(table, b, asked, &mut tried)?)));
                if let Ok((a, b)) = sides {
                    *terms = tried;
                    return Ok(format!("({a} {operator} {b})"));
                }
            }
        }
    }
    match term_of(table, original, asked) {
        Ok(term) => Ok(push_term(terms, term)),
        Err(why) => {
            // A metric of the table named as an operand is its formula.
            let Some(metric) = table.asked_in(original).into_iter().find(|c| c.is_metric()) else {
                return Err(why);
            };
            let Some(formula) = metric.formula.as_deref() else {
                return Err(why);
            };
            let ids = super::concepts::formula_ids(&metric.id, formula).map_err(|_| why.clone())?;
            let mut expression = formula.to_string();
            // Longest ids first, so `revenue_prior` is replaced before `revenue`.
            let mut ids = ids;
            ids.sort_by_key(|id| std::cmp::Reverse(id.len()));
            for id in ids {
                let (base, prior) = match id.strip_suffix(PRIOR_SUFFIX) {
                    Some(base) => (base.to_string(), true),
                    None => (id.clone(), false),
                };
                let term_year = match prior {
                    true => Some(year.ok_or_else(|| why.clone())? - 1),
                    false => periods_in(phrase).first().map(|p| p.year),
                };
                let term = push_term(
                    terms,
                    Term::Item {
                        concept: base,
                        year: term_year,
                    },
                );
                expression = replace_word(&expression, &id, &term);
            }
            Ok(format!("({expression})"))
        }
    }
}

/// `text` with every whole-word `id` replaced.
fn replace_word(text: &str, id: &str, with: &str) -> String {
    match Regex::new(&format!(r"\b{}\b", regex::escape(id))) {
        Ok(re) => re.replace_all(text, with).into_owned(),
        Err(_) => text.to_string(),
    }
}

fn letter(i: usize) -> String {
    let mut out = String::new();
    let mut n = i;
    loop {
        out.insert(0, char::from(b'a' + (n % 26) as u8));
        if n < 26 {
            return out;
        }
        n = n / 26 - 1;
    }
}

/// A definition written in words as an expression: "divide A by B" and "A as a share of B"
/// are A / B; "the mean of beginning- and end-of-year X" is "average X".
fn rephrased(formula: &str) -> String {
    let formula = &procedure(formula).unwrap_or_else(|| formula.to_string());
    static PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
        [
            (r"(?i)^divide\s+(.+?)\s+by\s+", "$1 divided by "),
            // "The amount obtained by subtracting capex from operating cash flow".
            (r"(?i)^(?:the\s+)?(?:amount|figure|value|number|result)?\s*(?:obtained|you\s+get|that\s+you\s+get|left)?\s*(?:by|when|after)\s+(?:subtracting|deducting|taking)\s+(.+?)\s+(?:from|away\s+from|out\s+of)\s+(.+)$", "$2 minus $1"),
            // "Interest expense divided into operating income": the second over the first.
            (r"(?i)^(.+?)\s+divided\s+into\s+(.+)$", "$2 divided by $1"),
            // "Current assets minus inventory vs. current liabilities": all before over all
            // after.
            (r"(?i)^(.+?)\s+(?:vs\.?|versus)\s+(.+)$", "($1) divided by ($2)"),
            // "… divided by one day of revenue (revenue / 365)": over a day's revenue.
            (r"(?i)divided\s+by\s+(?:one|a|1)\s+day(?:'s|’s)?\s+(?:worth\s+)?of\s+(?:the\s+)?([^()]+?)(?:\s*\([^)]*\))?\s*$", "divided by $1 times 365"),
            (r"(?i)divided\s+by\s+(?:the\s+)?(?:daily|average\s+daily|per[-\s]day)\s+([^()]+?)(?:\s*\([^)]*\))?\s*$", "divided by $1 times 365"),
            // "The dollars of debt per dollar of equity".
            (r"(?i)^(?:the\s+)?(?:dollars?|\$)\s+of\s+", ""),
            (r"(?i)\s+(?:per|for\s+(?:each|every))\s+(?:dollar|\$1?)\s+of\s+", " divided by "),
            // "B averaged between the prior and current year-ends": the average of B.
            (r"(?i)(\band\s+|\bdivided\s+by\s+|\bover\s+)(?:the\s+)?(.+?)\s+averaged\s+(?:between|over|across)\s+(?:the\s+)?(?:prior|opening|beginning|previous)[\w\s-]*?\s+(?:and|&)\s+(?:current|closing|ending|this)[\w\s-]*?year[-\s]?ends?\b", "${1}average $2"),
            // "• Source: 10-K" after a bulleted formula is no term.
            (r"\s*•.*$", ""),
            // "numerator: A; denominator: B".
            (r"(?i)numerator\s*:\s*(.+?)\s*[;,]\s*denominator\s*:\s*([^;()]+?)\s*(?:[;,]|$)", "($1) divided by ($2) "),
            // "a fraction with A on top and B on the bottom", "… and, on the bottom, B".
            (r"(?i)(?:an?\s+|the\s+)?fraction\s+with\s+(.+?)\s+on\s+top\s+and\s*,?\s*(?:on\s+the\s+bottom\s*,?\s+(.+?)|(.+?)\s+on\s+the\s+bottom)\s*(?:[;,]|$)", "($1) divided by ($2$3) "),
            // "the average of total assets at the prior and at the current year-end".
            (r"(?i)(?:the\s+)?(?:mean|average)\s+of\s+(?:the\s+)?(.+?)\s+at\s+the\s+(?:prior|opening|beginning|previous)(?:\s+year[-\s]?end)?\s+and\s+(?:at\s+)?the\s+(?:current|closing|ending)\s+year[-\s]?ends?\b", "average $1"),
            // "the quotient of A and B", "the ratio of A to B".
            (r"(?i)(?:the\s+)?quotient\s+of\s+(.+?)\s+and\s+(.+)$", "$1 divided by $2"),
            (r"(?i)(?:the\s+)?ratio\s+of\s+(.+?)\s+to\s+(.+)$", "($1 divided by $2)"),
            // "[(equity_start + equity_end) / 2]", "(TA_start + TA_end) / 2": an average.
            (r"(?i)\[?\s*\(\s*([\w/&.' -]+?)_start\s*\+\s*([\w/&.' -]+?)_end\s*\)\s*/\s*2\s*\]?", "average $1"),
            (r"\bTA\b", "total assets"),
            // "A in the numerator and B in the denominator".
            (r"(?i)^(.+?)\s+in\s+the\s+numerator\s*(?:,\s*)?(?:and|with)\s+(.+?)\s+in\s+the\s+denominator\b", "($1) divided by ($2)"),
            // "then net of C": less C.
            (r"(?i),?\s+(?:then\s+)?net\s+of\s+", " minus "),
            // In a formula "CFO" is cash from operations, not an officer.
            (r"\bCFO\b", "operating cash flow"),
            // "A/R/revenue": the slash of an abbreviation divides nothing.
            (r"(?i)\ba/r\b", "accounts receivable"),
            (r"(?i)\ba/p\b", "accounts payable"),
            // "[current assets – inventories] ÷ current liabilities": brackets group.
            (r"\[\s*([^\[\]]+?)\s*\]\s*(÷|/|×|\*|divided|times|multiplied|over|minus|less|plus|-|−|–|\+)", "($1) $2"),
            (r"\s*\]\s*$", ""),
            // Analysts' abbreviations of statement totals.
            (r"\bTCA\b", "total current assets"),
            (r"\bTCL\b", "total current liabilities"),
            (r"\bCA\b", "current assets"),
            (r"\bCL\b", "current liabilities"),
            (r"\bNI\b", "net income"),
            (r"\bOCF\b", "operating cash flow"),
            // "avg(opening total assets, closing total assets)": their average.
            (r"(?i)\bavg\.?\s*\(\s*(?:opening|beginning|start(?:ing)?)\s+([^,()]+?)\s*,\s*(?:closing|ending|end)\s+[^()]+?\)", "average $1"),
            (r"(?i)\bavg\.?\s+", "average "),
            // "A less B, with the result divided by C": the result is all before.
            (r"(?i),?\s*(?:with\s+|and\s+)?(?:then\s+)?(?:the\s+)?result\s+(divided|multiplied)\s+by\s+", ", $1 by "),
            (r"(?i),?\s*(?:and\s+)?then\s+divide\s+(?:the\s+|that\s+|this\s+)?result\s+by\s+", ", divided by "),
            // "the number of times operating income covers interest expense".
            (r"(?i)(?:the\s+)?(?:number\s+of\s+)?times\s+(.+?)\s+covers\s+", "$1 divided by "),
            // "the mean of the two year-end total asset balances" is their average.
            (r"(?i)(?:the\s+)?(?:mean|average)\s+of\s+the\s+two\s+year[-\s]end\s+(.+?)\s+balances?\b", "average $1"),
            // "the two-point average of total assets" is their average.
            (r"(?i)(?:the\s+)?two[-\s]point\s+average\s+of\s+", "average "),
            // "current assets ex-inventory", "excluding inventories": less them.
            (r"(?i)\s+(?:ex[-\s]+|excluding\s+|excl\.?\s+)", " minus "),
            // "½(opening + closing total assets)", "(opening + closing X) / 2": an average.
            (r"(?i)½\s*\(\s*(?:opening|beginning|start)\s*\+\s*(?:closing|ending|end)\s+([^)]+)\)", "average $1"),
            (r"(?i)\(\s*(?:opening|beginning|start)\s*\+\s*(?:closing|ending|end)\s+([^)]+)\)\s*(?:/|÷)\s*2", "average $1"),
            // "per $100 of revenue" is a percentage of revenue.
            (r"(?i)\s+per\s+\$\s*100\s+of\s+", " divided by "),
            (r"(?i)^(?:take|use|express|compute it as|calculate it as|work it out as)\s+", ""),
            (r"(?i)^[a-z]+\s+it\s+as\s+", ""),
            (r"(?i)\s+as\s+a\s+(?:share|percentage|percent|proportion|fraction|multiple)\s+of\s+", " divided by "),
            (r"(?i)\s+(?:relative\s+to|expressed\s+relative\s+to|per)\s+", " divided by "),
            (r"(?i)(?:the\s+)?(?:mean|average)\s+of\s+(?:the\s+|its\s+)?(?:beginning|opening|start|prior|previous)[-\s]*(?:of[-\s]*(?:the\s+)?(?:year|period)\s+)?(?:and|&)\s+(?:end|closing|ending|year[-\s]end|current(?:\s+year[-\s]end)?)[-\s]*(?:of[-\s]*(?:the\s+)?(?:year|period)\s+)?(?:of[-\s]*(?:the\s+)?(?:year|period)\s+)?(?:balances?\s+(?:of|for)\s+)?", "average "),
            // "operating income with depreciation and amortization put back": a sum.
            (r"(?i)\s+with\s+(.+?)\s+(?:put|added|adding|taken)\s+back\b", " plus $1"),
            // "the opening/closing average of accounts receivable": their average.
            (r"(?i)(?:the\s+)?(?:beginning|opening|start)\s*(?:/|&|-|\band\b)\s*(?:end|closing|ending)[-\s]+(?:year[-\s]?end\s+)?(?:mean|average)\s+of\s+(?:the\s+|its\s+)?", "average "),
            (r"(?i)\s+(?:balances?|figures?|amounts?)\b", ""),
        ]
        .into_iter()
        .filter_map(|(p, with)| Some((Regex::new(p).ok()?, with)))
        .collect()
    });
    let mut out = formula.to_string();
    for (re, with) in PATTERNS.iter() {
        out = re.replace_all(&out, *with).into_owned();
    }
    out
}

/// A formula written as steps ("what you get by first averaging inventory at the two
/// year-ends, then dividing cost of sales by that average"; "first deducting inventories
/// from total current assets, then dividing what remains by total current liabilities"),
/// as one expression: each step works on the value the steps before it made. `None` when
/// the words are no such steps.
fn procedure(text: &str) -> Option<String> {
    static FIRST: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i)^.*?\bfirst\s+").ok());
    static THEN: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?i),?\s*(?:and\s+)?then\s+|,\s+and\s+").ok());
    static STEP: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
        // `@value` is the value so far.
        [
            // "→ average them": the value so far, a balance at two year-ends, averaged.
            (r"(?i)^averaging\s+(?:them|it|those|these|both|the\s+two)$", "average @value"),
            (r"(?i)^averaging\s+(.+?)(?:\s+(?:at|over|across)\s+the\s+two\s+year[-\s]?ends?)?$", "average $1"),
            (r"(?i)^(?:deducting|subtracting)\s+(.+?)\s+from\s+(.+)$", "($2 minus $1)"),
            (r"(?i)^adding\s+(.+?)\s+to\s+(.+)$", "($2 plus $1)"),
            (r"(?i)^adding\s+(.+?)\s+and\s+(.+)$", "($1 plus $2)"),
            (r"(?i)^dividing\s+(.+?)\s+by\s+(?:that|this|the)\s+(?:average|result|sum|total|figure|amount|value)$", "($1 divided by @value)"),
            (r"(?i)^dividing\s+(?:what\s+remains|the\s+result|it|that|this|the\s+sum|the\s+difference|the\s+total)\s+by\s+(.+)$", "(@value divided by $1)"),
            (r"(?i)^dividing\s+by\s+(.+)$", "(@value divided by $1)"),
            // The last scaling stays outside any bracket, where the percent and days
            // readings find it.
            (r"(?i)^multiplying\s+(?:it\s+|that\s+|the\s+result\s+)?by\s+(100|365)$", "@value times $1"),
            (r"(?i)^multiplying\s+(?:it\s+|that\s+|the\s+result\s+)?by\s+(.+)$", "(@value times $1)"),
            (r"(?i)^(?:deducting|subtracting)\s+(.+)$", "(@value minus $1)"),
            (r"(?i)^adding\s+(.+)$", "(@value plus $1)"),
            // An arrow's step written as an operator and its operand ("→ ÷ revenue").
            (r"^(?:×|\*|x)\s*(100|365)$", "@value times $1"),
            (r"^(?:×|\*)\s*(.+)$", "(@value times $1)"),
            (r"^(?:÷|/)\s*(.+)$", "(@value divided by $1)"),
            (r"^\+\s*(.+)$", "(@value plus $1)"),
            (r"^(?:−|-|–)\s*(.+)$", "(@value minus $1)"),
        ]
        .into_iter()
        .filter_map(|(p, with)| Some((Regex::new(p).ok()?, with)))
        .collect()
    });
    static AND_STEP: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\s+and\s+(multiplying|dividing|adding|deducting|subtracting|averaging)\b")
            .ok()
    });
    // "net PP&E at the prior and current year-ends": the balance, its two year-ends the
    // averaging step's.
    static AT_TWO_ENDS: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\s+(?:at|for|across|over)\s+the\s+(?:prior|opening|beginning|previous)(?:\s+year[-\s]?end)?\s+and\s+(?:the\s+)?(?:current|closing|ending)\s+year[-\s]?ends?$").ok()
    });
    // "net PP&E at the prior and current year-ends → average them → divide revenue by the
    // result": arrows between steps in the imperative, the first naming the value.
    const ARROWS: [&str; 5] = ["→", "->", "⇒", "=>", "⟶"];
    if ARROWS.iter().any(|a| text.contains(a)) {
        let mut steps = text.split(['→', '⇒', '⟶']).flat_map(|s| {
            s.split("->")
                .flat_map(|s| s.split("=>"))
                .collect::<Vec<_>>()
        });
        let first = steps.next()?.trim().to_string();
        let mut value = match AT_TWO_ENDS.as_ref() {
            Some(re) => re.replace(&first, "").into_owned(),
            None => first,
        };
        let mut any = false;
        for step in steps {
            let step = as_gerund(step.trim().trim_end_matches(['.', ' ']));
            let (re, with) = STEP.iter().find(|(re, _)| re.is_match(&step))?;
            value = re.replace(&step, *with).replace("@value", &value);
            any = true;
        }
        return any.then_some(value);
    }
    let start = FIRST.as_ref()?.find(text)?;
    let text = AND_STEP
        .as_ref()?
        .replace_all(&text[start.end()..], ", then $1");
    let steps: Vec<&str> = THEN.as_ref()?.split(&text).collect();
    if steps.len() < 2 {
        return None;
    }
    let mut value = String::new();
    for step in steps {
        let step = step.trim().trim_end_matches(['.', ' ']);
        let (re, with) = STEP.iter().find(|(re, _)| re.is_match(step))?;
        let written = re.replace(step, *with).replace("@value", &value);
        value = written;
    }
    Some(value)
}

/// A step written in the imperative as the gerund the step patterns read ("divide revenue
/// by the result" is "dividing revenue by the result").
fn as_gerund(step: &str) -> String {
    const VERBS: [(&str, &str); 7] = [
        ("average ", "averaging "),
        ("divide ", "dividing "),
        ("multiply ", "multiplying "),
        ("deduct ", "deducting "),
        ("subtract ", "subtracting "),
        ("add ", "adding "),
        ("take ", "taking "),
    ];
    let lower = step.to_lowercase();
    VERBS
        .iter()
        .find(|(verb, _)| lower.starts_with(verb))
        .map_or_else(
            || step.to_string(),
            |(verb, gerund)| format!("{gerund}{}", &step[verb.len()..]),
        )
}

/// The line item a phrase of a definition names ("unadjusted operating income", "COGS").
fn concept_of<'a>(table: &'a ConceptTable, phrase: &str) -> Result<&'a Concept, String> {
    table
        .asked_in(phrase)
        .into_iter()
        .find(|c| !c.is_metric())
        .ok_or_else(|| format!("\"{phrase}\" is no line item this engine knows"))
}

fn term_of(table: &ConceptTable, phrase: &str, asked: Option<i32>) -> Result<Term, String> {
    if let Some(caps) = BETWEEN.as_ref().and_then(|re| re.captures(phrase)) {
        let from = periods_in(&caps[3]).first().map(|p| p.year);
        let to = periods_in(&caps[4]).first().map(|p| p.year);
        if let (Some(from), Some(to)) = (from, to) {
            let concept = concept_of(table, &caps[2])?.id.clone();
            return Ok(match caps[1].to_lowercase().starts_with("change") {
                true => Term::Change { concept, from, to },
                false => Term::Average { concept, from, to },
            });
        }
    }
    let year = periods_in(phrase).first().map(|p| p.year);
    // "opening net PP&E": the balance that opens the year asked, the prior year-end's.
    let lower = phrase.to_lowercase();
    let bare = lower.strip_prefix("the ").unwrap_or(&lower);
    let opening = lexicon().concepts.opening_balance_words.iter().find(|w| {
        bare.strip_prefix(*w)
            .is_some_and(|rest| rest.starts_with([' ', '-']))
    });
    if let (Some(word), None, Some(asked)) = (opening, year, asked) {
        return Ok(Term::Item {
            concept: concept_of(table, &bare[word.len()..])?.id.clone(),
            year: Some(asked - 1),
        });
    }
    // "total assets at the prior year-end", "receivables at this year-end": the balance
    // named, at the year-end said after it.
    static AT_YEAR_END: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)^(.+?)\s+(?:at|as\s+of|for)\s+(?:the\s+)?(prior|previous|preceding|last|opening|beginning|this|current|closing|ending)(?:[-\s]year)?[-\s]+(?:year[-\s]?end|fiscal\s+year[-\s]?end|balance\s+sheet\s+date)\b").ok()
    });
    if let (Some(caps), None, Some(asked)) = (
        AT_YEAR_END.as_ref().and_then(|re| re.captures(bare)),
        year,
        asked,
    ) {
        let opens = matches!(
            &caps[2],
            "prior" | "previous" | "preceding" | "last" | "opening" | "beginning"
        );
        return Ok(Term::Item {
            concept: concept_of(table, &caps[1])?.id.clone(),
            year: Some(if opens { asked - 1 } else { asked }),
        });
    }
    // "average total assets" with no years: the balances that open and close the year asked.
    if let (Some(rest), Some(to)) = (
        phrase
            .to_lowercase()
            .strip_prefix("average ")
            .map(str::to_string),
        year.or(asked),
    ) {
        return Ok(Term::Average {
            concept: concept_of(table, &rest)?.id.clone(),
            from: to - 1,
            to,
        });
    }
    Ok(Term::Item {
        concept: concept_of(table, phrase)?.id.clone(),
        year,
    })
}

/// The formula without its scaling to percent ("… / revenue x 100", "…, then multiply by
/// 100", "… times 100"), and whether it had one: the result is then a percentage, which the
/// answer shows once (the quotient is not multiplied by a hundred twice).
pub(super) fn without_percent_scaling(formula: &str) -> (String, bool) {
    static HUNDRED: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)[,;\s]*(?:\band\s+|\bthen\s+)*(?:\bmultiply(?:ing)?(?:\s+(?:it|that|this|the\s+result))?\s+by|\bmultiplied\s+by|\btimes|\bx|×|\*)\s*100\b(?:\s*%)?\.?\s*$",
        )
        .ok()
    });
    // "100 × operating income / revenue": the scaling may lead.
    static LEADING_HUNDRED: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:(?:take|use|compute|calculate|work\s+out)\s+)?100\s*(?:×|\*|\bx\b|\btimes\b)\s*").ok()
    });
    if let Some(m) = LEADING_HUNDRED.as_ref().and_then(|re| re.find(formula)) {
        return (formula[m.end()..].to_string(), true);
    }
    match HUNDRED.as_ref().and_then(|re| re.find(formula)) {
        Some(m) => (formula[..m.start()].to_string(), true),
        None => (formula.to_string(), false),
    }
}

/// The table's metric `text` names at most length: "GM cash conversion" is cash
/// conversion, not the gross margin a ticker spells.
fn named_metric<'a>(table: &'a ConceptTable, text: &str) -> Option<&'a Concept> {
    let (_, spans) = table.spans_in(text);
    spans
        .into_iter()
        .filter(|(c, _, _)| c.is_metric())
        .max_by_key(|(_, start, end)| (end - start, std::cmp::Reverse(*start)))
        .map(|(c, _, _)| c)
}

/// The unit the definition's result is shown in: the unit of the table's metric the
/// question names ("ROE" is a percentage), else read from the question's words.
fn unit_of(table: &ConceptTable, question: &Question, definition: &Definition) -> MetricUnit {
    let named = format!("{} {}", definition.name, question.content);
    let metric = named_metric(table, &definition.name).or_else(|| named_metric(table, &named));
    if let Some(unit) = metric
        .filter(|c| c.unit != Some(MetricUnit::Amount))
        .and_then(|c| c.unit)
    {
        return unit;
    }
    let name = named.to_lowercase();
    if question.percent
        || lexicon()
            .concepts
            .percent_names
            .iter()
            .any(|n| name.contains(n))
    {
        MetricUnit::Percent
    } else if name.contains("days")
        || name.contains("dpo")
        || name.contains("dso")
        || name.contains("dio")
    {
        MetricUnit::Days
    } else {
        MetricUnit::Ratio
    }
}

/// The metric the question defines, worked out from `rows` (every located row of the
/// document, any concept); `None` when the question defines none. Operands it cannot find
/// are named in `missing`.
pub fn defined_metric(
    table: &ConceptTable,
    question: &Question,
    columns: &AskedColumns,
    rows: &[RowMatch],
) -> Option<Result<MetricResult, String>> {
    let definition = question.definition.as_ref()?;
    // "NI / avgTA × 100, where avgTA = (opening TA + closing TA) / 2": each term the
    // explanation defines stands for its definition.
    let substituted = with_terms_defined(&definition.formula);
    let definition = &crate::question::Definition {
        name: definition.name.clone(),
        formula: substituted,
    };
    // "…, where average total assets is the average of …" explains a term: not a term.
    // "…, with average total assets = (opening + closing) / 2" explains one too.
    // "…, avg = (beginning + ending)/2" says how a term is averaged, which the term does.
    let formula_text = [
        ", where",
        "; where",
        ", with ",
        "; with ",
        " where ",
        ", avg =",
        ", avg. =",
        ", average =",
        "; avg =",
        "; average =",
    ]
    .iter()
    .fold(definition.formula.as_str(), |f, sep| {
        match f.find(sep) {
            // "…, with the result divided by C" goes on with the formula.
            Some(at) if f[at + sep.len()..].trim_start().starts_with("the result") => f,
            Some(at) => &f[..at],
            None => f,
        }
    });
    // "…, with total assets taken as the average of last year's and this year's year-end
    // balances": the explanation says which line items are averaged.
    let averaged_by_explanation = averaged_in(table, &definition.formula[formula_text.len()..]);
    let (formula_text, in_hundredths) = without_percent_scaling(formula_text);
    // The year the columns ask (each year of a multi-year average in turn; the filing's
    // latest for "the most recently completed fiscal year"), else the question's.
    let asked_year = columns
        .year
        .map(|y| y - columns.offset)
        .or_else(|| question.latest_period().map(|p| p.year));
    let (expression, mut terms) = match parse(table, &formula_text, asked_year) {
        Ok(parsed) => parsed,
        Err(why) => return Some(Err(why)),
    };
    if let Some(to) = asked_year {
        for (_, term) in terms.iter_mut() {
            if let Term::Item {
                concept,
                year: None,
            } = term
            {
                if averaged_by_explanation.contains(concept) {
                    *term = Term::Average {
                        concept: concept.clone(),
                        from: to - 1,
                        to,
                    };
                }
            }
        }
    }
    // "Use operating income and total revenue from the income statement" names where the
    // operands stand, not how they combine: one line item and no operation defines nothing
    // (worked as a definition, it stated operating income as the operating margin at HIGH).
    if is_one_line_item(&expression, &terms) {
        return None;
    }
    // "Quick ratio (CA less inventory basis)" qualifies the ratio named; a definition without
    // a quotient of a metric the table works out as one defines nothing.
    let named_quotient = named_metric(table, &format!("{} {}", definition.name, question.content))
        .is_some_and(|c| c.unit.is_some_and(|u| u != MetricUnit::Amount));
    if named_quotient && !expression.contains('/') {
        return None;
    }
    let mut formula = expression.clone();
    let mut operands: Vec<Operand> = Vec::new();
    let mut missing = Vec::new();
    let mut cell = |id: String, concept_id: &str, fiscal_year: Option<i32>| -> Option<String> {
        let concept = table.get(concept_id)?;
        let year = fiscal_year.map(|y| y + columns.offset).or(columns.year);
        let has_year = |r: &&RowMatch| {
            let column = r.row.column_for(year, columns.months);
            column.is_some_and(|c| {
                year.is_none() || r.row.columns.get(c).and_then(|h| h.year) == year
            })
        };
        // A balance is read from the balance sheet, not from the cash flow statement's
        // change in it ("Inventories | (251)"), when the statement has the year's row.
        let in_own_statement = rows.iter().filter(has_year).any(|r| {
            r.concept_id == concept_id
                && concept.statement.is_some()
                && r.row.statement == concept.statement
        });
        let best = rows
            .iter()
            .filter(|r| r.concept_id == concept_id)
            .filter(has_year)
            .filter(|r| !in_own_statement || r.row.statement == concept.statement)
            .max_by(|a, b| {
                a.strength(concept.statement, year, columns.months)
                    .total_cmp(&b.strength(concept.statement, year, columns.months))
                    .then(b.row.start.cmp(&a.row.start))
            });
        let label = match fiscal_year {
            Some(y) => format!("{} (fiscal {y})", concept.label),
            None => concept.label.clone(),
        };
        // An operand without a figure leaves the whole definition unworked: never a formula
        // quietly short of a term.
        let Some((found, column, value)) = best.and_then(|found| {
            let column = found.row.column_for(year, columns.months)?;
            let value = found.row.values.get(column).copied().flatten()?;
            Some((found, column, value))
        }) else {
            missing.push(label);
            return None;
        };
        operands.push(Operand {
            id: id.clone(),
            label,
            column,
            value: concept.amount_in_row(value, &found.row.label),
            printed: found.row.printed.get(column).cloned().unwrap_or_default(),
            period: found.row.columns.get(column).map(|c| c.heading.clone()),
            row: found.row.clone(),
        });
        // "Depreciation" beside its own amortization row: the parts the table prints.
        let parts = super::metrics::other_part_operands(concept, found, rows, column, &id);
        let sum = std::iter::once(id.clone())
            .chain(parts.iter().map(|p| p.id.clone()))
            .collect::<Vec<_>>();
        operands.extend(parts);
        Some(match sum.len() {
            1 => id,
            _ => format!("({})", sum.join(" + ")),
        })
    };
    for (id, term) in &terms {
        let replacement = match term {
            // A line item this filing does not print (Meta shows no gross profit) is its
            // defining formula over the rows it does print.
            Term::Item { concept, year }
                if !rows.iter().any(|r| r.concept_id == *concept)
                    && table.get(concept).is_some_and(|c| c.otherwise.is_some()) =>
            {
                let derived = table
                    .get(concept)
                    .and_then(|c| c.otherwise.clone())
                    .unwrap_or_default();
                let parts = super::concepts::formula_ids(concept, &derived).unwrap_or_default();
                let mut worked = Some(derived);
                for part in parts {
                    let placed = cell(format!("{id}{part}"), &part, *year);
                    worked = worked
                        .zip(placed)
                        .map(|(w, placed)| replace_term(&w, &part, &placed));
                }
                worked.map(|w| format!("({w})"))
            }
            Term::Item { concept, year } => cell(id.clone(), concept, *year),
            Term::Average { concept, from, to } => {
                let a = cell(format!("{id}from"), concept, Some(*from));
                let b = cell(format!("{id}to"), concept, Some(*to));
                a.zip(b).map(|(a, b)| format!("(({a} + {b}) / 2)"))
            }
            Term::Change { concept, from, to } => {
                let a = cell(format!("{id}from"), concept, Some(*from));
                let b = cell(format!("{id}to"), concept, Some(*to));
                a.zip(b).map(|(a, b)| format!("({b} - {a})"))
            }
        };
        if let Some(replacement) = replacement {
            formula = replace_term(&formula, id, &replacement);
        }
    }
    // A definition without a quotient ("operating income + depreciation") defines an
    // amount, whatever the question calls it.
    // "… divided by one day of revenue": so many days of it.
    let in_days = expression.trim_end().ends_with("* 365");
    let unit = match (formula.contains('/'), in_hundredths) {
        (true, _) if in_days => MetricUnit::Days,
        (true, true) => MetricUnit::Percent,
        (true, false) => unit_of(table, question, definition),
        (false, _) => MetricUnit::Amount,
    };
    let value = match missing.is_empty() {
        true => evaluate(&formula, &operands),
        false => None,
    };
    let decimals = question.decimals.unwrap_or(2);
    let shown = value.map(|v| match unit {
        MetricUnit::Percent => format!("{}%", super::asked::rounded(v * 100.0, decimals)),
        MetricUnit::Days => format!("{} days", super::asked::rounded(v, decimals)),
        MetricUnit::Amount => super::asked::amount_in_asked_scale(
            v,
            operands.first().and_then(|o| o.row.scale.as_deref()),
            question,
        )
        .unwrap_or_else(|| super::asked::rounded(v, question.decimals.unwrap_or(0))),
        _ => super::asked::rounded(v, decimals),
    });
    // A definition without its name ("Divide operating income by total revenue.") defines
    // the metric the question asks.
    // A name that is a whole instruction ("Work out Walmart's return on … in the latest
    // fiscal year on file, where return on average total assets") is no name.
    let pronoun = matches!(
        definition.name.to_lowercase().as_str(),
        "it" | "this" | "that" | "the metric" | "the ratio" | "this metric" | "this ratio"
    );
    let named =
        !definition.name.is_empty() && !pronoun && definition.name.split_whitespace().count() <= 8;
    let label = match named {
        true => definition.name.clone(),
        false => named_metric(table, &question.content)
            .map(|c| c.label.clone())
            .or_else(|| name_before_gloss(&question.text, &definition.formula))
            .unwrap_or_else(|| "The metric asked".to_string()),
    };
    Some(Ok(MetricResult {
        metric_id: "defined_in_question".into(),
        label,
        formula,
        unit,
        operands,
        missing,
        shown,
        value,
    }))
}

/// The analyst's name of a metric glossed by its definition in brackets: "GM; acid ratio
/// (current assets excluding inventories, over current liabilities)" names an "Acid
/// ratio", "Cisco's NM% (net income over revenue)" an "NM%". `None` when no bracket holds
/// the formula or the words before it are no short name.
fn name_before_gloss(text: &str, formula: &str) -> Option<String> {
    let opening: String = formula.chars().take(16).collect();
    let at = text.find(&format!("({opening}"))?;
    let before = &text[..at];
    let clause = before
        .rsplit([';', ':', '.', '?', '!', ',', '—'])
        .next()
        .unwrap_or(before)
        .rsplit("--")
        .next()
        .unwrap_or(before);
    let words: Vec<&str> = clause.split_whitespace().collect();
    // The words after a possessive ("Cisco's", "its") are the measure's.
    let after_owner = words
        .iter()
        .rposition(|w| w.ends_with("'s") || w.ends_with("’s") || *w == "its" || *w == "their")
        .map_or(0, |at| at + 1);
    let name: Vec<&str> = words[after_owner..]
        .iter()
        .copied()
        .skip_while(|w| {
            [
                "what", "was", "is", "the", "a", "an", "of", "for", "in", "were", "did",
            ]
            .contains(&w.to_lowercase().as_str())
        })
        .collect();
    (1..=5)
        .contains(&name.len())
        .then(|| super::stating::capitalise(&name.join(" ")))
}

/// `formula` with each term its where-clause defines ("…, where avgTA = (A + B) / 2, CL =
/// total current liabilities") put in its place, bracketed, and the clause left out; the
/// formula as written when it defines no term.
fn with_terms_defined(formula: &str) -> String {
    static WHERE: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)[,;]?\s+(?:where|with)\s+([A-Za-z][\w/&]{0,15})\s*=\s*").ok()
    });
    static NEXT_TERM: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r"(?:,|;|\band\b)\s*([A-Za-z][\w/&]{0,15})\s*=\s*").ok());
    let Some(first) = WHERE.as_ref().and_then(|re| re.captures(formula)) else {
        return formula.to_string();
    };
    let (Some(whole), Some(name)) = (first.get(0), first.get(1)) else {
        return formula.to_string();
    };
    let head = &formula[..whole.start()];
    let mut rest = &formula[whole.end()..];
    let mut terms: Vec<(String, String)> = Vec::new();
    let mut current = name.as_str().to_string();
    loop {
        let next = NEXT_TERM.as_ref().and_then(|re| re.captures(rest));
        match next.as_ref().and_then(|c| Some((c.get(0)?, c.get(1)?))) {
            Some((at, next_name)) => {
                terms.push((current, rest[..at.start()].trim().to_string()));
                current = next_name.as_str().to_string();
                rest = &rest[at.end()..];
            }
            None => {
                let last = rest.trim().trim_end_matches(['.', ')', ' ']);
                // A closing bracket of the last term's own group stays.
                let last = match last.matches('(').count() > last.matches(')').count() {
                    true => format!("{last})"),
                    false => last.to_string(),
                };
                terms.push((current, last));
                break;
            }
        }
    }
    terms.iter().fold(head.to_string(), |out, (name, with)| {
        replace_word(&out, name, &format!("({with})"))
    })
}

/// The line items an explanation after a definition says are averaged ("with equity taken as
/// the average of last year's and this year's year-end balances"); none when it says no
/// average.
fn averaged_in(table: &ConceptTable, explanation: &str) -> Vec<String> {
    let lower = explanation.to_lowercase();
    let averages = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .any(|w| lexicon().concepts.averaging_words.contains(w));
    if !averages {
        return Vec::new();
    }
    table
        .asked_in(explanation)
        .into_iter()
        .filter(|c| !c.is_metric())
        .map(|c| c.id.clone())
        .collect()
}

/// Whether a parsed definition is one line item of one year with no operation on it.
fn is_one_line_item(expression: &str, terms: &[(String, Term)]) -> bool {
    matches!(terms, [(_, Term::Item { .. })])
        && !expression.contains(['/', '*', '+', '-', '(', ')'])
}

/// `formula` with the whole identifier `id` replaced.
fn replace_term(formula: &str, id: &str, with: &str) -> String {
    // A whole identifier, wherever brackets stand around it: "(terma + termb)".
    super::metrics::replace_identifier(formula, id, with)
}

/// A definition's working as an answer shows it: "(total assets 352,583 + total assets
/// 352,755) ÷ 2".
pub fn amounts(result: &MetricResult) -> Vec<String> {
    result
        .operands
        .iter()
        .map(|o| format_amount(o.value))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::{concept_table, find_rows};
    use crate::model::DocumentIndex;

    const STATEMENTS: &str = "CONSOLIDATED BALANCE SHEETS\n(In millions)\nDecember 31, | 2017 | 2016\nTotal current liabilities | 2,213 | 2,000\nTotal assets | 87,896 | 87,270\nCONSOLIDATED STATEMENTS OF INCOME\n(In millions)\nYear Ended December 31, | 2017 | 2016 | 2015\nNet income | 1,248 | 6,527 | 7,351\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(In millions)\nYear Ended December 31, | 2017 | 2016 | 2015\nNet cash provided by operating activities | 1,469 | 1,200 | 1,100\n";

    fn doc() -> DocumentIndex {
        serde_json::from_str(
            r#"{"doc_id":"d","doc_name":"d.html","doc_type":"10-K","format":"html","source_sha256":"","encoding":"utf-8","metadata":{},"text":"","nodes":[],"chunks":[],"cross_refs":[],"dictionary":[],"links":[],"settings_key":""}"#,
        )
        .unwrap()
    }

    fn work(question: &str) -> MetricResult {
        let table = concept_table().unwrap();
        let q = Question::read(question).unwrap();
        let concepts: Vec<&Concept> = table.concepts.iter().filter(|c| !c.is_metric()).collect();
        let rows = find_rows(STATEMENTS, &concepts);
        defined_metric(table, &q, &AskedColumns::of(&q, &doc()), &rows)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn a_glossed_metric_is_named_by_the_words_before_its_bracket() {
        assert_eq!(
            name_before_gloss(
                "GM; acid ratio (current assets excluding inventories, over current liabilities); at the fiscal 2023 close?",
                "current assets excluding inventories, over current liabilities"
            )
            .as_deref(),
            Some("Acid ratio")
        );
        assert_eq!(
            name_before_gloss(
                "Cisco's NM% (net income over revenue) for fiscal 2024?",
                "net income over revenue"
            )
            .as_deref(),
            Some("NM%")
        );
        // No bracket holding the formula, no name.
        assert_eq!(name_before_gloss("Divide A by B.", "A by B"), None);
    }

    #[test]
    fn the_questions_own_definition_is_worked_out() {
        let r = work("What is the FY2017 operating cash flow ratio for Coca Cola? Operating cash flow ratio is defined as: cash from operations / total current liabilities. Round your answer to two decimal places.");
        assert_eq!(r.shown.as_deref(), Some("0.66"), "{r:?}");
        assert_eq!(r.label, "Operating cash flow ratio");
        let r = work("What is the FY2017 return on assets (ROA) for Coca Cola? ROA is defined as: FY2017 net income / (average total assets between FY2016 and FY2017). Round your answer to two decimal places.");
        assert_eq!(r.operands.len(), 3, "{r:?}");
        // ROA is a percentage, whatever the definition divides: 1.42%, not 0.01.
        assert_eq!(r.shown.as_deref(), Some("1.42%"), "{r:?}");
        let r = work("What is Coca Cola's FY2017 net working capital? Define net working capital as total assets less total current liabilities.");
        assert_eq!(r.value, Some(87_896.0 - 2_213.0));
    }

    #[test]
    fn reversed_and_loosest_divisions_and_explained_averages_are_worked_out() {
        let shown = |q: &str| work(q).shown;
        assert_eq!(
            shown("In our team, cover means total current liabilities divided into operating cash flow. Work it out for FY2017.").as_deref(),
            Some("0.66")
        );
        assert_eq!(
            shown("Cover is defined as operating cash flow vs. total current liabilities. FY2017, please.").as_deref(),
            Some("0.66")
        );
        let mean = work("What was the FY2017 return on average assets? Use net income over the mean of beginning- and end-of-year total assets. Express it as a percentage.");
        let explained = work("The definition we use for asset return is net income as a percent of total assets, with total assets taken as the average of last year's and this year's year-end balances. What does it come to for FY2017?");
        assert_eq!(explained.value, mean.value, "{explained:?}");
        let opening = work("Please compute, for FY2017, the measure I call asset return: net income / ((opening total assets + closing total assets) / 2), in %.");
        assert_eq!(opening.value, mean.value, "{opening:?}");
        let days = work("Liability days are defined as year-end total current liabilities divided by one day of net income (net income / 365). FY2017?");
        assert_eq!(days.unit, MetricUnit::Days, "{days:?}");
        assert_eq!(days.shown.as_deref(), Some("647.23 days"), "{days:?}");
    }

    #[test]
    fn definitions_written_as_steps_or_with_terms_defined_after_them_are_worked_out() {
        let mean = work("What was the FY2017 return on average assets? Use net income over the mean of beginning- and end-of-year total assets. Express it as a percentage.");
        let steps = work("Our desk defines asset yield as what you get by first averaging total assets at the two year-ends, then dividing net income by that average and multiplying by 100. Coca Cola, FY2017?");
        assert_eq!(
            steps.value.map(|v| (v * 1e6).round()),
            mean.value.map(|v| (v * 1e6).round()),
            "{steps:?}"
        );
        let terms = work("Asset yield is NI / avgTA × 100, where avgTA = (total assets at the prior year-end + total assets at this year-end) / 2. Work it out for Coca Cola for FY2017.");
        assert_eq!(
            terms.value.map(|v| (v * 1e6).round()),
            mean.value.map(|v| (v * 1e6).round()),
            "{terms:?}"
        );
        let remains = work("Cover is what you get by first deducting net income from operating cash flow, then dividing what remains by total current liabilities. FY2017?");
        assert_eq!(
            remains.value,
            Some((1_469.0 - 1_248.0) / 2_213.0),
            "{remains:?}"
        );
        let subtracting = work("Our screen defines cash surplus as the amount obtained by subtracting net income from operating cash flow. FY2017?");
        assert_eq!(
            subtracting.value,
            Some(1_469.0 - 1_248.0),
            "{subtracting:?}"
        );
    }

    #[test]
    fn definitions_written_in_words_are_worked_out() {
        let r = work("What was the FY2017 return on average assets? Use net income over the mean of beginning- and end-of-year total assets. Express it as a percentage, rounded to the nearest tenth.");
        assert_eq!(r.shown.as_deref(), Some("1.4%"), "{r:?}");
        assert_eq!(r.label, "return on assets");
        let r = work("What is the FY2017 cash flow coverage? Divide cash from operations by total current liabilities. Two decimals.");
        assert_eq!(r.shown.as_deref(), Some("0.66"), "{r:?}");
        let r = work("FY2017 ratio? Take net income (the bottom line) as a share of total assets. Two decimals.");
        assert_eq!(r.shown.as_deref(), Some("0.01"), "{r:?}");
    }

    #[test]
    fn a_numerator_and_denominator_and_balances_averaged_between_year_ends_are_worked_out() {
        // The same figure asked three ways gives one figure.
        let by_words = work("Note -- ROA here means net income in the numerator and total assets averaged between the prior and current year-ends in the denominator, expressed in %. Coca Cola's figure for FY2017?");
        let by_mean = work("What was the FY2017 return on average assets? Use net income over the mean of beginning- and end-of-year total assets. Express it as a percentage.");
        assert_eq!(by_words.value, by_mean.value, "{by_words:?}");
        let multiple = work("Our credit team works out cash coverage as operating cash flow as a multiple of current liabilities -- on that basis, what was Coca Cola's figure for FY2017?");
        assert_eq!(multiple.shown.as_deref(), Some("0.66"), "{multiple:?}");
        let prior = work("What was Coca Cola's FY2017 asset return? By asset return I mean net income in the numerator and the average of prior and current year-end total assets in the denominator, in percent.");
        assert_eq!(prior.value, by_mean.value, "{prior:?}");
    }

    #[test]
    fn formulas_as_analysts_type_them_are_worked_out() {
        let shown = |q: &str| work(q).shown;
        assert_eq!(
            shown("Using my formula (100 × net income / total assets), what is Coca Cola's asset return for FY2017?").as_deref(),
            Some("1.42%")
        );
        for q in [
            "Definition first: cover = [net income + OCF] ÷ TCL. Now apply it to Coca Cola for FY2017.",
            "What was Coca Cola's FY2017 cover? Please use net income plus operating cash flow, with the result divided by total current liabilities.",
        ] {
            assert_eq!(shown(q).as_deref(), Some("1.23"), "{q}");
        }
        assert_eq!(
            shown("Using my formula (the number of times operating cash flow covers TCL), what is Coca Cola's cover for FY2017?").as_deref(),
            Some("0.66")
        );
        assert_eq!(
            shown("What was Coca Cola's FY2017 asset return? Please use 100 × net income / total assets.").as_deref(),
            Some("1.42%")
        );
        let by_avg = work("Definition first: ROA = 100 × NI / avg(opening total assets, closing total assets). Now apply it to Coca Cola for FY2017.");
        let by_mean = work("What was the FY2017 return on average assets? Use net income over the mean of beginning- and end-of-year total assets. Express it as a percentage.");
        assert_eq!(by_avg.value, by_mean.value, "{by_avg:?}");
    }

    #[test]
    fn a_fraction_said_by_its_top_and_bottom_is_worked_out() {
        let shown = |q: &str| work(q).shown;
        assert_eq!(
            shown("asset_return := a fraction with net income on top and total assets on the bottom, times 100. Coca Cola, FY2017?").as_deref(),
            Some("1.42%")
        );
        let by_avg = work("Definition first: ROA = 100 × NI / avg(opening total assets, closing total assets). Now apply it to Coca Cola for FY2017.");
        let by_fraction = work("Return on mean total assets (%) means a fraction with net income on top and, on the bottom, the average of total assets at the prior and at the current year-end; times 100. Compute it for Coca Cola in FY2017.");
        assert_eq!(by_avg.value, by_fraction.value, "{by_fraction:?}");
    }

    #[test]
    fn definitions_given_first_or_as_a_method_are_worked_out() {
        let shown = |q: &str| work(q).shown;
        for q in [
            "The quotient of operating cash flow and current liabilities -- that's how I define cover. What does it give for Coca Cola in FY2017?",
            "Please calculate the cover of Coca Cola for FY2017, using this formula: numerator: operating cash flow; denominator: total current liabilities.",
        ] {
            assert_eq!(shown(q).as_deref(), Some("0.66"), "{q}");
        }
        let method = work("The rating methodology I follow computes asset return as follows: NI / [(TA_start + TA_end) / 2] × 100. What is Coca Cola's figure for FY2017?");
        let by_mean = work("What was the FY2017 return on average assets? Use net income over the mean of beginning- and end-of-year total assets. Express it as a percentage.");
        assert_eq!(method.value, by_mean.value, "{method:?}");
    }

    /// Cisco's FY2024 balance sheet and cash flow rows, as stored.
    const CISCO: &str = "CONSOLIDATED BALANCE SHEETS\n(In millions)\nJuly 27, 2024 | July 29, 2023\nInventories | 3,373 | 3,644\nTotal current assets | 36,862 | 52,083\nTotal current liabilities | 40,584 | 37,568\nCONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\nYears Ended July 27, 2024 | July 29, 2023\nOperating income | 12,181 | 15,031\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(In millions)\nYears Ended July 27, 2024 | July 29, 2023\nDepreciation, amortization, and other | 2,507 | 1,726\nAcquisition of property and equipment | (670) | (849)\n";

    fn work_on(statements: &str, question: &str) -> MetricResult {
        let table = concept_table().unwrap();
        let q = Question::read(question).unwrap();
        let concepts: Vec<&Concept> = table.concepts.iter().filter(|c| !c.is_metric()).collect();
        let rows = find_rows(statements, &concepts);
        defined_metric(table, &q, &AskedColumns::of(&q, &doc()), &rows)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn a_comma_scopes_the_operation_after_it_over_everything_before() {
        // (36,862 − 3,373) ÷ 40,584 = 0.83, not 36,862 − 3,373 ÷ 40,584 = 36,861.9.
        let r = work_on(CISCO, "What was Cisco's FY2024 quick ratio, calculated as current assets minus inventories, divided by current liabilities?");
        assert_eq!(r.shown.as_deref(), Some("0.83"), "{r:?}");
        assert_eq!(r.formula, "(terma - termb) / termc");
        let r = work_on(
            CISCO,
            "Cisco's FY2024 quick ratio? Use (current assets - inventories) / current liabilities.",
        );
        assert_eq!(r.shown.as_deref(), Some("0.83"), "{r:?}");
    }

    #[test]
    fn a_metric_of_the_table_is_an_operand_of_a_definition() {
        // EBITDA (operating income + D&A) less capex: 12,181 + 2,507 − 670.
        let r = work_on(
            CISCO,
            "Cisco's FY2024 cash profit? Define cash profit as EBITDA less capital expenditures.",
        );
        assert_eq!(r.value, Some(12_181.0 + 2_507.0 - 670.0), "{r:?}");
        assert_eq!(r.operands.len(), 3);
        // "The sum of" names its operands in words.
        let r = work_on(CISCO, "Cisco's FY2024 earnings before D&A? Define it as the sum of operating income and depreciation.");
        assert_eq!(r.value, Some(12_181.0 + 2_507.0), "{r:?}");
    }

    #[test]
    fn a_definition_read_against_its_sense_gives_a_value_the_metric_cannot_take() {
        // "A − B ÷ C" written with symbols is read by precedence: 36,861.9, no quick ratio.
        let table = concept_table().unwrap();
        let r = work_on(CISCO, "What was Cisco's FY2024 quick ratio? Quick ratio is defined as current assets - inventories / current liabilities.");
        let quick = table.get("quick_ratio").unwrap();
        assert!(
            quick.implausible(r.value.unwrap(), r.unit).is_some(),
            "{r:?}"
        );
    }

    #[test]
    fn naming_the_operands_without_an_operation_defines_nothing() {
        let table = concept_table().unwrap();
        let concepts: Vec<&Concept> = table.concepts.iter().filter(|c| !c.is_metric()).collect();
        let rows = find_rows(STATEMENTS, &concepts);
        // Adobe's FY2015 operating margin asked the way an analyst did: the table's formula
        // answers it, not "net income" worked out as the margin.
        let q = Question::read("What was the FY2017 net profit margin? Use net income and total revenue from the consolidated statements of income, and give the answer as a percentage.").unwrap();
        assert!(q.definition.is_some());
        assert!(defined_metric(table, &q, &AskedColumns::of(&q, &doc()), &rows).is_none());
    }

    #[test]
    fn an_operand_it_cannot_find_is_named() {
        let r = work("What is the FY2017 inventory ratio? Inventory ratio is defined as: inventories / total assets.");
        assert!(r.value.is_none());
        assert_eq!(r.missing, vec!["inventories".to_string()]);
        let table = concept_table().unwrap();
        let q = Question::read("What is X? X is defined as: unicorn dust / total assets.").unwrap();
        let err = defined_metric(table, &q, &AskedColumns::of(&q, &doc()), &[])
            .unwrap()
            .unwrap_err();
        assert!(err.contains("unicorn dust"), "{err}");
    }
}
