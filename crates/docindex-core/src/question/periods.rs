//! The periods a question names, as analysts write them ("FY2018", "fiscal 2018", "2Q23",
//! "H1 2023", "the fiscal year ended January 31, 2024", "FY2015 – FY2017"), and how they
//! map to a filing's own columns through its fiscal calendar.

use super::vocabulary::Vocabulary;
use crate::model::DocumentIndex;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// What a year of a question counts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum YearBasis {
    /// "FY2023", "fiscal 2023", "in 2023": the company's fiscal year, by its own name.
    Fiscal,
    /// "the year ended February 3, 2024": the calendar year the period ends in.
    PeriodEnd,
}

/// One period a question names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AskedPeriod {
    pub year: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quarter: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<u8>,
    pub basis: YearBasis,
    /// As the question wrote it.
    pub written: String,
}

impl AskedPeriod {
    /// Months the period spans: 3 for a quarter, 6 for a half, 12 for a year.
    pub fn months(&self) -> u32 {
        match (self.quarter, self.half) {
            (Some(_), _) => 3,
            (_, Some(_)) => 6,
            _ => 12,
        }
    }

    /// The year a filing's column heading gives this period, for a filer whose fiscal year
    /// is named `fiscal_offset` years before the calendar year it ends in.
    pub fn column_year(&self, fiscal_offset: i32) -> i32 {
        match self.basis {
            YearBasis::Fiscal => self.year + fiscal_offset,
            YearBasis::PeriodEnd => self.year,
        }
    }

    /// How an answer names the period: "fiscal 2023", "Q2 fiscal 2023".
    pub fn label(&self) -> String {
        match (self.quarter, self.half, self.basis) {
            (Some(q), _, _) => format!("Q{q} fiscal {}", self.year),
            (_, Some(h), _) => format!("H{h} fiscal {}", self.year),
            (_, _, YearBasis::Fiscal) => format!("fiscal {}", self.year),
            (_, _, YearBasis::PeriodEnd) => self.written.clone(),
        }
    }
}

/// Years a filer's fiscal year is named before the calendar year it ends in: 1 for a
/// retailer whose fiscal 2023 ends on February 3, 2024 (its cover names fiscal year 2023,
/// its period end 2024); 0 for almost everyone else. Read from the filing's
/// `dei:DocumentFiscalYearFocus` and period end where tagged.
pub fn fiscal_offset(doc: &DocumentIndex) -> i32 {
    let m = &doc.metadata;
    let end_year = m
        .period_end_date
        .as_deref()
        .and_then(|d| d.get(..4))
        .and_then(|y| y.parse::<i32>().ok());
    match (end_year, m.fiscal_year) {
        (Some(end), Some(fiscal)) if end - fiscal == 1 => 1,
        _ => 0,
    }
}

fn two_or_four_digits(text: &str) -> Option<i32> {
    let y: i32 = text.parse().ok()?;
    match text.len() {
        2 => Some(2000 + y),
        4 if (1950..=2100).contains(&y) => Some(y),
        _ => None,
    }
}

const ORDINALS: [&str; 4] = ["first", "second", "third", "fourth"];

fn ordinal(word: &str) -> Option<u8> {
    let word = word.to_lowercase();
    ORDINALS
        .iter()
        .position(|o| *o == word)
        .and_then(|i| u8::try_from(i + 1).ok())
}

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        static $name: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new($re).ok());
    };
}

const FISCAL: &str = r"(?:FY|fiscal(?:\s+year)?|financial\s+year)?\s*'?";
pattern!(
    QUARTER,
    &format!(r"(?i)\b(?:Q([1-4])|([1-4])Q)\s*(?:of\s+)?{FISCAL}(\d{{4}}|\d{{2}})\b")
);
pattern!(
    QUARTER_WORDS,
    &format!(
        r"(?i)\b(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+|in\s+)?(?:the\s+)?{FISCAL}(\d{{4}}|\d{{2}})\b"
    )
);
pattern!(
    HALF,
    &format!(r"(?i)\b(?:H([12])|([12])H)\s*(?:of\s+)?{FISCAL}(\d{{4}}|\d{{2}})\b")
);
pattern!(
    HALF_WORDS,
    &format!(
        r"(?i)\b(first|second)\s+half\s+(?:of\s+|in\s+)?(?:the\s+)?{FISCAL}(\d{{4}}|\d{{2}})\b"
    )
);
// A month's name, whole or abbreviated ("Jun", "Sept.").
const MONTH: &str = r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?";
// A calendar date, in any order of its parts, with or without separators: "June 30, 2024",
// "Sunday, December 31st, 2023", "31 December 2023", "the 31st of December 2022",
// "31-Dec-23", "31DEC2023", "2022-Dec-31", "2023 December 31", "12/31/2023", "12/31/23",
// "30.09.2024", "2023-12-31", "2023/12/31". A day and a year with nothing between them
// ("Dec 2023") are no date: the month's end is read by MONTH_YEAR.
const DAY: &str = r"(\d{1,2})(?:st|nd|rd|th)?";
pattern!(
    DATE_MONTH_FIRST,
    &format!(r"(?i)\b({MONTH})[\s\-/.]*(?:the\s+)?{DAY}(?:,\s*|[\s\-/.]+)(?:of\s+)?(\d{{4}})\b")
);
pattern!(
    DATE_DAY_FIRST,
    &format!(r"(?i)\b{DAY}(?:\s+of)?[\s\-/.]*({MONTH}),?[\s\-/.']*(\d{{4}}|\d{{2}})\b")
);
pattern!(
    DATE_YEAR_FIRST,
    &format!(r"(?i)\b(\d{{4}})[\s\-/.]*({MONTH})[\s\-/.]*(\d{{1,2}})\b")
);
// Numbers only: month first with slashes or dashes (as US filers write), day first with
// dots (as European ones do), year first with dashes or slashes.
pattern!(
    DATE_NUMERIC,
    r"\b(?:(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})|(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})|(\d{4})[-/.](\d{2})[-/.](\d{2}))\b"
);

/// A year, a month (1-12) and a day.
type YearMonthDay = (i32, u32, u32);

/// A date `text` writes: where it stands, and its year, month and day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CalendarDate {
    start: usize,
    end: usize,
    year: i32,
    month: u32,
    day: u32,
}

impl CalendarDate {
    /// In the first week of January: the end of a 52/53-week fiscal year named for the
    /// year before.
    fn in_first_week(&self) -> bool {
        self.month == 1 && self.day <= 7
    }
}

fn month_number(name: &str) -> Option<u32> {
    let name = name.to_ascii_lowercase();
    [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .iter()
    .position(|m| name.starts_with(m))
    .map(|i| i as u32 + 1)
}

/// Every date `text` writes, in the order written, none overlapping another.
fn calendar_dates(text: &str) -> Vec<CalendarDate> {
    let mut dates: Vec<CalendarDate> = Vec::new();
    let number = |c: &regex::Captures, i: usize| c.get(i)?.as_str().parse::<u32>().ok();
    let read_named = |c: &regex::Captures, year: usize, month: usize, day: usize| {
        Some((
            two_or_four_digits(c.get(year)?.as_str())?,
            month_number(c.get(month)?.as_str())?,
            number(c, day)?,
        ))
    };
    let mut scan = |re: &LazyLock<Option<Regex>>,
                    read: &dyn Fn(&regex::Captures) -> Option<YearMonthDay>| {
        let Some(re) = re.as_ref() else { return };
        for c in re.captures_iter(text) {
            let Some(whole) = c.get(0) else { continue };
            let overlaps = dates
                .iter()
                .any(|d| whole.start() < d.end && d.start < whole.end());
            let Some((year, month, day)) = read(&c) else {
                continue;
            };
            if overlaps || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
                continue;
            }
            dates.push(CalendarDate {
                start: whole.start(),
                end: whole.end(),
                year,
                month,
                day,
            });
        }
    };
    scan(&DATE_MONTH_FIRST, &|c| read_named(c, 3, 1, 2));
    scan(&DATE_DAY_FIRST, &|c| read_named(c, 3, 2, 1));
    scan(&DATE_YEAR_FIRST, &|c| read_named(c, 1, 2, 3));
    scan(&DATE_NUMERIC, &|c| {
        let parts = |y: usize, m: usize, d: usize| {
            Some((
                two_or_four_digits(c.get(y)?.as_str())?,
                number(c, m)?,
                number(c, d)?,
            ))
        };
        parts(3, 1, 2)
            .or_else(|| parts(6, 5, 4))
            .or_else(|| parts(7, 8, 9))
    });
    dates.sort_by_key(|d| d.start);
    dates
}

// "FY23", "FY-23", "fiscal '23", "CY2023", "F23".
pattern!(
    FISCAL_YEAR,
    r"(?i)\b(?:(?:FYE|FY|CY|YE|fiscal(?:\s+year)?|financial\s+year|calendar(?:\s+year)?)(?:\s*-)?\s*['’]?|F)(\d{4}|\d{2})[AEae]?\b"
);
// "the fiscal year that began in October 2023", "starting 1 October 2023": a year named by
// its first month, which ends twelve months later.
pattern!(
    STARTED,
    &format!(
        r"(?i)\b(?:began|begins|beginning|begun|starting|started|starts|commencing|commenced)\s+(?:on\s+|in\s+)?(?:[a-z]+day,?\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?)?({MONTH})\s*(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?(\d{{4}})\b"
    )
);
// "fiscal 2023/24", "FY2023-24", "the 2023–2024 fiscal year": one year over two calendar
// years (the one it ends in), when a slash joins the two or a year's name stands beside
// them; "2023-2024" alone may be two years.
pattern!(
    SPLIT_YEAR,
    r"(?i)(?:(\b(?:FY|fiscal(?:\s+year)?|financial\s+year)\s*'?)|\b)(\d{4})\s*(/|-|–|—)\s*(\d{4}|\d{2})\b(\s+(?:fiscal|financial)\s+year)?"
);
// "2023", and "2023A"/"2024E" as models write actuals and estimates.
pattern!(BARE_YEAR, r"\b(19[5-9]\d|20\d{2})[AE]?\b");
// "Dec-23", "Jul-2024", "Sep '24": a month's end written with its year.
pattern!(
    MONTH_YEAR,
    &format!(r"(?i)\b{MONTH}(?:(?:-|\s*['’])(\d{{4}}|\d{{2}})|\s+(\d{{4}}))\b")
);
// "FYE 12/2023", "the fiscal year ended 01/2024": a month's end written as numbers.
pattern!(NUMERIC_MONTH_YEAR, r"\b(?:0?[1-9]|1[0-2])/(\d{4})\b");
// "in '23", "in ’23": a year written with its century left out.
pattern!(CLIPPED_YEAR, r"(?:^|[^\w'’])['’](\d{2})\b");
// "FY2015 – FY2017", "2015-2017", "from FY2015 to FY2017", "FY2015 through FY2017".
pattern!(
    RANGE,
    r"(?i)(\d{2,4})[AE]?\s*(?:–|—|-|\bto\b|\bthrough\b|\bthru\b)\s*(?:FY-?|fiscal(?:\s+year)?\s*)?'?(\d{2,4})[AE]?\b"
);
// "3 year average", "three-year", "the three accounting years ended …". "A two-year-end
// average" is the mean of two balances, not of two years: the "end" is captured to tell.
pattern!(
    SPAN_YEARS,
    r"(?i)\b(2|3|4|5|two|three|four|five)[\s-]+(?:[a-z]+[\s-]+){0,2}?(?:years?|yrs?)\b(-ends?\b)?"
);

/// 1 when a date falls in the first week of January ("January 1, 2023", "1 Jan 2023",
/// "2023-01-01"): the end of a 52/53-week fiscal year named for the year before, as the
/// filer's columns name it (Johnson & Johnson's fiscal 2022 ended January 1, 2023); else 0.
pub fn ends_a_52_53_week_year(date: &str) -> i32 {
    // A day and month without a year ("Jan. 1"): a column heading writes its year apart.
    static FIRST_WEEK: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"(?i)\bjan(?:uary)?\.?\s+0?[1-7](?:st|nd|rd|th)?\b|\b0?[1-7](?:st|nd|rd|th)?[\s-]+(?:of\s+)?jan(?:uary)?\b").ok()
    });
    i32::from(
        calendar_dates(date).iter().any(CalendarDate::in_first_week)
            || FIRST_WEEK.as_ref().is_some_and(|re| re.is_match(date)),
    )
}

/// Whether a written date is the first day of a month ("2023-06-01", "June 1, 2023",
/// "1 Jan 2023", "01.01.2023"): where a span starts.
fn starts_a_month(written: &str) -> bool {
    calendar_dates(written).first().is_some_and(|d| d.day == 1)
}

/// The month and year of a month named without its day ("Jun 2022", "June 2022",
/// "Jan-2023"), as (1-12, year).
fn month_and_year(written: &str) -> Option<(u32, i32)> {
    static MONTH_ONLY: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(&format!(r"(?i)^({MONTH})[\s-]*['’]?(\d{{2}}|\d{{4}})$")).ok());
    let caps = MONTH_ONLY.as_ref()?.captures(written.trim())?;
    Some((month_number(&caps[1])?, two_or_four_digits(&caps[2])?))
}

/// How many whole fiscal years run from the first date to the last, when the first is a
/// year's first day and the last a year's last: "January 2, 2023 to December 31, 2023" (52
/// weeks) and "October 1, 2021 to September 30, 2024" (three calendar years less a day) are
/// spans of years; "December 31, 2022 to December 31, 2023" is two year-ends, not a span.
fn whole_years_spanned(first: &str, last: &str) -> Option<i32> {
    use chrono::Datelike;
    let day = |written: &str| {
        let [date] = calendar_dates(written)[..] else {
            return None;
        };
        chrono::NaiveDate::from_ymd_opt(date.year, date.month, date.day)
    };
    let (from, to) = (day(first)?, day(last)?);
    let days = (to - from).num_days() + 1;
    let years = i32::try_from((days as f64 / 365.25).round() as i64).ok()?;
    let whole_weeks = days % 7 == 0 && (days - i64::from(years) * 364).abs() <= 7;
    let calendar_years = from
        .checked_add_months(chrono::Months::new(12 * u32::try_from(years).ok()?))
        .and_then(|end| end.pred_opt())
        == Some(to);
    // A month's last day closes a year ("December 31, 2022 to December 30, 2023" are two
    // of Intel's year-ends); a year's first day follows one.
    let closes_a_month = from.succ_opt().is_some_and(|next| next.day() == 1);
    (years >= 1 && !closes_a_month && (whole_weeks || calendar_years)).then_some(years)
}

/// Whether two months named without their days bound one twelve-month period ("Jun 2022 –
/// May 2023", "Jan 2023 – Dec 2023"), rather than two year-ends ("Dec 2022 to Dec 2023").
fn bound_one_year(first: &str, last: &str) -> bool {
    match (month_and_year(first), month_and_year(last)) {
        (Some((1, from)), Some((12, to))) => from == to,
        (Some((m, from)), Some((n, to))) => n + 1 == m && to == from + 1,
        _ => false,
    }
}

/// Every period `text` names, in the order written, each once.
pub fn periods_in(text: &str) -> Vec<AskedPeriod> {
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut found: Vec<(usize, AskedPeriod)> = Vec::new();
    let free = |taken: &[(usize, usize)], s: usize, e: usize| {
        taken.iter().all(|(ts, te)| e <= *ts || s >= *te)
    };
    // Each reading, in the order of the patterns: a period of text an earlier pattern read
    // is not read again.
    let mut take = |readings: Vec<(usize, usize, Option<AskedPeriod>)>| {
        for (start, end, period) in readings {
            if let Some(period) = period.filter(|_| free(&taken, start, end)) {
                taken.push((start, end));
                found.push((start, period));
            }
        }
    };
    let scan = |re: &LazyLock<Option<Regex>>,
                read: &dyn Fn(&regex::Captures) -> Option<AskedPeriod>| {
        re.as_ref()
            .map(|re| {
                re.captures_iter(text)
                    .filter_map(|caps| {
                        let whole = caps.get(0)?;
                        Some((whole.start(), whole.end(), read(&caps)))
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    let written = |caps: &regex::Captures| caps[0].trim().to_string();
    take(scan(&QUARTER, &|c| {
        let q = c.get(1).or(c.get(2))?.as_str().parse().ok()?;
        Some(AskedPeriod {
            year: two_or_four_digits(&c[3])?,
            quarter: Some(q),
            half: None,
            basis: YearBasis::Fiscal,
            written: written(c),
        })
    }));
    take(scan(&QUARTER_WORDS, &|c| {
        Some(AskedPeriod {
            year: two_or_four_digits(&c[2])?,
            quarter: Some(ordinal(&c[1])?),
            half: None,
            basis: YearBasis::Fiscal,
            written: written(c),
        })
    }));
    take(scan(&HALF, &|c| {
        let h = c.get(1).or(c.get(2))?.as_str().parse().ok()?;
        Some(AskedPeriod {
            year: two_or_four_digits(&c[3])?,
            quarter: None,
            half: Some(h),
            basis: YearBasis::Fiscal,
            written: written(c),
        })
    }));
    take(scan(&HALF_WORDS, &|c| {
        Some(AskedPeriod {
            year: two_or_four_digits(&c[2])?,
            quarter: None,
            half: Some(ordinal(&c[1])?),
            basis: YearBasis::Fiscal,
            written: written(c),
        })
    }));
    take(scan(&STARTED, &|c| {
        let (month, year) = month_and_year(&format!("{} {}", &c[1], &c[2]))?;
        Some(AskedPeriod {
            year: if month == 1 { year } else { year + 1 },
            quarter: None,
            half: None,
            basis: YearBasis::PeriodEnd,
            written: written(c),
        })
    }));
    take(
        calendar_dates(text)
            .into_iter()
            .map(|date| {
                let period = AskedPeriod {
                    year: date.year - i32::from(date.in_first_week()),
                    quarter: None,
                    half: None,
                    basis: YearBasis::PeriodEnd,
                    written: text[date.start..date.end].trim().to_string(),
                };
                (date.start, date.end, Some(period))
            })
            .collect(),
    );
    take(scan(&NUMERIC_MONTH_YEAR, &|c| {
        Some(AskedPeriod {
            year: two_or_four_digits(&c[1])?,
            quarter: None,
            half: None,
            basis: YearBasis::PeriodEnd,
            written: written(c),
        })
    }));
    take(scan(&MONTH_YEAR, &|c| {
        Some(AskedPeriod {
            year: two_or_four_digits(c.get(1).or(c.get(2))?.as_str())?,
            quarter: None,
            half: None,
            basis: YearBasis::PeriodEnd,
            written: written(c),
        })
    }));
    take(scan(&SPLIT_YEAR, &|c| {
        let first = two_or_four_digits(&c[2])?;
        let second = match c[4].len() {
            2 => first / 100 * 100 + c[4].parse::<i32>().ok()?,
            _ => two_or_four_digits(&c[4])?,
        };
        let named_a_year = c.get(1).is_some() || c.get(5).is_some();
        (second == first + 1 && (&c[3] == "/" || named_a_year)).then(|| AskedPeriod {
            year: second,
            quarter: None,
            half: None,
            basis: YearBasis::PeriodEnd,
            written: written(c),
        })
    }));
    for re in [&FISCAL_YEAR, &BARE_YEAR, &CLIPPED_YEAR] {
        take(scan(re, &|c| {
            Some(AskedPeriod {
                year: two_or_four_digits(&c[1])?,
                quarter: None,
                half: None,
                basis: YearBasis::Fiscal,
                written: written(c),
            })
        }));
    }
    found.sort_by_key(|(at, _)| *at);
    // "the prior-year column (FY2023) of its FY2024 10-K": a year that names the filing is
    // not the period asked when another is named.
    let names_the_filing = |at: usize, period: &AskedPeriod| {
        let rest = text
            .get(at + period.written.len()..)
            .unwrap_or("")
            .trim_start()
            .to_lowercase();
        [
            "10-k",
            "10-q",
            "annual report",
            "form 10-k",
            "filing",
            "20-f",
        ]
        .iter()
        .any(|f| rest.starts_with(f))
    };
    // "the period 2023-06-01 to 2024-05-31", "FY2024 (Jun 2023 – May 2024)": a span from
    // the first of a month, or over twelve named months, is one period, the one it ends.
    // "From December 27, 2020 to December 30, 2023": a span of whole fiscal years from the
    // first day of one is those years.
    let mut spans: Vec<(usize, Vec<AskedPeriod>)> = Vec::new();
    for pair in found.windows(2) {
        let (at, first) = &pair[0];
        let (next_at, last) = &pair[1];
        let between = text
            .get(at + first.written.len()..*next_at)
            .unwrap_or("")
            .trim()
            .to_lowercase();
        if first.basis != YearBasis::PeriodEnd
            || !["to", "–", "—", "-", "through", "thru", "until", "till"]
                .contains(&between.as_str())
        {
            continue;
        }
        if let Some(years) = whole_years_spanned(&first.written, &last.written) {
            let earlier = (1..years)
                .rev()
                .map(|back| AskedPeriod {
                    year: last.year - back,
                    written: format!("the year ended in {}", last.year - back),
                    ..last.clone()
                })
                .collect();
            spans.push((*at, earlier));
        } else if starts_a_month(&first.written) || bound_one_year(&first.written, &last.written) {
            spans.push((*at, Vec::new()));
        }
    }
    let mut found: Vec<(usize, AskedPeriod)> = found
        .into_iter()
        .flat_map(
            |(at, period)| match spans.iter().find(|(start, _)| *start == at) {
                Some((_, earlier)) => earlier.iter().map(|p| (at, p.clone())).collect(),
                None => vec![(at, period)],
            },
        )
        .collect();
    let filing_years: Vec<usize> = found
        .iter()
        .filter(|(at, p)| names_the_filing(*at, p))
        .map(|(at, _)| *at)
        .collect();
    if filing_years.len() < found.len() {
        found.retain(|(at, _)| !filing_years.contains(at));
    }
    let mut out: Vec<AskedPeriod> = Vec::new();
    for (at, mut period) in found {
        // "At the beginning of fiscal 2024", "the start of 2023": the balance sheet that opens
        // the year is the one that closed the year before.
        let before = text[..at].trim_end().to_lowercase();
        // "Going into fiscal 2024", "the balance carried into fiscal 2024" too.
        let opens = [
            "beginning of",
            "start of",
            "opening of",
            "outset of",
            "going into",
            "heading into",
            "coming into",
            "entering",
            "carried into",
            "brought into",
        ]
        .iter()
        .any(|w| before.ends_with(w) || before.ends_with(&format!("{w} the")));
        if opens && period.quarter.is_none() && period.half.is_none() {
            period.year -= 1;
            period.basis = YearBasis::PeriodEnd;
        }
        let same = |p: &AskedPeriod| {
            p.year == period.year && p.quarter == period.quarter && p.half == period.half
        };
        if !out.iter().any(same) {
            out.push(period);
        }
    }
    out
}

/// The years a question names relative to the filing's latest (0 the latest, -1 the one
/// before), earliest first: "from the prior year to the latest year" and "the two most recent
/// fiscal years" are [-1, 0], "the most recent fiscal year" is [0]; empty when it names none.
pub fn relative_years(lower: &str, v: &Vocabulary) -> Vec<i32> {
    static SPAN: LazyLock<Option<Regex>> = LazyLock::new(|| {
        let v = super::vocabulary::vocabulary().ok()?;
        let alternation = |words: &[String]| {
            let mut words: Vec<&String> = words.iter().collect();
            words.sort_by_key(|w| std::cmp::Reverse(w.len()));
            words
                .iter()
                .map(|w| regex::escape(w).replace(' ', r"\s+"))
                .collect::<Vec<_>>()
                .join("|")
        };
        let (recent, years) = (
            alternation(&v.recent_span_words),
            alternation(&v.span_year_words),
        );
        let count = "2|3|4|5|two|three|four|five";
        Regex::new(&format!(
            r"\b(?:(?:{recent})\s+({count})|({count})\s+(?:{recent}))\s+(?:(?:fiscal|full|reported|annual|complete|completed)\s+)?(?:{years})\b"
        ))
        .ok()
    });
    if let Some(caps) = SPAN.as_ref().and_then(|re| re.captures(lower)) {
        let count = caps.get(1).or(caps.get(2)).map_or("", |m| m.as_str());
        let n = match count {
            "two" => 2,
            "three" => 3,
            "four" => 4,
            "five" => 5,
            digits => digits.parse().unwrap_or(1),
        };
        return (1 - n..=0).collect();
    }
    // "Two years back", "three fiscal years ago", "the year before the comparative year":
    // so many years before the latest.
    static YEARS_BACK: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"\b(two|three|four|2|3|4)\s+(?:fiscal\s+|full\s+|financial\s+)?years?\s+(?:back|ago|earlier|before|prior|previously)\b|\byear\s+before\s+the\s+(?:prior|previous|preceding|comparative)\b").ok()
    });
    if let Some(caps) = YEARS_BACK.as_ref().and_then(|re| re.captures(lower)) {
        let n = match caps.get(1).map_or("2", |m| m.as_str()) {
            "three" | "3" => 3,
            "four" | "4" => 4,
            _ => 2,
        };
        return vec![-n];
    }
    // "At the beginning of the latest fiscal year": the balance sheet that opens it, the
    // prior year-end's.
    static OPENING_OF_LATEST: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"\b(?:beginning|start|opening|outset)\s+of\s+(?:the\s+|its\s+)?(?:latest|most\s+recent|current|last\s+reported|newest|this)\s+(?:fiscal\s+|financial\s+|reporting\s+)?year\b").ok()
    });
    if OPENING_OF_LATEST
        .as_ref()
        .is_some_and(|re| re.is_match(lower))
    {
        return vec![-1];
    }
    // Where each phrase stands, so "the year before the latest" is the prior year alone.
    let spans = |phrases: &[String]| -> Vec<(usize, usize)> {
        phrases
            .iter()
            .flat_map(|p| {
                let mut found = Vec::new();
                let mut from = 0;
                while let Some(at) = lower
                    .get(from..)
                    .and_then(|rest| super::vocabulary::find_phrase(rest, p))
                {
                    found.push((from + at, from + at + p.len()));
                    from += at + p.len();
                }
                found
            })
            .collect()
    };
    let prior = spans(&v.prior_period_phrases);
    let latest = spans(&v.latest_period_phrases)
        .into_iter()
        .filter(|(a, b)| !prior.iter().any(|(c, d)| a < d && c < b))
        .count();
    match (prior.is_empty(), latest) {
        (false, 0) => vec![-1],
        (false, _) => vec![-1, 0],
        (true, 0) => Vec::new(),
        (true, _) => vec![0],
    }
}

/// The years a question's span covers when it asks for every year of one: "FY2015 – FY2017"
/// is 2015, 2016 and 2017; "the 3 year average to FY2017" is 2015 to 2017.
pub fn spanned_years(text: &str, periods: &[AskedPeriod]) -> Option<Vec<i32>> {
    let years: Vec<i32> = periods.iter().map(|p| p.year).collect();
    if let Some(caps) = RANGE.as_ref().and_then(|re| re.captures(text)) {
        let (a, b) = (two_or_four_digits(&caps[1]), two_or_four_digits(&caps[2]));
        if let (Some(a), Some(b)) = (a, b) {
            if a < b && b - a <= 10 && years.contains(&a) && years.contains(&b) {
                return Some((a..=b).collect());
            }
        }
    }
    let span = SPAN_YEARS
        .as_ref()?
        .captures_iter(text)
        .find(|caps| caps.get(2).is_none())?;
    let n: i32 = match &span[1].to_lowercase()[..] {
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        digits => digits.parse().ok()?,
    };
    let last = *years.iter().max()?;
    Some((last - n + 1..=last).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn years(text: &str) -> Vec<(i32, Option<u8>, Option<u8>)> {
        periods_in(text)
            .into_iter()
            .map(|p| (p.year, p.quarter, p.half))
            .collect()
    }

    #[test]
    fn spans_of_whole_fiscal_years_and_split_years_are_the_years_they_cover() {
        let years = |text: &str| periods_in(text).iter().map(|p| p.year).collect::<Vec<_>>();
        // From a fiscal year's first day to a last day: the years between, not the start.
        assert_eq!(
            years("over the period from December 27 of 2020 to December 30 of 2023"),
            [2021, 2022, 2023]
        );
        assert_eq!(
            years("the fiscal year spanning January 2, 2023 to December 31, 2023"),
            [2023]
        );
        assert_eq!(
            years("from October 1 of 2021 to September 30 of 2024"),
            [2022, 2023, 2024]
        );
        // Two year-ends a year apart stay two balances.
        assert_eq!(
            years("from December 31, 2022 to December 31, 2023"),
            [2022, 2023]
        );
        assert_eq!(
            years("from December 31, 2022 to December 30, 2023"),
            [2022, 2023]
        );
        // One fiscal year written over its two calendar years.
        assert_eq!(years("revenue in fiscal 2023/24"), [2024]);
        assert_eq!(years("revenue in FY2023-24"), [2024]);
        assert_eq!(years("the 2023–2024 fiscal year"), [2024]);
        assert_eq!(years("revenue 2023/2024"), [2024]);
        // Two years apart, or a bare dash between them, are two years.
        assert_eq!(years("revenue 2022-2024"), [2022, 2024]);
        assert_eq!(years("revenue from 2023 to 2024"), [2023, 2024]);
    }

    #[test]
    fn years_written_as_models_and_month_ends_write_them_are_read() {
        let years = |text: &str| periods_in(text).iter().map(|p| p.year).collect::<Vec<_>>();
        assert_eq!(years("Revenue for FY2023A?"), [2023]);
        assert_eq!(years("Revenue for FY24E and 2023A?"), [2024, 2023]);
        assert_eq!(years("Cash at Dec-23 against Jul-2024?"), [2023, 2024]);
        assert_eq!(years("Cash at 01-Jan-2023?"), [2022]);
        assert_eq!(years("Capex over FY2022A-FY2024A"), [2022, 2024]);
        assert_eq!(
            years("from FY2023 (Jun 2022 – May 2023) to FY2024 (Jun 2023 – May 2024)"),
            [2023, 2024]
        );
        assert_eq!(years("in FY2023 (Jan 2023 – Dec 2023)"), [2023]);
        assert_eq!(years("cash from Dec 2022 to Dec 2023"), [2022, 2023]);
        // A day after a month is no year.
        assert_eq!(years("Cash at Dec 31, 2023"), [2023]);
        // A span from a month's first day is the one period it ends.
        assert_eq!(
            years("Nike's EPS for the period 2023-06-01 to 2024-05-31?"),
            [2024]
        );
        assert_eq!(
            years("Boeing's cash flow for the period 2022-01-01 to 2022-12-31?"),
            [2022]
        );
        assert_eq!(
            years("Cash from December 31, 2022 to December 31, 2023?"),
            [2022, 2023]
        );
        // A slash date is month first: 1/31/23 ends January.
        assert_eq!(
            years("Walmart's receivables from 1/31/23 to 1/31/24?"),
            [2023, 2024]
        );
        assert_eq!(
            years("Equity at closing date 30.09.2024 and in F2023?"),
            [2024, 2023]
        );
        assert_eq!(years("D&A in FY2023 (y/e 31 Dec 23)?"), [2023]);
        // The balance that opens a year is the prior year-end's.
        assert_eq!(
            years("cash from the beginning of fiscal 2023 to the end of fiscal 2023"),
            [2022, 2023]
        );
        assert_eq!(years("equity at the start of FY2024"), [2023]);
        // A date's parts in any order, with or without separators.
        for text in [
            "current liabilities on the 2022-Dec-31 balance sheet",
            "cash at 31DEC2022",
            "cash at 2022 December 31",
            "cash at 2022/12/31",
            "cash at 12-31-2022",
            "cash at Saturday, December 31st, 2022",
        ] {
            assert_eq!(years(text), [2022], "{text}");
        }
        assert_eq!(years("equity at 2023-Jan-01"), [2022]);
        assert_eq!(years("capex in the year to 2023.12.31"), [2023]);
        assert_eq!(
            years("dividends for the year ended May the 31st, 2024"),
            [2024]
        );
        assert_eq!(years("cash flow for FYE 12/2023"), [2023]);
        assert_eq!(years("EPS in the fiscal year ended 01/2024"), [2024]);
        assert_eq!(years("equity at 01JAN2023"), [2022]);
        assert_eq!(
            years("Going from 31DEC2022 to 31DEC2023, did cash gain?"),
            [2022, 2023]
        );
        assert_eq!(
            years("Nike's EPS for the period 2023-Jun-01 to 2024-May-31?"),
            [2024]
        );
    }

    #[test]
    fn periods_are_read_as_analysts_write_them() {
        for text in [
            "What is the FY2018 capex?",
            "capex in fiscal 2018",
            "capex in fiscal year 2018",
            "capex for 2018",
            "year end FY2018 capex",
            "FY18 capex",
            "capex in FY '18",
            "capex in FY-18",
            "capex in the fiscal year that began in October 2017",
            "capex in the year starting 1 January 2018",
        ] {
            assert_eq!(years(text), vec![(2018, None, None)], "{text}");
        }
        assert_eq!(years("revenue in Q2 FY2023"), vec![(2023, Some(2), None)]);
        assert_eq!(years("revenue in 2Q23"), vec![(2023, Some(2), None)]);
        assert_eq!(
            years("revenue in the second quarter of fiscal 2023"),
            vec![(2023, Some(2), None)]
        );
        assert_eq!(years("H1 2023 sales"), vec![(2023, None, Some(1))]);
        assert_eq!(
            years("between FY2016 and FY2017"),
            vec![(2016, None, None), (2017, None, None)]
        );
        for text in [
            "balance at 12/31/2023",
            "as of 31 December 2023",
            "FY '23",
            "fiscal '23",
            "ttl assets at 12/31/23",
            "SG&A in '23",
            "inventory at YE23",
            "capex in ’23, thx",
        ] {
            assert_eq!(years(text), vec![(2023, None, None)], "{text}");
        }
        let ended = periods_in("in the fiscal year ended February 3, 2024");
        assert_eq!(ended.len(), 1);
        assert_eq!(ended[0].basis, YearBasis::PeriodEnd);
        assert_eq!(ended[0].column_year(1), 2024);
        // Abbreviated months and ISO dates are period ends too.
        for text in [
            "the twelve months ended Jun 30, 2024",
            "as at Sept. 30, 2024",
            "as of 30 Jun 2024",
            "on 2024-06-30",
        ] {
            let ended = periods_in(text);
            assert_eq!(ended.len(), 1, "{text}");
            assert_eq!(ended[0].basis, YearBasis::PeriodEnd, "{text}");
            assert_eq!(ended[0].year, 2024, "{text}");
        }
    }

    #[test]
    fn a_year_of_two_digits_with_an_apostrophe_is_a_period_and_what_is_not() {
        assert_eq!(years("what's Apple's revenue"), vec![]);
        assert_eq!(
            years("the company's 10-K, '22 vs '23"),
            vec![(2022, None, None), (2023, None, None)]
        );
    }

    #[test]
    fn years_named_relative_to_the_latest_are_read() {
        let v = crate::question::vocabulary::vocabulary().unwrap();
        let relative = |text: &str| relative_years(&text.to_lowercase(), v);
        assert_eq!(
            relative("revenue from the year before to the latest year"),
            vec![-1, 0]
        );
        assert_eq!(
            relative("capex over the three most recent fiscal years"),
            vec![-2, -1, 0]
        );
        assert_eq!(relative("the last two balance sheet dates"), vec![-1, 0]);
        assert_eq!(relative("revenue in the most recent fiscal year"), vec![0]);
        assert_eq!(relative("revenue in the year before the latest"), vec![-1]);
        assert_eq!(relative("revenue in 2023"), Vec::<i32>::new());
        assert_eq!(relative("revenue in the year just ended"), vec![0]);
        assert_eq!(relative("revenue in the comparative year"), vec![-1]);
        assert_eq!(relative("revenue two years back"), vec![-2]);
        assert_eq!(relative("revenue three fiscal years ago"), vec![-3]);
        assert_eq!(
            relative("revenue in the year before the prior year"),
            vec![-2]
        );
        assert_eq!(
            relative("total assets at the beginning of the latest fiscal year"),
            vec![-1]
        );
    }

    #[test]
    fn spans_cover_every_year() {
        let text = "What is the FY2015 – FY2017 3 year average of capex?";
        let p = periods_in(text);
        assert_eq!(spanned_years(text, &p), Some(vec![2015, 2016, 2017]));
        let text = "average capex over FY-17 through FY-19";
        let p = periods_in(text);
        assert_eq!(spanned_years(text, &p), Some(vec![2017, 2018, 2019]));
        let text = "the three-year average capex to FY2019";
        let p = periods_in(text);
        assert_eq!(spanned_years(text, &p), Some(vec![2017, 2018, 2019]));
        let text = "capex growth between FY2016 and FY2017";
        assert_eq!(spanned_years(text, &periods_in(text)), None);
        // The mean of two year-end balances is no span of two years.
        let text = "ROA on the two-year-end average for FY2024";
        assert_eq!(spanned_years(text, &periods_in(text)), None);
        let text = "the two-year average ROA to FY2024";
        assert_eq!(
            spanned_years(text, &periods_in(text)),
            Some(vec![2023, 2024])
        );
    }

    #[test]
    fn a_retailers_fiscal_year_is_named_before_the_year_it_ends_in() {
        let mut doc: DocumentIndex = serde_json::from_str(
            r#"{"doc_id":"d","doc_name":"d.html","doc_type":"10-K","format":"html","source_sha256":"","encoding":"utf-8","metadata":{},"text":"","nodes":[],"chunks":[],"cross_refs":[],"dictionary":[],"links":[],"settings_key":""}"#,
        )
        .unwrap();
        doc.metadata.fiscal_year = Some(2023);
        doc.metadata.period_end_date = Some("2024-02-02".into());
        assert_eq!(fiscal_offset(&doc), 1);
        let asked = &periods_in("FY2023 net sales")[0];
        assert_eq!(asked.column_year(fiscal_offset(&doc)), 2024);
        doc.metadata.fiscal_year = Some(2024);
        doc.metadata.period_end_date = Some("2024-01-31".into());
        assert_eq!(fiscal_offset(&doc), 0);
    }
}
