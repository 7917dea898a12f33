//! What the statement rows give, kept in a model's answer: a figure the model states is
//! grounded to the cells it rests on, and the statements' own sentence leads an answer that
//! leaves the figure out or leads with another.

use docindex_core::finance::FiguresLead;
use docindex_core::qa::grounding::{leads_with, where_metric_stated, where_stated, GivenValue};
use docindex_core::qa::{renumber_markers, Citation};

/// The lead's figures and worked-out metrics the model's answer states (equal after scale
/// and the rounding it wrote), cited to their cells right after the figure: a right figure
/// whose row the model misquoted, or a ratio it computed and did not cite, is grounded,
/// never thrown away. `shift` numbers the cells after the model's
/// own markers.
pub(crate) fn ground_figures(
    text: String,
    lead: &FiguresLead,
    shift: usize,
    citations: &mut Vec<Citation>,
    reasoning: &mut Vec<String>,
) -> String {
    // Each figure the lead stated, and each metric it worked out, with the lead's markers
    // of the cells it rests on (a metric: its operands' rows).
    let mut stated: Vec<(usize, Vec<usize>, String)> = Vec::new();
    for figure in &lead.figures {
        if let Some(end) = where_stated(&text, figure) {
            let what = format!("{} ({})", figure.row_label, figure.shown);
            stated.push((end, figure.markers.clone(), what));
        }
    }
    for metric in &lead.metrics {
        let Some(end) = where_metric_stated(&text, metric) else {
            continue;
        };
        let markers: Vec<usize> = lead
            .citations
            .iter()
            .filter(|c| {
                let excerpt = c.excerpt.to_lowercase();
                metric.operands.iter().any(|o| {
                    excerpt.contains(&o.printed) && excerpt.contains(&o.row.label.to_lowercase())
                })
            })
            .map(|c| c.marker)
            .collect();
        let what = format!("{} ({})", metric.label, metric.worked());
        stated.push((end, markers, what));
    }
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for (end, lead_markers, what) in stated {
        let markers: Vec<usize> = lead_markers.iter().map(|m| m + shift).collect();
        if markers.is_empty() || inserts.iter().any(|(at, _)| *at == end) {
            continue;
        }
        // A figure whose rows the model quoted and cited itself needs no grounding.
        let cells: Vec<&Citation> = lead
            .citations
            .iter()
            .filter(|c| lead_markers.contains(&c.marker))
            .collect();
        let cited_already = cells
            .iter()
            .filter(|cell| holds_an_amount(&cell.excerpt))
            .any(|cell| {
                citations.iter().any(|c| {
                    c.doc_id == cell.doc_id
                        && c.start_char < cell.end_char
                        && cell.start_char < c.end_char
                })
            });
        if cited_already {
            continue;
        }
        for cell in cells {
            if !citations.iter().any(|c| c.marker == cell.marker + shift) {
                citations.push(Citation {
                    marker: cell.marker + shift,
                    ..cell.clone()
                });
            }
        }
        reasoning.push(format!(
            "grounded the figure the answer states to the statement cells it rests on: {what}"
        ));
        inserts.push((end, markers.iter().map(|m| format!("[{m}]")).collect()));
    }
    let mut text = text;
    inserts.sort_by_key(|i| std::cmp::Reverse(i.0));
    for (at, markers) in inserts {
        text.insert_str(at, &format!(" {markers}"));
    }
    text
}

/// `text` led by the statements' own sentence for the figure asked when the answer leads
/// with another figure (another row's, an operand, a coarser rounding than the statements
/// give), and followed by the lead's sentences for the figures it leaves out (a metric's
/// figure counts as stated when its worked-out value is); their cells cited under the lead's
/// markers raised by `shift`. Returns the text and what was added.
pub(crate) fn with_statements_first(
    text: String,
    lead: &FiguresLead,
    asked_precision: bool,
    shift: usize,
    citations: &mut Vec<Citation>,
    reasoning: &mut Vec<String>,
) -> (String, String) {
    // What the lead gives: each figure, and each worked-out metric no figure stands for.
    let metric_states = |piece: &str, id: &str| {
        lead.metrics
            .iter()
            .any(|m| m.metric_id == id && where_metric_stated(piece, m).is_some())
    };
    let mut given: Vec<(String, Finder<'_>)> = Vec::new();
    for figure in &lead.figures {
        let states = move |piece: &str| {
            where_stated(piece, figure).is_some() || metric_states(piece, &figure.concept)
        };
        given.push((figure.label.clone(), Box::new(states)));
    }
    for metric in lead.metrics.iter().filter(|m| m.value.is_some()) {
        if lead.figures.iter().any(|f| f.concept == metric.metric_id) {
            continue;
        }
        let states = move |piece: &str| where_metric_stated(piece, metric).is_some();
        given.push((metric.label.clone(), Box::new(states)));
    }
    if given.is_empty() || lead.citations.is_empty() {
        return (text, String::new());
    }
    // The lead's first sentence that states a figure ("Capital expenditure for fiscal 2024:
    // $9,447 million [1][2]."), not its working and prior years.
    let sentences = lead_sentences(&lead.text);
    let sentence_stating = |states: &Finder<'_>| sentences.iter().copied().find(|s| states(s));
    let asked = given
        .iter()
        .find_map(|(label, states)| sentence_stating(states).map(|s| (label, s)));
    // A rounding coarser than the lead's counts only when the question asked one (the lead
    // then writes the figure as asked); "$93.7 billion" for 93,736 in millions leads.
    let misled = asked.filter(|(_, sentence)| {
        let reference = asked_precision.then_some(*sentence);
        !leads_with(&text, &given_values(lead), reference)
    });
    let unstated: Vec<&(String, Finder<'_>)> =
        given.iter().filter(|(_, states)| !states(&text)).collect();
    let mut chosen: Vec<&str> = misled.iter().map(|(_, sentence)| *sentence).collect();
    for (_, states) in &unstated {
        if let Some(sentence) = sentence_stating(states) {
            if !chosen.contains(&sentence) {
                chosen.push(sentence);
            }
        }
    }
    if chosen.is_empty() {
        return (text, String::new());
    }
    let added_text = renumber_markers(&chosen.join(" "), shift);
    for cell in &lead.citations {
        let marker = cell.marker + shift;
        if added_text.contains(&format!("[{marker}]"))
            && !citations.iter().any(|c| c.marker == marker)
        {
            citations.push(Citation {
                marker,
                ..cell.clone()
            });
        }
    }
    if !unstated.is_empty() {
        let labels: Vec<&str> = unstated.iter().map(|(label, _)| label.as_str()).collect();
        reasoning.push(format!(
            "the answer did not state {} as the statement rows give it; added with the cells",
            labels.join(", ")
        ));
    }
    if let Some((label, _)) = misled {
        reasoning.push(format!(
            "the answer's first figure is not {label} as the statement rows give it (another figure, or rounded more coarsely); their sentence leads, with its cells"
        ));
    }
    // The figure asked leads the answer; the model's words follow. (The stream, already
    // shown, gets it at its end.)
    let added = format!("The statements give: {added_text}");
    (format!("{added}\n\n{text}"), format!("\n\n{added}"))
}

/// The values the lead gives for the period asked, as an answer could lead with them: each
/// figure, and each worked-out metric (a share in percent). Other periods' values are not
/// among them: leading with last year's figure is leading with the wrong one.
fn given_values(lead: &FiguresLead) -> Vec<GivenValue<'_>> {
    let figures = lead.figures.iter().map(GivenValue::of_figure);
    let metrics = lead.metrics.iter().filter_map(GivenValue::of_metric);
    figures.chain(metrics).collect()
}

/// Whether a piece of text states one figure of the lead.
type Finder<'a> = Box<dyn Fn(&str) -> bool + 'a>;

/// The sentences of a lead's text: each ends at ". " before a capital letter.
fn lead_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (at, _) in text.match_indices(". ") {
        let next = text[at + 2..].chars().next();
        if next.is_some_and(char::is_uppercase) {
            out.push(text[start..=at].trim());
            start = at + 2;
        }
    }
    let rest = text[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// Whether a cited cell holds an amount ("(9,447)"), not only column headings
/// ("September 28, 2024 | September 30, 2023").
fn holds_an_amount(excerpt: &str) -> bool {
    let bytes = excerpt.as_bytes();
    bytes
        .windows(5)
        .any(|w| w[0].is_ascii_digit() && w[1] == b',' && w[2..].iter().all(u8::is_ascii_digit))
}

#[cfg(test)]
mod tests {
    use super::lead_sentences;

    #[test]
    fn a_leads_sentences_end_before_a_capital_not_inside_a_figure() {
        let lead = "Net income attributable to Intel for fiscal 2023: $1,689 million [1][2]. \
Net income attributable to Intel: $1,689 (Dec 30, 2023), against $8,014 (Dec 31, 2022) [1][2]. \
Gross margin 55.4% = ( Net revenue 79,024 [3] − Cost of sales 35,209 [4] ) ÷ Net revenue 79,024 [3].";
        let sentences = lead_sentences(lead);
        assert_eq!(sentences.len(), 3, "{sentences:?}");
        assert_eq!(
            sentences[0],
            "Net income attributable to Intel for fiscal 2023: $1,689 million [1][2]."
        );
        assert!(sentences[2].starts_with("Gross margin 55.4% = ("));
    }
}
