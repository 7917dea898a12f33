//! Figures as the answer: whether a question asks for a figure, whether the lead's figures
//! can be trusted (HIGH), and the extractive answer with the lead in front of it.

use super::concepts::{ConceptTable, MetricUnit, PRIOR_SUFFIX};
pub use super::lead::{lead_for, FiguresLead};
pub use super::located::{best_rows, locate_rows, LocatedRow};
use crate::lexicon::lexicon;
pub use crate::question::asks_for_figure;
use crate::question::Question;
use crate::search::asks_why;

/// Whether the question asks for a kind of figure the lead does not state: a ratio, margin
/// or rate answered with an amount ("working capital ratio" answered with working capital).
fn asks_unmet_kind(reading: &Question, lead: &FiguresLead) -> bool {
    let question = reading.content.as_str();
    let lower = question.to_lowercase();
    // "What share of revenue did capex represent?" asks a quotient too.
    let asks_kind = crate::search::words(&lower)
        .iter()
        .any(|w| lexicon().answers.figure_kinds.contains(w.as_str()))
        || lexicon().shapes.percent_of.iter().any(|p| {
            p.contains(' ')
                && lower
                    .match_indices(p)
                    .any(|(at, _)| !lower[..at].ends_with("per "))
        });
    // A percentage asked of one figure (no change between years) is a quotient too, in
    // whatever words it is asked.
    let asks_percent_of_a_figure =
        reading.percent && reading.operation == crate::question::Operation::Value;
    let states_kind = !lead.metrics.is_empty()
        || lead.figures.iter().any(|f| f.unit != MetricUnit::Amount)
        || lead.computed.iter().any(|c| c.ends_with('%'));
    // "Diluted earnings per share" answered with net income: a per-share figure asked, none
    // stated.
    let per_share = |text: &str| {
        let text = text.to_lowercase();
        [
            "per share",
            "per-share",
            "a share",
            "/share",
            "per diluted share",
            "per basic share",
            "eps",
        ]
        .iter()
        .any(|p| crate::question::vocabulary::find_phrase(&text, p).is_some())
    };
    let unmet_per_share = per_share(question) && !per_share(&lead.text);
    // "Days of revenue in receivables" asks a number of days ("the 364 days ended …" names
    // a period).
    let words = crate::search::words(&lower);
    let asks_days = words.iter().enumerate().any(|(at, w)| {
        w == "days" && (at == 0 || !words[at - 1].chars().all(|c| c.is_ascii_digit()))
    });
    unmet_per_share || ((asks_kind || asks_percent_of_a_figure || asks_days) && !states_kind)
}

/// Whether a growth in percent was read from a question that asks "how much" and names no
/// percentage ("did its total assets grow or shrink, and by how much?"): the amount may be
/// what is asked, so the percentage is an inference, never firm.
fn percent_read_for_how_much(reading: &Question) -> bool {
    reading.operation == crate::question::Operation::Growth
        && !reading.percent
        && crate::question::vocabulary::find_phrase(&reading.text.to_lowercase(), "how much")
            .is_some()
}

/// Whether the lead's figures can be trusted as the answer: every figure from a row of its
/// own statement, for the period asked when one was asked.
fn lead_is_firm(
    table: &ConceptTable,
    lead: &FiguresLead,
    rows: &[LocatedRow],
    year: Option<i32>,
) -> bool {
    let from_statement = |start: usize| {
        rows.iter().any(|r| {
            r.matched.row.start == start
                && table
                    .get(&r.matched.concept_id)
                    .and_then(|c| c.statement)
                    .is_some_and(|s| r.matched.row.statement == Some(s))
        })
    };
    // "Depreciation" printed beside its own amortization row is part of D&A.
    let partial = |label: &str| {
        let label = crate::finance::rows::normalise_label(label);
        table
            .concepts
            .iter()
            .any(|c| c.partial_line_items.contains(&label))
    };
    let metrics_firm = lead.metrics.iter().all(|m| {
        m.operands.iter().all(|o| {
            !partial(&o.row.label)
                && from_statement(o.row.start)
                && (year.is_none()
                    || o.id.ends_with(PRIOR_SUFFIX)
                    || o.row.columns.get(o.column).and_then(|c| c.year) == year)
        })
    });
    metrics_firm
        && lead.lookups_firm
        && lead.missing.is_empty()
        && !lead.implausible
        && !lead.citations.is_empty()
}

/// `answer` (the extractive one) with the figures lead in front: the lead's citations
/// come first and the answer's markers are renumbered after them; numbers the lead computed
/// are supported by the cited cells; confidence follows the lead.
pub fn with_figures(
    table: &ConceptTable,
    reading: &Question,
    answer: crate::qa::Answer,
    lead: FiguresLead,
    rows: &[LocatedRow],
) -> crate::qa::Answer {
    use crate::qa::{unsupported_numbers, Confidence, ConfidenceLabel};
    let shift = lead.citations.len();
    let question = reading.content.as_str();
    // The year is checked in the filer's calendar (a retailer's fiscal 2023 ends in 2024).
    // One figure for a question naming two years reads an operation it did not recognise
    // (a change, an average, a comparison): shown, never firm.
    let mut years: Vec<i32> = reading.periods.iter().map(|p| p.year).collect();
    years.sort_unstable();
    years.dedup();
    let one_figure_for_two_years =
        reading.operation == crate::question::Operation::Value && years.len() >= 2;
    // A ratio, margin or rate asked, answered with amounts only ("EBITDA margin" stated as
    // EBITDA): the quotient asked was not worked out.
    let asks_quotient =
        lexicon().concepts.quotients.iter().any(|q| {
            crate::question::vocabulary::find_phrase(&question.to_lowercase(), q).is_some()
        });
    let amounts_for_a_quotient = asks_quotient
        && !lead.metrics.is_empty()
        && lead.metrics.iter().all(|m| m.unit == MetricUnit::Amount);
    // "How did R&D change against the prior year?" answered with one year's R&D: a
    // movement asked in words the reading did not take as an operation.
    let words = crate::search::words(&question.to_lowercase());
    let holds_word = |list: &crate::lexicon::WordList| {
        words
            .iter()
            .any(|w| list.contains(w.as_str()) || w.split('-').any(|part| list.contains(part)))
    };
    let movement_unread = reading.operation == crate::question::Operation::Value
        && lead.metrics.is_empty()
        && holds_word(&lexicon().answers.change_words);
    // A turnover, days or return metric worked out on averaged balances when the question
    // does not say to average them: the basis is the engine's choice (measured: "DSO on
    // closing receivables" in unread words was answered on averages at HIGH, wrong).
    let concepts = &lexicon().concepts;
    let averaging_said = holds_word(&concepts.averaging_words)
        || concepts.opening_balance_words.iter().any(|w| {
            crate::question::vocabulary::find_phrase(&question.to_lowercase(), w).is_some()
        });
    let basis_chosen = reading.definition.is_none()
        && !averaging_said
        && lead
            .metrics
            .iter()
            .any(|m| m.operands.iter().any(|o| o.id.ends_with(PRIOR_SUFFIX)));
    // "Operating cash left after capex" answered with operating cash flow and capex apart:
    // two figures for a question that asks one (no list of them) is an operation unread.
    let asked_figures: std::collections::BTreeSet<&str> =
        lead.figures.iter().map(|f| f.concept.as_str()).collect();
    let lists_figures = [" and ", " & ", ",", " as well as ", " plus ", " both ", ";"]
        .iter()
        .any(|joint| question.to_lowercase().contains(joint));
    let two_figures_for_one = lead.metrics.is_empty() && asked_figures.len() >= 2 && !lists_figures;
    let firm = lead_is_firm(table, &lead, rows, lead.asked_year)
        && !movement_unread
        && !two_figures_for_one
        && !basis_chosen
        && asks_for_figure(question)
        && lead.operation_done
        && !one_figure_for_two_years
        && !amounts_for_a_quotient
        && !asks_unmet_kind(reading, &lead)
        && !percent_read_for_how_much(reading);
    let mut out = answer;
    let mut text = lead.text.clone();
    let mut citations = lead.citations.clone();
    if out.answered {
        let renumbered = crate::qa::renumber_markers(&out.answer, shift);
        text.push(' ');
        text.push_str(&renumbered);
        citations.extend(out.citations.iter().cloned().map(|mut c| {
            c.marker += shift;
            c
        }));
    }
    let excerpts: Vec<&str> = citations.iter().map(|c| c.excerpt.as_str()).collect();
    out.unsupported_numbers = unsupported_numbers(&text, &excerpts)
        .into_iter()
        .filter(|n| !lead.is_computed(n))
        .collect();
    let source_nodes = citations
        .iter()
        .map(|c| (c.doc_id.clone(), c.node_id.clone()))
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    out.reasoning.push(match lead.metrics.first() {
        Some(m) => format!(
            "computed {} from {} statement row(s): {}",
            m.label,
            m.operands.len(),
            m.formula
        ),
        None if lead.citations.is_empty() => lead.text.clone(),
        None => "stated the asked line item from its statement row".to_string(),
    });
    let has_figures = !lead.citations.is_empty();
    out.computed = lead.computed_metrics();
    out.figures = lead.figures.clone();
    out.confidence = Confidence {
        // A figure flagged as implausible is shown to be checked, not relied on.
        label: match (has_figures, firm) {
            (true, _) if lead.implausible => ConfidenceLabel::Low,
            (true, true) => ConfidenceLabel::High,
            (true, false) => ConfidenceLabel::Medium,
            (false, _) => ConfidenceLabel::Low,
        },
        score: match (has_figures, firm) {
            (true, true) => 0.9,
            (true, false) => 0.6,
            (false, _) => 0.2,
        },
        answered: out.confidence.answered.max(usize::from(has_figures)),
        unanswered: out.confidence.unanswered,
        source_nodes,
    };
    out.answered = out.answered || has_figures;
    if !out.answered {
        // Only what is missing: say so, and cite nothing.
        out.answer = text;
        out.citations = Vec::new();
        return out;
    }
    out.answer = text;
    out.citations = citations;
    out
}

/// What the discussion around a figure should be searched for: "What was gross margin?"
/// for "Is Nike's gross margin trending the right way?", "What drove gross margin?" for
/// "Why did Nike's gross margin shrink?". The asked concepts' labels, so
/// that a judgement question's own words ("trending", "the right way") do not decide which
/// sentences of MD&A are read.
pub fn focus_question(table: &ConceptTable, question: &str) -> Option<String> {
    let labels: Vec<String> = table
        .asked_in(question)
        .iter()
        .map(|c| c.label.clone())
        .collect();
    // A why-question's discussion is the reason for the figure, not the figure again.
    let asked = labels.join(" and ");
    (!labels.is_empty()).then(|| match asks_why(question) {
        true => format!("What drove {asked}?"),
        false => format!("What was {asked}?"),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::finance::named::named_line_item;
    use crate::finance::parts::names_a_part;
    use crate::model::DocumentIndex;

    pub(crate) fn doc(company: &str) -> DocumentIndex {
        let mut doc: DocumentIndex = serde_json::from_str(
            r#"{"doc_id":"d","doc_name":"d.html","doc_type":"10-K","format":"html","source_sha256":"","encoding":"utf-8","metadata":{},"text":"","nodes":[],"chunks":[],"cross_refs":[],"dictionary":[],"links":[],"settings_key":""}"#,
        )
        .unwrap();
        doc.metadata.company_name = Some(company.to_string());
        doc
    }

    /// The rows of one statement section `text` holds for what `question` asks, as search
    /// hands them over: the table's line items and the row the question names.
    pub(crate) fn located_rows(text: &str, question: &str) -> Vec<LocatedRow> {
        let table = crate::finance::concepts::concept_table().unwrap();
        let named = named_line_item(table, question);
        let mut concepts = table.line_items_for(question);
        concepts.extend(named.as_ref());
        crate::finance::find_rows(text, &concepts)
            .into_iter()
            .map(|matched| LocatedRow {
                doc_id: "d".into(),
                doc_name: "d.html".into(),
                node_id: "0001".into(),
                title: "Consolidated statements of operations".into(),
                page: None,
                headings_page: None,
                matched,
            })
            .collect()
    }

    #[test]
    fn a_line_item_the_statement_does_not_print_is_worked_out_from_its_definition() {
        let table = crate::finance::concepts::concept_table().unwrap();
        // Procter & Gamble's income statement prints no gross profit.
        let text = "CONSOLIDATED STATEMENTS OF EARNINGS\nAmounts in millions | 2023 | 2022\nNet sales | $ 82,006 | $ 80,187\nCost of products sold | 42,760 | 42,157\nSelling, general and administrative expense | 21,112 | 20,217\n";
        let mut pg = doc("Procter & Gamble Co");
        pg.text = text.to_string();
        let question =
            "What was Procter & Gamble's gross profit generated on its sales in fiscal 2023?";
        let reading = Question::read(question).unwrap();
        let rows = located_rows(text, question);
        let lead = lead_for(table, &reading, &pg, &rows).unwrap();
        assert!(lead.text.starts_with("Gross profit"), "{}", lead.text);
        assert!(lead.text.contains("39,246"), "{}", lead.text);
    }

    #[test]
    fn a_margin_over_a_hundred_percent_is_flagged_and_never_high() {
        let table = crate::finance::concepts::concept_table().unwrap();
        // Nike's 2018 10-K: the consolidated gross profit beside a segment's revenues (North
        // America's), the pairing that once gave a gross margin of 107.41%.
        let text = "CONSOLIDATED STATEMENTS OF INCOME\n(In millions)\nYear Ended May 31, | 2018 | 2017\nTotal revenues | $ 14,855 | $ 15,216\nGross profit | 15,956 | 15,312\n";
        let mut nike = doc("NIKE, Inc.");
        nike.text = text.to_string();
        let question = "What was Nike's gross margin in fiscal 2018?";
        let reading = Question::read(question).unwrap();
        let rows = located_rows(text, question);
        let lead = lead_for(table, &reading, &nike, &rows).unwrap();
        assert!(lead.implausible, "{}", lead.text);
        assert!(
            lead.text.contains("107.41%")
                && lead.text.contains(
                    "(outside the plausible range of gross margin, -100% to 100%: check the operands)"
                ),
            "{}",
            lead.text
        );
        let answer = with_figures(
            table,
            &reading,
            crate::qa::Answer::unanswered(question),
            lead,
            &rows,
        );
        assert_eq!(answer.confidence.label, crate::qa::ConfidenceLabel::Low);
        // The same rows in proportion are firm.
        let sound = text.replace("15,956", "6,396").replace("15,312", "6,753");
        nike.text = sound.clone();
        let rows = located_rows(&sound, question);
        let lead = lead_for(table, &reading, &nike, &rows).unwrap();
        assert!(!lead.implausible, "{}", lead.text);
    }

    /// The confidence of the figures answer to `question` over the statement `text`.
    fn label_of(text: &str, question: &str) -> crate::qa::ConfidenceLabel {
        let table = crate::finance::concepts::concept_table().unwrap();
        let mut nike = doc("NIKE, Inc.");
        nike.text = text.to_string();
        let reading = Question::read(question).unwrap();
        let rows = located_rows(text, question);
        let lead = lead_for(table, &reading, &nike, &rows).unwrap();
        with_figures(
            table,
            &reading,
            crate::qa::Answer::unanswered(question),
            lead,
            &rows,
        )
        .confidence
        .label
    }

    #[test]
    fn days_or_an_amount_asked_are_not_met_firmly_by_a_figure_of_another_kind() {
        use crate::qa::ConfidenceLabel::{High, Medium};
        // (How firm a growth asked in percent is, is the families' business: `tests/eval`.)
        let income = "CONSOLIDATED STATEMENTS OF INCOME\n(In millions)\nYear Ended May 31, | 2024 | 2023\nRevenues | $ 51,362 | $ 51,217\n";
        // Days asked, revenue stated.
        assert_ne!(
            label_of(
                income,
                "Nike's dso_closing_ar_days in fiscal 2024 was unusual. What was it really (days of revenue, please)?"
            ),
            High
        );
        // "By how much" may ask the amount: a growth in percent read from it is not firm.
        assert_eq!(
            label_of(income, "Did Nike's revenues grow or shrink from fiscal 2023 to fiscal 2024, and by how much?"),
            Medium
        );
    }

    #[test]
    fn a_row_without_the_current_portion_answers_the_whole_debt_only_in_part() {
        use crate::qa::ConfidenceLabel::{High, Medium};
        let balance = "CONSOLIDATED BALANCE SHEETS\n(in millions)\n | December 31, 2023 | December 31, 2022\nDebt and finance leases, net of current portion | 2,857 | 1,597\nTotal liabilities | 43,009 | 36,440\n";
        assert_eq!(
            label_of(balance, "How much debt did Nike have at the end of 2023?"),
            Medium
        );
        assert_eq!(
            label_of(
                balance,
                "What was Nike's long-term debt at the end of 2023?"
            ),
            High
        );
    }

    #[test]
    fn a_figure_is_firm_only_when_it_is_the_kind_and_basis_asked() {
        use crate::qa::ConfidenceLabel::{High, Medium};
        let income = "CONSOLIDATED STATEMENTS OF INCOME\n(In millions)\nYear Ended May 31, | 2024 | 2023\nRevenues | $ 51,362 | $ 51,217\nResearch and development | 1,200 | 1,100\nNet income | 5,700 | 5,070\n";
        assert_eq!(
            label_of(
                income,
                "What was Nike's research and development expense in fiscal 2024?"
            ),
            High
        );
        // A movement in words the reading took for no operation: one year's figure is no
        // answer to be sure of.
        assert_eq!(
            label_of(
                income,
                "How much did Nike's research and development expense increase in fiscal 2024?"
            ),
            Medium
        );
        // Two figures for a question that asks one.
        let flows = "CONSOLIDATED STATEMENTS OF CASH FLOWS\n(In millions)\nYear Ended May 31, | 2024 | 2023\nNet cash provided by operating activities | 7,429 | 5,841\nPurchases of property, plant and equipment | (812) | (969)\n";
        assert_eq!(
            label_of(flows, "What was Nike's operating cash flow left after capital expenditures in fiscal 2024?"),
            Medium
        );
        // A per-share figure asked, an amount stated.
        assert_eq!(
            label_of(
                income,
                "What was Nike's net income per share in fiscal 2024?"
            ),
            Medium
        );
    }

    #[test]
    fn earnings_are_stated_attributable_to_the_company_then_consolidated() {
        let table = crate::finance::concepts::concept_table().unwrap();
        let text = "CONSOLIDATED STATEMENTS OF OPERATIONS\n(In thousands)\nThree Months Ended June 30, | 2023 | 2022\nNet revenues | 3,942,207 | 3,264,888\nNet income | 243,544 | 1,622,625\nNet income attributable to noncontrolling interests | 42,748 | (161,312)\nNet income attributable to MGM Resorts International | $200,796 | $1,783,937\n";
        let mut mgm = doc("MGM Resorts International");
        mgm.text = text.to_string();
        let question = "How much did MGM earn in Q2 2023?";
        let rows = located_rows(text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &mgm, &rows).unwrap();
        let consolidated = lead.text.find("Net income: 243,544").unwrap();
        let own = lead
            .text
            .find("Net income attributable to MGM Resorts International: $200,796")
            .unwrap();
        // The company's own earnings (us-gaap NetIncomeLoss) first, in the answer's headline.
        assert!(own < consolidated, "{}", lead.text);
        assert!(
            lead.text.starts_with(
                "Net income attributable to MGM Resorts International (Three Months Ended June 30, 2023): $200,796 thousand"
            ),
            "{}",
            lead.text
        );
        assert!(!lead.text.contains("42,748"), "{}", lead.text);
        // Each figure is cited by its own row, exactly.
        for figure in ["243,544", "$200,796"] {
            assert!(
                lead.citations.iter().any(|c| c.excerpt.contains(figure)),
                "{figure}"
            );
        }
        // A filer without minority holders states its one row.
        let apple = "CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\nYears ended | September 28, 2024 | September 30, 2023\nNet income | $ 93,736 | $ 96,995\n";
        let mut doc_apple = doc("Apple Inc.");
        doc_apple.text = apple.to_string();
        let rows = located_rows(apple, "net income");
        let lead = lead_for(
            table,
            &Question::read("What was Apple's net income?").unwrap(),
            &doc_apple,
            &rows,
        )
        .unwrap();
        assert!(
            lead.text.starts_with(
                "Net income for fiscal 2024: $93,736 million [1][2]. Net income: $ 93,736"
            ),
            "{}",
            lead.text
        );
        assert_eq!(lead.text.matches("Net income").count(), 2, "{}", lead.text);
    }

    #[test]
    fn a_margin_the_filing_prints_is_stated_before_it_is_worked_out() {
        let table = crate::finance::concepts::concept_table().unwrap();
        // Nike's MD&A prints its EBIT margin; its statement has no operating income row.
        let nike = "RESULTS OF OPERATIONS\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022\nRevenues | $ 51,217 | $ 46,710\nGross margin | 43.5% | 46.0%\nEBIT margin | 12.1% | 14.7%\n";
        let mut doc_nike = doc("NIKE, Inc.");
        doc_nike.text = nike.to_string();
        let question = "What was Nike's EBIT margin in fiscal 2023?";
        let rows = located_rows(nike, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_nike, &rows).unwrap();
        assert!(lead.text.starts_with("EBIT margin: 12.1%"), "{}", lead.text);
        assert!(lead.citations.iter().any(|c| c.excerpt.contains("12.1%")));
        // Nothing to work out it from is not a gap when the filing states it.
        assert!(lead.missing.is_empty(), "{:?}", lead.missing);
        assert_eq!(lead.figures[0].unit, MetricUnit::Percent);
        assert_eq!(lead.figures[0].value, 12.1);

        // An amount row sharing the metric's name is not the percentage: it is computed.
        let msft = "INCOME STATEMENTS\n(In millions) | Year Ended June 30, 2023 | 2022\nTotal revenue | 211,915 | 198,270\nGross margin | 146,052 | 135,620\nOperating income | 88,523 | 83,383\n";
        let mut doc_msft = doc("Microsoft Corporation");
        doc_msft.text = msft.to_string();
        let question = "What was Microsoft's operating margin?";
        let rows = located_rows(msft, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_msft, &rows).unwrap();
        assert!(lead.text.starts_with("Operating margin"), "{}", lead.text);
        assert!(lead.text.contains("41.77%"), "{}", lead.text);
        let question = "What was Microsoft's gross margin?";
        let rows = located_rows(msft, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_msft, &rows).unwrap();
        assert!(lead.text.contains("68.92%"), "{}", lead.text);
        assert!(
            !lead.text.starts_with("Gross margin: 146,052"),
            "{}",
            lead.text
        );

        // Both printed and computable: the printed figure leads, the working follows.
        let both = "RESULTS OF OPERATIONS\n(In millions) | 2023 | 2022\nRevenues | 1,000 | 900\nOperating income | 150 | 120\nOperating margin | 15.0% | 13.3%\n";
        let mut doc_both = doc("Example Corp");
        doc_both.text = both.to_string();
        let question = "What was the operating margin in 2023?";
        let rows = located_rows(both, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_both, &rows).unwrap();
        let printed = lead.text.find("Operating margin: 15.0%").unwrap();
        let worked = lead
            .text
            .find("Operating margin worked out from the statements")
            .unwrap();
        assert!(printed < worked, "{}", lead.text);
        assert_eq!(lead.figures.len(), 1);
        assert!(!lead.figures[0].computed);

        // Nike's tax table as its PDF prints it: the "bps" cells are no figures, so the
        // headings fall on the wrong values; a column of another year is not the one asked.
        let tax = "INCOME STATEMENT\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022\nIncome before income taxes | 6,201 | 6,651\nIncome tax expense | 1,131 | 605\nINCOME TAXES\nFISCAL 2023 | FISCAL 2022 | % CHANGE FISCAL 2021 | % CHANGE\nEffective tax rate | 18.2% | 9.1% | 910 bps | 14.0% | (490) bps\n";
        let mut doc_tax = doc("NIKE, Inc.");
        doc_tax.text = tax.to_string();
        let question = "What was Nike's tax rate in fiscal 2023?";
        let rows = located_rows(tax, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_tax, &rows).unwrap();
        assert!(!lead.text.contains("14.0%"), "{}", lead.text);
        assert!(lead.text.contains("18.24%"), "{}", lead.text);

        // A working that disagrees (a quarter's return, the filing's annualised) is left out.
        let bank = "HIGHLIGHTS\n(in millions) | 2Q23 | 2Q22\nTotal net revenue | 41,307 | 30,715\nNet income | 14,472 | 8,649\nTotal stockholders’ equity | 312,516 | 286,143\nReturn on common equity (“ROE”) | 20% | 13%\n";
        let mut doc_bank = doc("JPMorgan Chase & Co.");
        doc_bank.text = bank.to_string();
        let question = "What was the ROE in Q2 2023?";
        let rows = located_rows(bank, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &doc_bank, &rows).unwrap();
        assert!(
            lead.text
                .starts_with("Return on common equity (“ROE”): 20%"),
            "{}",
            lead.text
        );
        assert!(!lead.text.contains("worked out"), "{}", lead.text);
        assert!(lead.metrics.is_empty());
    }

    #[test]
    fn a_part_is_answered_by_its_row_under_the_figure_asked() {
        let table = crate::finance::concepts::concept_table().unwrap();
        let text = "REVENUES\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022 | % CHANGE\nNIKE, Inc. Revenues:\nFootwear | $ 33,135 | $ 29,143 | 14%\nTotal NIKE Brand Revenues | $ 48,763 | $ 44,436 | 10%\nConverse | 2,427 | 2,346 | 3%\nTOTAL NIKE, INC. REVENUES | $ 51,217 | $ 46,710 | 10%\nEARNINGS BEFORE INTEREST AND TAXES\n(Dollars in millions) | FISCAL 2023 | FISCAL 2022 | % CHANGE\nConverse | 676 | 669 | 1%\n";
        let mut nike = doc("NIKE, Inc.");
        nike.text = text.to_string();
        nike.nodes = vec![serde_json::from_value(serde_json::json!({
            "node_id": "0001", "title": "Revenues", "level": 1, "parent_id": null,
            "span": {"start_char": 0, "end_char": text.chars().count()},
            "token_count": 0, "summary": "", "summary_engine": "extractive",
            "origin": "pattern", "children": []
        }))
        .unwrap()];
        let question = "How much revenue did Converse bring in in fiscal 2023?";
        let rows = located_rows(text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &nike, &rows).unwrap();
        assert!(
            lead.text
                .starts_with("Converse (revenue): 2,427 (FISCAL 2023)"),
            "{}",
            lead.text
        );
        assert!(!lead.lookups_firm);
        assert!(lead.figures.is_empty());
        assert!(lead
            .citations
            .iter()
            .any(|c| c.excerpt.starts_with("Converse | 2,427")));
        // Under each figure its own row ("EBIT" is how Nike names operating income).
        let question = "What was Converse's operating income in fiscal 2023?";
        let rows = located_rows(text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &nike, &rows).unwrap();
        assert!(lead.text.contains(": 676 (FISCAL 2023)"), "{}", lead.text);
        // A line of the part ("casino revenue at Las Vegas Strip Resorts") is not its total.
        let mgm_text = "The following table presents a detail by segment of net revenues:\n(In thousands) | 2023 | 2022\nLas Vegas Strip Resorts\nCasino | $492,212 | $498,524\nRooms | 706,715 | 696,008\n2,146,650 | 2,137,176\n";
        let mut mgm = doc("MGM Resorts International");
        mgm.text = mgm_text.to_string();
        mgm.nodes = nike.nodes.clone();
        mgm.nodes[0].span.end_char = mgm_text.chars().count();
        let question = "What was casino revenue at Las Vegas Strip Resorts in Q2 2023?";
        let rows = located_rows(mgm_text, question);
        let stated =
            lead_for(table, &Question::read(question).unwrap(), &mgm, &rows).map(|l| l.text);
        assert!(
            !stated.iter().any(|t| t.contains("2,146,650")),
            "{stated:?}"
        );
        let question = "How much revenue did Las Vegas Strip Resorts bring in in Q2 2023?";
        let rows = located_rows(mgm_text, question);
        let lead = lead_for(table, &Question::read(question).unwrap(), &mgm, &rows).unwrap();
        assert!(lead.text.contains(": 2,146,650"), "{}", lead.text);
        // A figure no table of the part's holds is not answered from another's.
        let question = "What was Converse's net income in fiscal 2023?";
        let rows = located_rows(text, question);
        assert!(lead_for(table, &Question::read(question).unwrap(), &nike, &rows).is_none());
    }

    #[test]
    fn the_discussion_of_a_figure_is_searched_for_what_was_asked_of_it() {
        let table = crate::finance::concepts::concept_table().unwrap();
        assert_eq!(
            focus_question(table, "Is Nike's gross margin trending the right way?").as_deref(),
            Some("What was gross margin?")
        );
        assert_eq!(
            focus_question(table, "Why did Nike's gross margin shrink in fiscal 2023?").as_deref(),
            Some("What drove gross margin?")
        );
        // "Earnings growth" is the bottom line's, not bare "growth" (revenue's).
        assert_eq!(
            focus_question(table, "What drove AEGON's earnings growth in 2000?").as_deref(),
            Some("What drove net income growth?")
        );
    }

    #[test]
    fn a_part_of_the_company_is_told_from_the_company_and_its_periods() {
        // A part is one the filing names.
        let with_text = |company: &str, text: &str| {
            let mut d = doc(company);
            d.text = text.to_string();
            d
        };
        let apple = with_text("Apple Inc.", "iPhone net sales. Services net sales.");
        assert!(names_a_part(
            "What were iPhone net sales in the third quarter?",
            &apple
        ));
        assert!(names_a_part(
            "How much revenue did the Las Vegas Strip resorts generate?",
            &with_text("MGM Resorts International", "Las Vegas Strip Resorts")
        ));
        assert!(!names_a_part(
            "What was Apple's free cash flow in FY2024?",
            &apple
        ));
        assert!(!names_a_part(
            "What was the quick ratio at June 30, 2023?",
            &apple
        ));
        assert!(!names_a_part("What was Apple's EBITDA in 2Q24?", &apple));
        // A part in lower case, right after the company's possessive.
        let microsoft = with_text("Microsoft Corporation", "Microsoft Cloud revenue");
        assert!(!names_a_part(
            "CFA L1 practice -- what was Apple's total revenue?",
            &apple
        ));
        assert!(names_a_part(
            "How much revenue does Microsoft's cloud bring in?",
            &microsoft
        ));
        assert!(names_a_part(
            "How big is Apple's services business?",
            &apple
        ));
        // A comma ends the possessive's phrase: "find", a word of the filing, names no part.
        let finding = with_text("Apple Inc.", "iPhone net sales. Customers find value.");
        assert!(!names_a_part(
            "CFA L1 practice -- using Apple's, find the inventory at the FY2023 year-end.",
            &finding
        ));
        assert!(names_a_part(
            "CFA L1 practice -- using Apple's find business, what was the revenue in FY2023?",
            &finding
        ));
        assert!(!names_a_part("What was Apple's total revenue?", &apple));
        assert!(!names_a_part(
            "What was Microsoft's operating margin?",
            &microsoft
        ));
        assert!(!names_a_part("How much did Apple spend on R&D?", &apple));
        assert!(!names_a_part(
            "What does Apple report: Operating Income",
            &apple
        ));
    }

    #[test]
    fn figures_answer_figure_questions_not_judgements() {
        assert!(asks_for_figure("What was Microsoft's quick ratio?"));
        assert!(asks_for_figure(
            "Is Microsoft net cash or net debt, and by how much?"
        ));
        assert!(!asks_for_figure("Why did operating profit collapse?"));
        assert!(!asks_for_figure("Which segment drove the growth?"));
        assert!(!asks_for_figure(
            "Is the gross margin trending the right way?"
        ));
    }
}
