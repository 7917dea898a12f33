//! The lead of a figures answer, built in stages from the question's reading: which
//! concepts are asked (a row the filing names, else the table's), a part's own row, a
//! metric the question defines, each metric worked out and each line item stated for the
//! asked period, every figure cited to its row and the column headings with it.

use super::asked::{amount_in_asked_scale, state_amount, state_metric, work_out, AskedColumns};
use super::concepts::{Concept, ConceptTable, MetricUnit, Statement, PRIOR_SUFFIX};
use super::defined::defined_metric;
use super::located::{best_rows, locate_rows, LocatedRow};
use super::metrics::{compute_metric_on, format_amount, show, MetricResult};
use super::named::named_line_item;
use super::parts::{names_a_part_asked, narrows_the_figure, part_row, without_ticker};
use super::rows::{normalise_label, RowMatch, StatementRow};
use super::sections::months_asked;
use super::shape::{shape_in, Shaped};
use super::stating::{
    capitalise, company_share_of, display_label, is_attributed, line_item_figure, metric_figure,
    period_words, printed_metric, row_sentence, scale_words, worked_cited, Citer,
};
use crate::model::DocumentIndex;
use crate::qa::compare::StatedFigure;
use crate::qa::Citation;
use crate::question::asks_for_share;
use crate::question::{Operation, Question};
use serde::{Deserialize, Serialize};

/// The lead of a figures answer: its text with `[n]` markers, the citations (numbered from
/// 1), the metrics worked out, and what could not be found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct FiguresLead {
    pub text: String,
    pub citations: Vec<Citation>,
    pub metrics: Vec<MetricResult>,
    /// Figures the answer computed (they are in no excerpt, but follow from cited cells).
    pub computed: Vec<String>,
    /// Operands no statement row was found for, by metric.
    pub missing: Vec<String>,
    /// Every line item stated without a metric came from its own statement, for the asked
    /// period.
    pub lookups_firm: bool,
    /// The figures stated, for a comparison across filings; markers are the lead's.
    pub figures: Vec<StatedFigure>,
    /// The operation the question asked (a change, growth, an average) was worked out for
    /// every figure it asked of (always true when it asked for a value).
    pub operation_done: bool,
    /// The column year of the period asked, in the filer's calendar.
    pub asked_year: Option<i32>,
    /// A metric was worked out to a value its kind cannot plausibly take (a margin over
    /// 100%, a quick ratio of 22,669): its operands are suspect, so the lead is never firm.
    pub implausible: bool,
}

impl FiguresLead {
    /// Whether a number of the answer ("59,475", "27.4", "365") is a value the lead
    /// computed or a constant of its formulas.
    pub fn is_computed(&self, number: &str) -> bool {
        let digits = |s: &str| -> String {
            s.chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
                .collect::<String>()
                .trim_end_matches(['.', ','])
                .to_string()
        };
        let wanted = digits(number);
        !wanted.is_empty() && self.computed.iter().any(|c| digits(c) == wanted)
    }

    /// The metrics worked out, as an answer reports them.
    pub fn computed_metrics(&self) -> Vec<crate::qa::ComputedMetric> {
        self.metrics
            .iter()
            .filter_map(|m| {
                Some(crate::qa::ComputedMetric {
                    metric: m.metric_id.clone(),
                    label: m.label.clone(),
                    value: m.value?,
                    shown: m.shown.clone()?,
                    formula: m.formula.clone(),
                    worked: m.worked(),
                    scale: m.operands.first().and_then(|o| o.row.scale.clone()),
                    period: m.operands.first().and_then(|o| o.period.clone()),
                })
            })
            .collect()
    }
}

/// The figures a question asks for, from `rows` of `doc`: each metric it names worked out
/// from its operands' cells for the asked period, else each line item it names stated for
/// that period. `None` when the question names no concept the rows hold.
pub fn lead_for(
    table: &ConceptTable,
    reading: &Question,
    doc: &DocumentIndex,
    rows: &[LocatedRow],
) -> Option<FiguresLead> {
    // A metric named by its shape rather than a name of the table ("EBITDA as a proportion
    // of revenue") is the table's metric of that shape, else the definition its words imply.
    let shape = shape_asked(table, reading, doc);
    let shaped_metric = shape.as_ref().and_then(|s| s.table_metric(table));
    let defined = match (&shape, shaped_metric) {
        (Some(shape), None) => Some(Question {
            definition: Some(shape.definition()),
            ..reading.clone()
        }),
        _ => None,
    };
    let reading = defined.as_ref().unwrap_or(reading);
    // The rows were found for the concepts the question names; a metric named by its shape
    // also needs its operands' rows ("operating profit percentage" names no revenue).
    let with_operands: Vec<LocatedRow>;
    let rows = match shaped_metric {
        Some(metric) => {
            let operands: Vec<&Concept> = table
                .operand_ids(metric)
                .unwrap_or_default()
                .iter()
                .filter_map(|id| table.get(id.strip_suffix(PRIOR_SUFFIX).unwrap_or(id)))
                .collect();
            with_operands = rows
                .iter()
                .cloned()
                .chain(locate_rows(doc, &operands))
                .collect();
            &with_operands
        }
        None => rows,
    };
    let mut asking = Asking::new(table, reading, doc, rows);
    asking.shaped = shape.is_some();
    let named = asking.named_concept();
    let mut asked = match shaped_metric {
        Some(metric) => vec![metric],
        None => asking.asked_concepts(named.as_ref()),
    };
    // Two figures named where a quotient is asked, related in words no shape reads: the
    // table's quotient of them, an inference and so never firm.
    let mut inferred = false;
    if reading.definition.is_none() && !asks_a_movement(reading) {
        let content = without_ticker(&reading.content, doc);
        if let Some(metric) =
            super::shape::quotient_of_named_figures(table, &content, reading.percent, &asked)
        {
            asked = vec![metric];
            inferred = true;
        }
    }
    if asked.is_empty() && reading.definition.is_none() {
        return None;
    }
    // A question about a part (a product, a segment) is not answered by the totals, unless
    // it asks for the part's share of them.
    // "Before adding Apple's notes to our book I want to see its net income": a figure the
    // question gives to the company itself ("its net income") is the company's, whatever
    // part another clause names.
    let part = named.is_none() && names_a_part_asked(asking.question(), doc, &asked);
    if part && !asks_for_share(asking.question()) {
        return asking.part_lead(&asked);
    }
    let mut draft = Draft::new(doc, asking.columns.year);
    draft.lookups_firm &= !inferred;
    // A metric the question defines is worked out as defined, before (and instead of) the
    // table's phrasings of it.
    if draft.state_defined(&asking) {
        asked.clear();
    }
    for concept in asked.iter().filter(|c| c.is_metric()) {
        draft.state_metric(&asking, concept);
    }
    for concept in asked.iter().filter(|c| !c.is_metric()) {
        match asking.whole_of_parts(concept) {
            Some(whole) => draft.state_metric(&asking, &whole),
            None => draft.state_line_item(&asking, concept),
        }
    }
    draft.finish(&asking, &asked, part)
}

/// A line item worked out like a metric, an amount by `formula`, under its own label (its
/// id marked `kind`): no phrasing or row of its own, so only its operands are looked up.
fn worked_amount(concept: &Concept, kind: &str, formula: String) -> Concept {
    Concept {
        id: format!("{}_{kind}", concept.id),
        formula: Some(formula),
        otherwise: None,
        unit: Some(MetricUnit::Amount),
        asked_as: Vec::new(),
        line_items: Vec::new(),
        xbrl: Vec::new(),
        partial_line_items: Vec::new(),
        ..concept.clone()
    }
}

/// Whether the question asks how a figure moved (its growth, change or CAGR).
fn asks_a_movement(reading: &Question) -> bool {
    matches!(
        reading.operation,
        Operation::Growth | Operation::Change | Operation::Cagr
    )
}

/// The quotient the question names by its shape, when it gives no definition and names no
/// ratio of the table (`shape.rs`).
fn shape_asked<'t>(
    table: &'t ConceptTable,
    reading: &Question,
    doc: &DocumentIndex,
) -> Option<Shaped<'t>> {
    // "Operating income percent change" asks a growth, not a margin.
    // "… for GM": a ticker that spells a metric's abbreviation ("GM%") names no metric.
    let content = without_ticker(&reading.content, doc);
    if asks_a_movement(reading)
        || reading.definition.is_some()
        || table
            .asked_in(&content)
            .iter()
            .any(|c| c.is_metric() && c.unit != Some(MetricUnit::Amount))
    {
        return None;
    }
    // "Days of revenue held in receivables (mean of opening and closing A/R)": averaging
    // asked of one year is the balance's, averaged over the year.
    let averages_the_balance = reading.operation == Operation::Average
        && !reading.year_end_balances
        && reading.periods.len() <= 1
        && reading.spanned_years.is_none();
    let is_balance = |c: &Concept| c.statement == Some(super::concepts::Statement::Balance);
    // "Capex load on revenue (%)": the unit asked says the quotient is in percent.
    shape_in(table, &content).map(|shaped| Shaped {
        percent: shaped.percent || (reading.percent && !shaped.days),
        averaged_over: shaped.averaged_over || (averages_the_balance && is_balance(shaped.over)),
        averaged_under: shaped.averaged_under || (averages_the_balance && is_balance(shaped.under)),
        ..shaped
    })
}

/// What a lead is built from: the question's reading, the columns it asks for, and the
/// document's own statement rows.
struct Asking<'a> {
    /// The definition was read from the metric's name, not given: an inference, never firm.
    shaped: bool,
    table: &'a ConceptTable,
    reading: &'a Question,
    doc: &'a DocumentIndex,
    columns: AskedColumns,
    months: Option<u32>,
    rows: Vec<LocatedRow>,
    matches: Vec<RowMatch>,
}

impl<'a> Asking<'a> {
    fn new(
        table: &'a ConceptTable,
        reading: &'a Question,
        doc: &'a DocumentIndex,
        rows: &[LocatedRow],
    ) -> Self {
        let rows: Vec<LocatedRow> = rows
            .iter()
            .filter(|r| r.doc_id == doc.doc_id)
            .cloned()
            .collect();
        Asking {
            shaped: false,
            table,
            reading,
            doc,
            columns: AskedColumns::of(reading, doc),
            months: months_asked(&reading.content),
            matches: rows.iter().map(|r| r.matched.clone()).collect(),
            rows,
        }
    }

    fn question(&self) -> &str {
        &self.reading.content
    }

    /// Whether a metric is asked as the mean over years the question names ("the 3-year
    /// average of capex as a % of revenue"). "The average collection period for fiscal 2024"
    /// names one year: that metric on average balances, which it reads already.
    fn averages_over_named_years(&self) -> bool {
        let years_named = self.reading.periods.len() >= 2 || self.reading.spanned_years.is_some();
        self.reading.operation == Operation::Average && self.columns.years.len() >= 2 && years_named
    }

    fn year(&self) -> Option<i32> {
        self.columns.year
    }

    /// A row the question names in the filing's words: it answers before the table's
    /// shorter phrasings, and it is the part asked about when the question names one.
    fn named_concept(&self) -> Option<Concept> {
        let concept = named_line_item(self.table, self.question())?;
        let row = best_rows(
            self.table,
            &[&concept],
            &self.rows,
            self.year(),
            self.months,
        )
        .into_iter()
        .next()?;
        let label = normalise_label(&row.matched.row.label);
        // A row named in the filing's words that is one of the table's own line items
        // ("total current liabilities") is that line item, vouched for by its statement.
        if let Some(own) = self
            .table
            .concepts
            .iter()
            .find(|c| !c.is_metric() && c.line_items.contains(&label))
            .filter(|c| self.rows.iter().any(|r| r.matched.concept_id == c.id))
        {
            return Some(own.clone());
        }
        Some(Concept { label, ..concept })
    }

    /// The concepts asked: the named row, else the table's concepts the question names,
    /// without those the reading rules out.
    fn asked_concepts<'c>(&'c self, named: Option<&'c Concept>) -> Vec<&'c Concept> {
        let reading = self.reading;
        let mut asked = match named {
            Some(concept) => vec![concept],
            None => self
                .table
                .asked_in(&without_ticker(self.question(), self.doc)),
        };
        // An amount asked ("How much (in USD billions) did it pay out in dividends?") is the
        // line item's, not a ratio's the same words name ("payout").
        let asks_amount = reading.scale.is_some()
            || (self
                .question()
                .trim_start()
                .to_lowercase()
                .starts_with("how much")
                && !reading.percent);
        if asks_amount && asked.iter().any(|c| !c.is_metric()) {
            asked.retain(|c| !c.is_metric() || c.unit == Some(MetricUnit::Amount));
        }
        // A growth the question asks of a line item is worked out on that line item: the
        // table's generic growth metrics (revenue's, for a bare "growth") do not answer it.
        // An average asks no growth: "DSO (average A/R basis)" keeps DSO, whose formula
        // reads the prior balance to average it.
        if asks_a_movement(reading) && asked.iter().any(|c| !c.is_metric()) {
            asked.retain(|c| {
                !c.formula
                    .as_deref()
                    .is_some_and(|f| f.contains(PRIOR_SUFFIX))
            });
        }
        asked
    }

    /// A line item its best row holds only part of ("Depreciation", with "Amortization of
    /// intangible assets" on a row of its own) as the sum of the parts its table prints,
    /// worked out like a metric so every part is cited; or one no statement prints, from the
    /// rows that define it. `None` when the best row is the whole line item, or an operation
    /// over years is asked.
    fn whole_of_parts(&self, concept: &Concept) -> Option<Concept> {
        if self.reading.operation != Operation::Value {
            return None;
        }
        let best = best_rows(self.table, &[concept], &self.rows, self.year(), self.months)
            .into_iter()
            .next();
        // A line item the statements do not print (P&G shows no gross profit) is worked
        // out from the rows that define it (`otherwise` in the concept table).
        let Some(best) = best else {
            let derived = concept.otherwise.clone()?;
            return Some(worked_amount(concept, "derived", derived));
        };
        let column = best.matched.row.column_for(self.year(), self.months)?;
        let parts = super::metrics::other_part_operands(
            concept,
            &best.matched,
            &self.matches,
            column,
            &concept.id,
        );
        if parts.is_empty() {
            return None;
        }
        Some(worked_amount(concept, "whole", concept.id.clone()))
    }

    /// The lead for a part of the company: only the part's own row answers, never firmly,
    /// as it is no statement's. `None` when the question asks a metric of the part or the
    /// part has no row.
    fn part_lead(&self, asked: &[&Concept]) -> Option<FiguresLead> {
        let [concept] = asked else {
            return None;
        };
        if concept.is_metric() || narrows_the_figure(self.question(), concept) {
            return None;
        }
        let (row, column) = part_row(
            self.table,
            self.question(),
            self.doc,
            concept,
            self.year(),
            self.months,
        )?;
        let mut citer = Citer::new(self.doc);
        let (heading_marker, row_marker) = citer.cite_row_parts(&row);
        // No stated figure: a comparison across filings compares the companies' own.
        Some(FiguresLead {
            text: format!(
                "{}.",
                row_sentence(&row.matched.row, column, heading_marker, row_marker)
            ),
            citations: citer.into_citations(),
            ..FiguresLead::default()
        })
    }
}

/// A lead as it is written: its sentences, the lead's fields so far, and the citations.
struct Draft<'a> {
    sentences: Vec<String>,
    lead: FiguresLead,
    citer: Citer<'a>,
    /// Line items already stated as a metric's operands.
    stated_items: Vec<String>,
    lookups_firm: bool,
    /// The operation asked of a metric (its average over years) was worked out.
    metric_operation_done: bool,
}

impl<'a> Draft<'a> {
    fn new(doc: &'a DocumentIndex, year: Option<i32>) -> Self {
        Draft {
            sentences: Vec::new(),
            lead: FiguresLead {
                operation_done: true,
                asked_year: year,
                ..FiguresLead::default()
            },
            citer: Citer::new(doc),
            stated_items: Vec::new(),
            lookups_firm: true,
            metric_operation_done: false,
        }
    }

    /// States the metric the question defines, worked out as defined. Whether it was
    /// stated (the table's concepts then answer nothing more).
    fn state_defined(&mut self, asking: &Asking<'_>) -> bool {
        if asking.reading.definition.is_some() && asking.averages_over_named_years() {
            return self.state_defined_average(asking);
        }
        match defined_lead(asking, &mut self.citer) {
            Some(Ok(DefinedLead {
                sentence,
                result,
                figure,
                implausible,
            })) => {
                self.lead.implausible |= implausible;
                self.lookups_firm &= !asking.shaped;
                self.sentences.push(sentence);
                self.lead.figures.extend(figure);
                self.lead.computed.extend(result.shown.clone());
                self.lead
                    .computed
                    .extend(result.operands.iter().map(|o| format_amount(o.value)));
                self.lead
                    .computed
                    .extend(["2".to_string(), "365".to_string()]);
                self.lead.metrics.push(result);
                true
            }
            Some(Err(missing)) => {
                self.lead.missing.push(missing);
                false
            }
            None => false,
        }
    }

    /// States a metric: the figure the filing prints for it first, then the working from
    /// its operands' rows; or what is missing for it.
    fn state_metric(&mut self, asking: &Asking<'_>, concept: &Concept) {
        if asking.averages_over_named_years() {
            self.state_metric_average(asking, concept);
            return;
        }
        let (year, months) = (asking.year(), asking.months);
        // What the filing prints as the metric is its own figure: stated first, and the
        // computation (its definition may differ: EBIT against operating income) after.
        let printed = printed_metric(asking.table, concept, &asking.rows, year, months);
        // A printed figure rounded coarser than the question asks ("17%" for a rate to one
        // decimal) is stated after the working, which gives the precision asked.
        let coarser = printed.is_some_and(|(row, column)| {
            let cell = row
                .matched
                .row
                .printed
                .get(column)
                .map_or("", String::as_str);
            // A percentage printed whole ("17%") is likewise stated after the working
            // ("17.4%"), which a comparison then reads.
            let shown = decimals_printed(cell);
            match asking.reading.decimals {
                Some(asked) => shown < asked,
                None => shown == 0 && concept.unit == Some(MetricUnit::Percent),
            }
        });
        let mut deferred = None;
        if let Some((row, column)) = printed {
            let (heading_marker, row_marker) = self.citer.cite_row_parts(row);
            let r = &row.matched.row;
            let sentence = row_sentence(r, column, heading_marker, row_marker);
            match coarser {
                true => deferred = Some(sentence),
                false => self.sentences.push(sentence),
            }
            if let Some(figure) =
                line_item_figure(asking.doc, concept, r, column, heading_marker, row_marker)
                    .filter(|_| !coarser)
            {
                self.lead.figures.push(StatedFigure {
                    unit: concept.unit.unwrap_or(MetricUnit::Amount),
                    ..figure
                });
            }
        }
        let result = match compute_metric_on(
            asking.table,
            concept,
            &asking.matches,
            year,
            months,
            asking.reading.year_end_balances,
        ) {
            Ok(result) => result,
            Err(e) => {
                // The table is checked when it loads; this is our bug, not the filing's.
                tracing::error!("{}: {e}", concept.id);
                self.lead
                    .missing
                    .push(format!("{}: {e}", capitalise(&concept.label)));
                self.sentences.extend(deferred);
                return;
            }
        };
        if result.value.is_none() {
            if printed.is_none() {
                self.lead.missing.push(why_not_computed(&result));
            }
            // Without a working the printed figure is the answer, however rounded.
            self.sentences.extend(deferred);
            return;
        }
        if disagrees_with_printed(&result, printed) {
            self.sentences.extend(deferred);
            return;
        }
        self.state_working(asking, concept, result, printed.is_some());
        self.sentences.extend(deferred);
    }

    /// A metric averaged over the years asked ("the 3-year average of capex as a % of
    /// revenue"): worked out for each year from its own columns, then the mean of the
    /// yearly figures, each year's working cited.
    fn state_metric_average(&mut self, asking: &Asking<'_>, concept: &Concept) {
        let years = &asking.columns.years;
        let mut yearly: Vec<MetricResult> = Vec::new();
        for &year in years {
            match compute_metric_on(
                asking.table,
                concept,
                &asking.matches,
                Some(year),
                asking.months,
                asking.reading.year_end_balances,
            ) {
                Ok(result) if result.value.is_some() => yearly.push(result),
                Ok(result) => {
                    self.lead.operation_done = false;
                    self.lead.missing.push(format!(
                        "{} for {}",
                        why_not_computed(&result),
                        asking.columns.fiscal_label(year)
                    ));
                    return;
                }
                Err(e) => {
                    tracing::error!("{}: {e}", concept.id);
                    self.lead
                        .missing
                        .push(format!("{}: {e}", capitalise(&concept.label)));
                    return;
                }
            }
        }
        let (first, last) = (years[0], years[years.len() - 1]);
        let heading = format!(
            "Average {} from {} to {}",
            concept.label,
            asking.columns.fiscal_label(first),
            asking.columns.fiscal_label(last)
        );
        let unit = concept.unit.unwrap_or(MetricUnit::Amount);
        self.state_yearly_mean(asking, &heading, unit, yearly, &asking.rows);
    }

    /// The mean of a metric worked out for each year ("Average … from fiscal 2022 to fiscal
    /// 2024: 55.45% = (56.69% + 55.87% + 53.79%) / 3"), then each year's working cited.
    fn state_yearly_mean(
        &mut self,
        asking: &Asking<'_>,
        heading: &str,
        unit: MetricUnit,
        yearly: Vec<MetricResult>,
        rows: &[LocatedRow],
    ) {
        let values: Vec<f64> = yearly.iter().filter_map(|r| r.value).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let shown = state_metric(mean, unit, asking.reading).unwrap_or_else(|| show(mean, unit));
        let each: Vec<String> = yearly.iter().filter_map(|r| r.shown.clone()).collect();
        self.sentences.push(format!(
            "{heading}: {shown} = ({}) / {}",
            each.join(" + "),
            each.len()
        ));
        self.lead.computed.push(shown);
        self.lead.computed.extend(each);
        self.lead.computed.push(values.len().to_string());
        self.metric_operation_done = true;
        for result in yearly {
            let (heading_markers, row_markers) = self.citer.cite_operands(&result, rows);
            let period = result
                .operands
                .first()
                .map(|o| period_words(&o.row, o.column, &asking.columns))
                .unwrap_or_default();
            let worked = worked_cited(&result, &row_markers);
            let heading_markers = match heading_markers.is_empty() {
                true => String::new(),
                false => format!(" {heading_markers}"),
            };
            self.sentences.push(format!(
                "{}{period}{heading_markers}: {} = {worked}",
                capitalise(&result.label),
                result.shown.clone().unwrap_or_default()
            ));
            self.lead
                .computed
                .extend(result.operands.iter().map(|o| format_amount(o.value)));
            self.lead.metrics.push(result);
        }
    }

    /// The metric the question defines, averaged over the years it names: worked out as
    /// defined for each year, then the mean, each year's working cited. Whether it was
    /// stated.
    fn state_defined_average(&mut self, asking: &Asking<'_>) -> bool {
        let (located, matches) = every_line_item_row(asking);
        let mut yearly: Vec<MetricResult> = Vec::new();
        for &year in &asking.columns.years {
            let columns = AskedColumns {
                year: Some(year),
                ..asking.columns.clone()
            };
            match defined_metric(asking.table, asking.reading, &columns, &matches) {
                Some(Ok(result)) if result.value.is_some() => yearly.push(result),
                Some(Ok(result)) => {
                    self.lead.operation_done = false;
                    self.lead.missing.push(format!(
                        "{}: no statement row found for {} ({})",
                        capitalise(&result.label),
                        result.missing.join(", "),
                        asking.columns.fiscal_label(year)
                    ));
                    return false;
                }
                Some(Err(why)) => {
                    self.lead
                        .missing
                        .push(format!("The definition given could not be read: {why}"));
                    return false;
                }
                None => return false,
            }
        }
        let Some(first) = yearly.first() else {
            return false;
        };
        let unit = first.unit;
        let label = match first.label.strip_prefix("The ") {
            Some(rest) => format!("of the {rest}"),
            None => first.label.clone(),
        };
        let how = match asking.shaped {
            true => "",
            false => " (as the question defines it)",
        };
        let years = &asking.columns.years;
        let heading = format!(
            "Average {label} from {} to {}{how}",
            asking.columns.fiscal_label(years[0]),
            asking.columns.fiscal_label(years[years.len() - 1]),
        );
        self.lookups_firm &= !asking.shaped;
        self.state_yearly_mean(asking, &heading, unit, yearly, &located);
        true
    }

    /// The sentence of a metric worked out: its value in the asked unit, then the formula
    /// with every operand cited.
    fn state_working(
        &mut self,
        asking: &Asking<'_>,
        concept: &Concept,
        result: MetricResult,
        printed: bool,
    ) {
        // Headings once, after the period; each operand's row after its value.
        let (heading_markers, row_markers) = self.citer.cite_operands(&result, &asking.rows);
        self.stated_items.extend(
            result
                .operands
                .iter()
                .map(|o| o.id.trim_end_matches(PRIOR_SUFFIX).to_string()),
        );
        let period = result
            .operands
            .first()
            .map(|o| period_words(&o.row, o.column, &asking.columns))
            .unwrap_or_default();
        let scale = match result.unit {
            MetricUnit::Amount => {
                scale_words(result.operands.first().and_then(|o| o.row.scale.as_deref()))
            }
            _ => String::new(),
        };
        // An amount asked in a scale is stated in it, without the table's.
        let in_asked_scale = match result.unit {
            MetricUnit::Amount => result.value.and_then(|v| {
                amount_in_asked_scale(
                    v,
                    result.operands.first().and_then(|o| o.row.scale.as_deref()),
                    asking.reading,
                )
            }),
            _ => None,
        };
        let scale = match in_asked_scale {
            Some(_) => String::new(),
            None => scale,
        };
        let shown = match in_asked_scale.or_else(|| {
            result
                .value
                .and_then(|v| state_metric(v, result.unit, asking.reading))
        }) {
            Some(rounded) => {
                self.lead.computed.push(rounded.clone());
                rounded
            }
            None => result.shown.clone().unwrap_or_default(),
        };
        let worked = worked_cited(&result, &row_markers);
        let heading_markers = match heading_markers.is_empty() {
            true => String::new(),
            false => format!(" {heading_markers}"),
        };
        let worked_out = match printed {
            true => " worked out from the statements",
            false => "",
        };
        // A value its kind cannot take is shown with its working, and flagged.
        let flag = match result
            .value
            .and_then(|v| concept.implausible(v, result.unit))
        {
            Some(range) => {
                self.lead.implausible = true;
                format!(
                    " (outside the plausible range of {}, {range}: check the operands)",
                    result.label
                )
            }
            None => String::new(),
        };
        self.sentences.push(format!(
            "{}{worked_out}{period}{heading_markers}: {shown}{scale} = {worked}{flag}",
            capitalise(&result.label),
        ));
        if !printed {
            if let Some(figure) = metric_figure(
                asking.doc,
                &concept.id,
                &result,
                &heading_markers,
                &row_markers,
            ) {
                self.lead.figures.push(figure);
            }
        }
        self.lead.computed.push(shown);
        // The formula's constants ("× 365") are not figures of the filing either.
        self.lead.computed.extend(
            result
                .formula
                .split(|c: char| !c.is_ascii_digit() && c != '.')
                .filter(|t| !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()))
                .map(str::to_string),
        );
        self.lead.metrics.push(result);
    }

    /// States a line item for the asked period (or the operation asked of it), from its
    /// row (the company's own share first), and whether that row is firm.
    fn state_line_item(&mut self, asking: &Asking<'_>, concept: &Concept) {
        if self.stated_items.contains(&concept.id) {
            return;
        }
        let (year, months) = (asking.year(), asking.months);
        // An operation over several years reads the best row that holds every one of them
        // (the statement's three-year row, not a two-year table of the same line).
        let candidates = best_rows(asking.table, &[concept], &asking.rows, year, months);
        let holds_every_year = |row: &&LocatedRow| {
            asking.columns.years.iter().all(|&y| {
                row.matched
                    .row
                    .column_for(Some(y), months)
                    .and_then(|c| row.matched.row.columns.get(c))
                    .is_some_and(|c| c.year == Some(y))
            })
        };
        let best = match asking.reading.operation {
            Operation::Value => candidates.first(),
            _ => candidates
                .iter()
                .find(|row| holds_every_year(row))
                .or(candidates.first()),
        };
        let Some(best) = best.copied() else {
            return;
        };
        // The company's own share is its figure; the consolidated one follows it.
        let row = match company_share_of(&asking.rows, best) {
            Some(own) if is_attributed(&own.matched.row.label) => own,
            _ => best,
        };
        let r = &row.matched.row;
        let Some(column) = r.column_for(year, months) else {
            return;
        };
        let (heading_marker, row_marker) = self.citer.cite_row_parts(row);
        let markers = match heading_marker {
            Some(h) => format!("[{h}][{row_marker}]"),
            None => format!("[{row_marker}]"),
        };
        if asking.reading.operation != Operation::Value {
            match work_out(asking.reading, &asking.columns, concept, r) {
                Ok(worked) => {
                    self.sentences
                        .push(format!("{} {markers}", worked.sentence));
                    self.lead.computed.push(worked.shown);
                }
                Err(missing) => {
                    self.lead.operation_done = false;
                    self.lead.missing.push(missing);
                }
            }
        } else if let Some(headline) = headline(asking, concept, r, column) {
            self.sentences
                .push(format!("{} {markers}", headline.sentence));
            self.lead.computed.push(headline.shown);
        }
        self.sentences
            .push(row_sentence(r, column, heading_marker, row_marker));
        // "Net income" of a filer with minority holders is followed by the part
        // attributable to the company, which is what the company itself calls its earnings:
        // both are stated, the consolidated figure first.
        if let Some(other) = company_share_of(&asking.rows, row) {
            let (_, other_marker) = self.citer.cite_row_parts(other);
            self.sentences.push(row_sentence(
                &other.matched.row,
                column,
                heading_marker,
                other_marker,
            ));
        }
        if let Some(figure) =
            line_item_figure(asking.doc, concept, r, column, heading_marker, row_marker)
        {
            self.lead.figures.push(figure);
        }
        self.lookups_firm &= is_firm_lookup(asking, concept, r, column);
    }

    /// The lead, or only what is missing when nothing was stated; `None` when nothing was
    /// stated or found missing.
    fn finish(self, asking: &Asking<'_>, asked: &[&Concept], part: bool) -> Option<FiguresLead> {
        let Draft {
            sentences,
            mut lead,
            citer,
            lookups_firm,
            metric_operation_done,
            ..
        } = self;
        if sentences.is_empty() {
            return (!lead.missing.is_empty()).then(|| FiguresLead {
                text: format!("{}.", lead.missing.join("; ")),
                ..lead
            });
        }
        lead.lookups_firm = lookups_firm && !part;
        // An operation asked of a metric's figure (its growth, its average) is not done here.
        if asking.reading.operation != Operation::Value
            && asked.iter().all(|c| c.is_metric())
            && !metric_operation_done
        {
            lead.operation_done = false;
        }
        lead.text = sentences
            .iter()
            .map(|s| format!("{}.", s.trim_end()))
            .collect::<Vec<_>>()
            .join(" ");
        lead.citations = citer.into_citations();
        let operands: Vec<String> = lead
            .metrics
            .iter()
            .flat_map(|m| m.operands.iter().map(|o| format_amount(o.value)))
            .collect();
        lead.computed.extend(operands);
        Some(lead)
    }
}

/// Why a metric has no value: an operand without a row, or arithmetic without an answer.
fn why_not_computed(result: &MetricResult) -> String {
    match result.missing.is_empty() {
        // Every operand was found, but the arithmetic has no answer.
        true => format!(
            "{}: cannot be computed from these rows (a zero denominator)",
            capitalise(&result.label)
        ),
        false => format!(
            "{}: no statement row found for {}",
            capitalise(&result.label),
            result.missing.join(", ")
        ),
    }
}

/// Whether a working disagrees with the figure the filing prints for the metric by more
/// than a tenth: another definition (a quarter's return against the filing's annualised
/// one), which would only confuse.
fn disagrees_with_printed(result: &MetricResult, printed: Option<(&LocatedRow, usize)>) -> bool {
    let printed_value = printed
        .and_then(|(row, column)| (*row.matched.row.values.get(column)?).filter(|v| *v != 0.0));
    let (Some(printed_value), Some(computed)) = (printed_value, result.value) else {
        return false;
    };
    let computed = match result.unit {
        MetricUnit::Percent => computed * 100.0,
        _ => computed,
    };
    ((computed - printed_value) / printed_value).abs() > 0.1
}

/// A line item's figure as the headline states it, and the figure shown.
struct Headline {
    sentence: String,
    shown: String,
}

/// The line item's figure first, in the unit asked, named by the row's own label: what is
/// cited is what is named. `None` when the cell is empty or no amount.
fn headline(
    asking: &Asking<'_>,
    concept: &Concept,
    row: &StatementRow,
    column: usize,
) -> Option<Headline> {
    let value = row
        .values
        .get(column)
        .copied()
        .flatten()
        .filter(|_| states_an_amount(row, column))?;
    let value = concept.amount_in_row(value, &row.label);
    let shown = state_amount(value, row.scale.as_deref(), asking.reading, concept);
    let period = period_words(row, column, &asking.columns);
    // The row's own label when it is a plain name ("Payment of dividends to
    // stockholders"); the concept's when the label carries notes or amounts
    // ("Accounts receivable, net of allowance of $87 at July 27, 2024").
    let label = match display_label(&row.label) {
        l if l.is_empty()
            || l.chars().any(|c| c.is_ascii_digit())
            || l.split_whitespace().count() > 7 =>
        {
            capitalise(&concept.label)
        }
        l => l,
    };
    Some(Headline {
        sentence: format!("{}{period}: {shown}", capitalise(&label)),
        shown,
    })
}

/// How many decimals a printed cell shows ("17%" none, "17.4%" one).
fn decimals_printed(cell: &str) -> u32 {
    let digits = cell.rsplit_once('.').map_or(0, |(_, after)| {
        after.chars().take_while(char::is_ascii_digit).count()
    });
    u32::try_from(digits).unwrap_or(0)
}

/// Whether a line item's row answers firmly: from its own statement, for the asked year
/// and months; a balance (at a date) never answers for a period ("in the first half").
fn is_firm_lookup(
    asking: &Asking<'_>,
    concept: &Concept,
    row: &StatementRow,
    column: usize,
) -> bool {
    let (year, months) = (asking.year(), asking.months);
    let period = row.columns.get(column);
    let flow_asked_of_a_balance = months.is_some() && concept.statement == Some(Statement::Balance);
    let label = normalise_label(&row.label);
    // "Debt and finance leases, net of current portion" answers "how much debt?" in part.
    let answers = &crate::lexicon::lexicon().answers;
    let question = asking.question().to_lowercase();
    let leaves_out_the_current_part = answers.noncurrent_labels.any_in(&label)
        && !answers
            .noncurrent_words
            .iter()
            .any(|w| crate::question::vocabulary::find_phrase(&question, w).is_some());
    let partial = concept.partial_line_items.contains(&label) || leaves_out_the_current_part;
    concept.statement.is_some()
        && !flow_asked_of_a_balance
        && !partial
        && row.statement == concept.statement
        && (year.is_none() || period.and_then(|p| p.year) == year)
        && (months.is_none()
            || period.and_then(|p| p.months).is_none()
            || period.and_then(|p| p.months) == months)
}

/// The metric a question defines, as the lead states it.
struct DefinedLead {
    sentence: String,
    result: MetricResult,
    /// The figure a comparison across companies reads.
    figure: Option<StatedFigure>,
    /// Outside the plausible range of the metric the question names.
    implausible: bool,
}

/// The rows of every line item of the table in the document (a definition may name any),
/// and their matches.
fn every_line_item_row(asking: &Asking<'_>) -> (Vec<LocatedRow>, Vec<RowMatch>) {
    let line_items: Vec<&Concept> = asking
        .table
        .concepts
        .iter()
        .filter(|c| !c.is_metric())
        .collect();
    let located = locate_rows(asking.doc, &line_items);
    let matches = located.iter().map(|r| r.matched.clone()).collect();
    (located, matches)
}

/// The metric the question defines, worked out and cited: its sentence and result, or what
/// is missing for it. `None` when the question defines no metric.
fn defined_lead(asking: &Asking<'_>, citer: &mut Citer) -> Option<Result<DefinedLead, String>> {
    asking.reading.definition.as_ref()?;
    // "GM; acid ratio (…)": the filer's ticker names the company, not a metric ("GM" is
    // gross margin's shorthand) whose name and unit the definition would take.
    let reading = &Question {
        content: without_ticker(&asking.reading.content, asking.doc),
        ..asking.reading.clone()
    };
    let (located, matches) = every_line_item_row(asking);
    let result = match defined_metric(asking.table, reading, &asking.columns, &matches)? {
        Ok(result) => result,
        Err(why) => {
            return Some(Err(format!(
                "The definition given could not be read: {why}"
            )))
        }
    };
    let Some(shown) = result.shown.clone() else {
        return Some(Err(format!(
            "{}: no statement row found for {}",
            capitalise(&result.label),
            result.missing.join(", ")
        )));
    };
    let (heading_markers, row_markers) = citer.cite_operands(&result, &located);
    let worked = worked_cited(&result, &row_markers);
    // Named by its latest operand: an average's opening balance is the year before.
    let period = result
        .operands
        .iter()
        .max_by_key(|o| o.row.columns.get(o.column).and_then(|c| c.year))
        .map(|o| period_words(&o.row, o.column, &asking.columns))
        .unwrap_or_default();
    let headings = match heading_markers.is_empty() {
        true => String::new(),
        false => format!(" {heading_markers}"),
    };
    // Compared across companies under the table's metric the question names, if any.
    let named = asking
        .table
        .asked_in(asking.question())
        .into_iter()
        .find(|c| c.is_metric());
    let concept_id = named.map_or_else(|| result.metric_id.clone(), |c| c.id.clone());
    let figure = metric_figure(asking.doc, &concept_id, &result, &headings, &row_markers);
    // A value the named metric cannot take (a quick ratio of 22,669) is flagged, never firm.
    let implausible = named
        .zip(result.value)
        .and_then(|(metric, value)| metric.implausible(value, result.unit));
    let flag = implausible
        .as_ref()
        .map(|range| {
            format!(
                " (outside the plausible range of {}, {range}: check the definition and its operands)",
                result.label
            )
        })
        .unwrap_or_default();
    let how = match asking.shaped {
        true => "",
        false => " (as the question defines it)",
    };
    Some(Ok(DefinedLead {
        sentence: format!(
            "{}{period}{how}{headings}: {shown} = {worked}{flag}",
            capitalise(&result.label)
        ),
        result,
        figure,
        implausible: implausible.is_some(),
    }))
}

/// Whether a row's cell is an amount a headline may restate in a unit: not a ratio or a
/// percentage a table "(in millions)" also prints ("Total capital ratio | 17.3").
fn states_an_amount(row: &StatementRow, column: usize) -> bool {
    let label = row.label.to_lowercase();
    let printed = row.printed.get(column).map(String::as_str).unwrap_or("");
    !printed.contains('%')
        && !crate::lexicon::lexicon()
            .answers
            .not_amount_labels
            .iter()
            .any(|w| label.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finance::answer::tests::doc;
    use crate::finance::concepts::concept_table;

    /// The table metric the shape of `question` is, by id.
    fn shaped(question: &str) -> Option<String> {
        let table = concept_table().unwrap();
        let reading = Question::read(question).unwrap();
        shape_asked(table, &reading, &doc("Palantir Technologies Inc."))
            .and_then(|s| s.table_metric(table))
            .map(|c| c.id.clone())
    }

    #[test]
    fn averaging_asked_of_one_year_averages_the_balance_of_a_shaped_quotient() {
        assert_eq!(
            shaped("Palantir's days of revenue held in receivables (mean of opening and closing A/R) for 2023?")
                .as_deref(),
            Some("days_sales_outstanding")
        );
        // On the year-end balance, no metric of the table has the shape: it is worked out
        // as the definition the words imply.
        assert_eq!(
            shaped("Palantir's days of revenue held in receivables for 2023?"),
            None
        );
    }
}
