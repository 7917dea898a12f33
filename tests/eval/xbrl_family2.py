#!/usr/bin/env python3
"""Second family of XBRL-grounded evaluation questions, phrased the way analysts ask them.

What it is for
    Generates questions with gold answers from the inline-XBRL facts of 10-K filings, in five
    families: items (single statement line items), changes (year-over-year, absolute and %),
    averages (two-balance averages and 3-year averages), metrics (margins, returns, turnover,
    liquidity, coverage, cash-flow measures; about a third state the definition in the question)
    and compare (library-wide questions naming two companies: which is higher / lower).
    Gold values come only from the filings' own tagged facts in consolidated contexts (no
    dimensions), read with the fact reader of xbrl_questions.py (its `Filing` class); nothing
    here depends on the engine under test.

Who wrote the wordings
    The question wordings, item labels, period phrasings and metric definitions were written by
    a helper session that had NOT seen the engine's source, its other question templates or the
    xbrl-templates-*.json files; they imitate how sell-side / buy-side analysts phrase requests.
    There are seventeen disjoint wording sets: `dev`, `heldout`, `fresh`, `final`, `sealed`, `novel`,
    `vault`, `ledger`, `atlas`, `zenith`, `harbor`, `quarry`, `summit`, `tundra`, `ridge`, `canyon` and `mesa` (different sentence structures, period forms, date formats and vocabulary; the facts, formulas, gold computation
    and output format are shared).
    `fresh` was added later by another helper that had likewise not seen the engine, written to
    be structurally unlike both earlier sets: chat / e-mail style requests ("pls send over ...",
    "Hi, quick ask: ...", "{item} -- {company}, {period}?", "I'm building a DCF for ..."),
    British terms now and then (shareholders' funds, debtor days, stock turnover, tax charge,
    amortisation, financial year), periods as "for the fiscal year ending 28 Sep 2024",
    "FYE 2024-09-28", "for the twelve months ended 28-Sep-2024", "in its FY2024 10-K",
    "as at 28 Sep 2024", "the prior-year column (FY2023) of its FY2024 10-K"; definitions as
    "i.e. A/B", "X = (A − B) / C", "(calc: ...)", "A less B, over C", "computed by dividing A
    by B", "I define it as ..."; comparisons as "who comes out ahead on ..." (only "higher",
    only where more is better), "rank A and B, highest/lowest first, by ...", "which of A and B
    had the bigger/smaller ...", "is A's ... above/below B's?" and "is A's ... above or below
    B's?" (asked as "higher": the gold company is the one with the higher value). The dev and
    heldout outputs are byte-identical to what they were before `fresh` existed (the fresh code
    paths draw from their own random stream and never touch the others').
    `final`, a fourth set, was added by a further helper that had likewise not seen the engine,
    written after reading the three earlier sets and avoiding their distinctive phrases. It is
    formal and terse, as analysts, bankers, auditors, journalists and investors write: questions
    and imperatives ("State ...", "Kindly provide ...", "Per the audited financial statements,
    ... totalled what?", "Quantify the movement in ...", "Report the FY2024-versus-FY2023
    variance in ...", "Recompute ... as ...", "Our house definition of ... is ..."), American and
    British usage (accounts, overheads, owners' equity, creditors falling due within one year,
    gearing, liquid ratio, stockturn, net current asset position, per cent, year-on-year). Periods
    are "in fiscal year 2024", "for the year that ended Sep 28, 2024", "for the year to 28th
    September 2024", "at 28th September 2024", "per the statement of financial position dated
    Sep 28, 2024", "at the fiscal year 2024 reporting date", "in the most recent fiscal year
    (FY2024)", "for the year covered by its 2024 annual report", "for fiscal year 2023 as presented
    in the 2024 annual report". Definitions are written as "A ÷ B × 100", "the ratio of A to B",
    "A per $100 of B", "A ÷ ½(opening + closing B)", "the excess of A over B", "A after deducting
    B"; comparisons as "Name the company with the higher/lower ...", "Identify whichever of A and
    B ...", "As between A and B, which ...", "Placing A alongside B ..., whose ... was the
    higher/lower of the two?" and the like (direction drawn at random, as in dev and heldout).
    No LTM/TTM, quarters or two-digit years. dev, heldout and fresh outputs are byte-identical to
    what they were before `final` existed (final draws from its own random stream).
    `sealed`, a fifth set, was added by yet another helper that had likewise not seen the engine,
    written after reading the four earlier sets and avoiding their distinctive phrases. It reads
    like plain questions, requests and short notes from analysts, credit officers, equity
    researchers, accountants and students ("Could you tell me ...", "To check: ...", "For the
    credit file, what ... did X report ...?", "My tutor has asked for ...", "For a bridge chart I
    need the dollar change in ...", "Credit note: X -- item, FY2023 to FY2024, change in dollars?",
    "Add X's ... at end-FY2023 to its ... at end-FY2024 and divide by two", "... per annum in
    FY2022, FY2023 and FY2024", "Our credit team works out ... as ...", "Going by ..., where does
    X's ... end up ...?"), US and UK usage (turnover, stock-in-trade, debtors, per annum, net
    current assets, the 2024 financial year). Periods are "for the year ended September 28th,
    2024", "for its year ended the 28th of September 2024", "in the 2024 financial year", "for the
    fiscal period ending September 28th, 2024", "for the year to end-September 2024" (only when the
    year-end falls on or after the 20th), "for fiscal 2024, the last year it has reported",
    "for the comparative year, fiscal 2023", "at end-FY2024", "as things stood on
    September 28th, 2024", "at the close of business on the 28th of September 2024", "at its
    fiscal 2024 balance sheet date"; scales as "in dollar millions", "(figure in billions of
    dollars)", decimals as "rounded to 0.1%", "to the nearest 0.01%", "rounded to 0.01x", "in
    dollars and cents"; definitions as "A as a fraction of B, in %", "A in the numerator and B in
    the denominator", "A as a multiple of B", "A net of B", "operating income grossed up for D&A";
    comparisons as "A against B ...: which had the higher/lower ...?", "<period>, was the
    higher/lower ... A's or B's?", "Tell me whether A or B had more/less ...", "Between the two of them, A and B,
    who booked more/less ...?", "For the peer table, ..." (direction drawn at random). dev,
    heldout, fresh and final outputs are byte-identical to what they were before `sealed` existed
    (sealed draws from its own random stream).
    `novel` and `vault`, a sixth and a seventh set, were added together by another helper that had
    likewise not seen the engine's source, its question templates or the xbrl-templates-*.json files,
    written after reading the five earlier sets, avoiding their distinctive phrases and each other's.
    `novel` is desk shorthand and chat-box typing from sell-side / buy-side analysts, PMs, credit
    analysts and retail holders: lower-case run-ons without punctuation ("whats X's ...", "need X's
    ..., thx", "can u calc ..."), notes ("Off X's P&L, ...?", "Off X's B/S, ...?", "X: ... -- what's
    the reported number?") and context-setting preambles ("I'm spreading X's financials into our
    credit template -- ...", "Doing a tear sheet on X; ...", "PM wants X's ... for the morning
    meeting", "Walk me from X's ... in FY22 to FY23: net $ difference?", "For a turns calc I need
    ...", "I'm comparing ... across large caps; where was X ...?"), with the abbreviations analysts
    type (revs, ttl, NI, op income, opex, COGS, D&A, SG&A, A/R, B/S, YE, YoY, chg, avg, mgn, dil., LTD,
    WC, CFO, $mm, $m, bn, $k). Periods are "for FY24", "for the FY ended 9/28/2024", "for the twelve
    months through September 2024" (only when the year-end falls on or after the 20th), "in '23"
    (calendar filers only), "in the latest fiscal year", "for FY23 (the yr before the latest)",
    "at 9/28/24", "per the 9/28/24 B/S", "exiting FY24", "at YE23" (December year-ends only), "on
    the latest B/S (FY24)"; definitions as "A/B (in %)", "take A, subtract B, then divide by C",
    "A scaled by B, x100" ("Method: ...", "Formula to use -- ...", "[...]"); comparisons as "A vs B
    on ... -- who wins if higher/lower is better?", "A vs B on ...: which one's higher/bigger/lower/
    smaller?", "I'm pairing A against B in a long/short; ...", "Quick peer check for the IC memo --
    A and B, who screens higher/lower on ...?" (direction drawn at random). `vault` is fuller
    sentences from journalists, auditors, CFO-office staff, credit committees and MBA students
    ("For a story I'm writing on X, I need the figure it reported for ...", "Audit support request:
    ..., exactly as filed?", "Analytical procedures: compute the percent change ... with FY as the
    denominator", "MBA assignment: subtract X's fiscal '23 ... from its fiscal '24 ...", "An MBA
    textbook gives ... as ...; work it out for X ...", "Treating ... as ..., where did X land ...?").
    Periods are "for the fiscal year ending Sept. 28, 2024", "for full-year fiscal 2024", "in fiscal
    '24", "in the fiscal year that wrapped up in September 2024" (year-end on or after the 20th),
    "for full-year 2023" (calendar filers only), "in its newest reported fiscal year (2024)", "in
    fiscal 2023, the year prior to its latest", "at the Sept. 28, 2024 balance sheet date", "when
    fiscal 2024 closed", "at year-end fiscal 2024"; scales as "rounded to the nearest tenth of a
    billion", "-- millions of dollars, please", decimals as "to a tenth of a percentage point", "to
    the hundredth of a percent", "rounded to the hundredth", "to the nearest cent"; definitions as "A
    expressed as a percentage of B", "A relative to B (as a percentage)", "A for every dollar of B",
    "average receivables divided by daily revenue (annual revenue / 365)"; comparisons as "Is A's ...
    greater than / less than B's ...?", "Sort A and B by ..., largest to smallest / smallest to
    largest. Which one sits at the top of the list?", "Out of A and B, whose ... was the higher /
    lesser one?", "For an article contrasting A and B: ...", "Credit committee asks: ..., which
    borrower -- A or B -- had the ...?" (direction drawn at random; for the yes/no forms the gold
    company is the one that is higher / lower in the stated direction). dev, heldout, fresh, final and
    sealed outputs are byte-identical to what they were before `novel` and `vault` existed (each new
    set draws from its own random stream, keyed by the split name as before).
    `ledger`, an eighth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the seven
    earlier sets and avoiding their distinctive phrases. It mixes the people who ask about 10-Ks:
    sell-side modellers ("Populating a comps table: X, item, period.", "Model roll-forward: X's ...,
    FY2023 to FY2024 -- delta?", "X item growth FY2024/FY2023?", "X -- average ... = avg(FY2023
    balance, FY2024 balance)?", "For the lender deck: ..."), buy-side PMs and analysts ("For the PM's
    one-pager: ...", "Relative-value question: A versus B, ... -- which name had ...?", "Buy-side
    screen: ..."), credit analysts ("Credit analyst here -- ...", "Lender's view of X: ..."), students
    ("CFA L1 practice -- ...", "Student here: how much more (or less) ...", "Homework: given that ...
    is ..., find X's value ...") and polite e-mail writers ("Good morning. Would you mind finding
    ...? Many thanks.", "Hoping you can help: I'm after ...", "Please could you give me ...?"), with
    multi-sentence forms ("Definition first: M = .... Now apply it to X ...", "What was X's M ...?
    Please use ...", "Our model's M line is .... Fill it in for X ..."). Periods are "for FY2024A",
    "in the 12 months to 28/09/2024" (only when the day is after the 12th), "for the year ending
    Sep-24" (only when the year-end falls on or after the 20th), "over fiscal 2024 (year-end
    September 28)" (with the year when it differs from the fiscal year's number: "January 1, 2023"),
    "for the 2024 calendar year" (calendar filers only), "in the latest 10-K year (FY2024)", "for
    FY2023, i.e. the year before the latest 10-K", "on the FY2024A balance sheet", "at Sep-24", "at
    the 28/09/2024 year-end", "at the end of fiscal 2024 (September 28)", "at the latest 10-K year-end
    (FY2024)", "at the close of the prior year (FY2023)"; scales as "($ millions)", "(answer in
    millions)", "(nearest $0.1 billion)", decimals as "(one decimal place is enough)", "(round to two
    decimals)", "(round to 0.1)", "(to 0.1 day)", "($/share, two decimals)"; definitions with the
    precedence written in different ways ("100 × A / B", "100 times A, divided by B", "A / avg(opening
    X, closing X)", "[A – B] ÷ C", "A less B, with the result divided by C", "A plus B, that sum
    divided by C, times 100", "C subtracted from the sum of A and B"); comparisons as "Comp table
    question -- ..., does A or B have the higher/lower ...?", "Put A next to B on ...: whose number
    is higher/lower?", "Just need a name: ...", "Who comes in higher/lower on ..., B or A?",
    "Screening B against A: which one shows the ...?" (direction drawn at random). The earlier seven
    outputs are byte-identical to what they were before `ledger` existed (ledger draws from its own
    random stream, keyed by the split name as before).
    `atlas`, a ninth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the eight
    earlier sets and avoiding their templates, labels, metric names, definitions and period phrasings.
    It imitates a broad mix of people (equity and credit analysts, PMs, auditors, journalists,
    students, investor-relations staff, non-native English writers), terse and full-sentence, a few
    multi-sentence; definitions written in varied orders and notations; periods as fiscal-year names,
    year-end dates in US / European / ISO styles (numeric day/month forms only where the day is after
    the 12th, so they cannot be misread) and relative forms. Like `vault`, it is a held-out set: its
    wordings are deliberately not quoted here, and its questions should not be printed where the
    engine's builders read them. The earlier eight outputs are byte-identical to what they were before
    `atlas` existed (atlas draws from its own random stream, keyed by the split name as before).
    `zenith`, a tenth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the nine
    earlier sets and avoiding their templates, labels, metric names, definitions and period phrasings.
    It imitates a broad mix of people (equity and credit analysts, PMs, auditors, journalists,
    students, investor-relations staff, retail investors, non-native English writers), terse and
    full-sentence, a few multi-sentence; definitions in varied orders and notations; periods as
    fiscal-year names, year-end dates in forms that cannot be misread (numeric forms only where the
    day is after the 12th) and relative forms; unit and rounding requests in varied forms. Like
    `vault` and `atlas`, it is a held-out set: its wordings are deliberately not quoted here, and its
    questions should not be printed where the engine's builders read them. The earlier nine outputs
    are byte-identical to what they were before `zenith` existed (zenith draws from its own random
    stream, keyed by the split name as before).
    `harbor`, an eleventh set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the ten
    earlier sets and avoiding their templates, labels, metric names, definitions and period phrasings.
    It imitates a broad mix of people (sell-side and buy-side analysts, credit analysts, private-equity
    associates, CFO-office staff, accounting students, journalists, retail investors, hurried terse
    writers, people who paste context before the question, non-native English writers), questions,
    imperatives, statements of need and multi-sentence requests, with the company and period at the
    start, middle or end; periods as fiscal-year words, two-digit years, year-end dates with the month
    spelled out, month ranges and relative forms; unit and rounding requests in varied forms; metrics
    named or defined in words or as formulas. Like `vault`, `atlas` and `zenith`, it is a held-out
    set: its wordings are deliberately not quoted here, and its questions should not be printed where
    the engine's builders read them. The earlier ten outputs are byte-identical to what they were
    before `harbor` existed (harbor draws from its own random stream, keyed by the split name as
    before).
    `quarry`, a twelfth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the eleven
    earlier sets and avoiding their templates, labels, metric names, definitions and period phrasings.
    It imitates a broad mix of people (sell-side and buy-side analysts, credit analysts, bankers,
    auditors, accounting students, journalists, retail investors, terse chat-box typists, non-native
    English writers, people who paste context before the question), questions, imperatives,
    statements of need and multi-sentence requests, with the company and period at the start, middle
    or end; periods as fiscal-year words, two-digit years, year-end dates with the month spelled out,
    month ranges and relative forms; unit and rounding requests in varied forms; metrics named by
    abbreviations and synonyms or defined in words, as formulas with their variables spelled out and
    as step-by-step procedures; comparisons asking in varied ways which of two companies is higher or
    lower. Like `vault`, `atlas`, `zenith` and `harbor`, it is a held-out set: its wordings are
    deliberately not quoted here, and its questions should not be printed where the engine's builders
    read them. The earlier eleven outputs are byte-identical to what they were before `quarry` existed
    (quarry draws from its own random stream, keyed by the split name as before).
    `summit`, a thirteenth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the twelve
    earlier sets and avoiding their templates, labels, metric names, definitions and period phrasings.
    It imitates a broad mix of people (equity and credit analysts, portfolio managers, bankers,
    auditors, management consultants, students, podcasters and journalists, retirees and other retail
    holders, terse chat-box typists, non-native English writers, people who paste context before the
    question), questions, imperatives, statements of need and multi-sentence requests, with the
    company and period at the start, middle or end; periods as fiscal-year words with two-digit
    years, year-end dates with the month spelled out (so they cannot be misread), the length of
    52/53-week years, month-to-month ranges and relative forms anchored on the latest audited year;
    unit and rounding requests in varied forms; metrics named by the terms and abbreviations readers
    use or defined as spreadsheet formulas, subscripted formulas, ratios and short procedures;
    comparisons asking in varied ways which of two companies is higher or lower. Like `vault`,
    `atlas`, `zenith`, `harbor` and `quarry`, it is a held-out set: its wordings are deliberately not
    quoted here, and its questions should not be printed where the engine's builders read them. The
    earlier twelve outputs are byte-identical to what they were before `summit` existed (summit draws
    from its own random stream, keyed by the split name as before).
    `tundra`, a fourteenth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the
    thirteen earlier sets and avoiding their templates, labels, metric names, definitions and period
    phrasings. It imitates the working formats in which people ask about 10-Ks (investor-relations
    e-mails, sell-side model-update and estimate-versus-actual notes, credit committee memos, terse
    terminal-style queries, exam-style items, questions placed after a paragraph of background,
    questions with a hedge or a typo), with the company and period at the start, middle or end;
    periods named by the fiscal year-end month and year (only where that cannot be misread), by
    dates in forms that cannot be misread and by relative forms anchored on the latest 10-K; unit
    and rounding requests in varied forms; metrics named by acronyms and terms with their basis
    spelled out, or defined as spreadsheet formulas over labelled cells and in prose; comparisons
    asking in varied ways which of two companies leads or trails, always tied to the higher or lower
    figure. Like `vault`, `atlas`, `zenith`, `harbor`, `quarry` and `summit`, it is a held-out set:
    its wordings are deliberately not quoted here, and its questions should not be printed where the
    engine's builders read them. The earlier thirteen outputs are byte-identical to what they were
    before `tundra` existed (tundra draws from its own random stream, keyed by the split name as
    before).
    `ridge`, a fifteenth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the
    fourteen earlier sets and avoiding their templates, labels, metric names, definitions and period
    phrasings. It imitates people outside the usual analyst desk who still read 10-Ks (company
    directors, lawyers, academic researchers, suppliers, unions, employees, teachers, translators,
    landlords, stewardship teams, data people, forum readers and people talking to a phone), each in
    their own register, with the company and period at the start, middle or end; periods anchored on
    the fiscal year's start date, on its closing quarter count, on the company's own name for the
    year, on spoken years, on month-end year-ends (only where the year really ends on the month's
    last day) and on relative forms with the year in brackets; unit and rounding requests in varied
    forms; metrics named in plain words or as code identifiers and defined as code expressions or in
    words; comparisons asking in varied ways for the company with the higher or the lower figure.
    Like `vault`, `atlas`, `zenith`, `harbor`, `quarry`, `summit` and `tundra`, it is a held-out set:
    its wordings are deliberately not quoted here, and its questions should not be printed where the
    engine's builders read them. The earlier fourteen outputs are byte-identical to what they were
    before `ridge` existed (ridge draws from its own random stream, keyed by the split name as
    before).
    `canyon`, a sixteenth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the
    fifteen earlier sets and avoiding their templates, labels, metric names, definitions and period
    phrasings. It imitates the everyday channels of sell-side and buy-side analysts, credit analysts,
    portfolio managers, journalists, students, auditors and CFO-office staff (e-mails with a subject
    line, chat-room asks, terse separator-style shorthand, numbered problem sets, formal written
    requests and desk notes), with the company and period at the start, middle or end; periods as
    dates with the month spelled out, as years that run to a stated date or span their first and last
    days, as the company's annual results, as columns of the latest 10-K, as the fiscal close and as
    the balance carried into the next fiscal year; unit and rounding requests as format masks;
    metrics named as rates, turns, covers and multiples with their basis in brackets and defined as
    chains of steps or in prose; comparisons asking in varied ways for the company with the higher or
    the lower figure. Like `vault`, `atlas`, `zenith`, `harbor`, `quarry`, `summit`, `tundra` and
    `ridge`, it is a held-out set: its wordings are deliberately not quoted here, and its questions
    should not be printed where the engine's builders read them. The earlier fifteen outputs are
    byte-identical to what they were before `canyon` existed (canyon draws from its own random
    stream, keyed by the split name as before).
    `mesa`, a seventeenth set, was added by yet another helper that had likewise not seen the engine's
    source, its question templates or the xbrl-templates-*.json files, written after reading the
    sixteen earlier sets and avoiding their templates, labels, metric names, definitions and period
    phrasings. It imitates people who read 10-Ks to decide something other than whether to trade the
    securities (insurance, surety and trade-credit underwriters, deal-diligence and valuation teams,
    transfer-pricing analysts, proxy researchers, forensic accountants, public contracting officers,
    competitors, financial planners and business reference librarians), in formal written registers
    that include passive, conditional and cleft sentences, with the company and period at the start,
    middle or end; periods as fiscal years ending on dates written in contract style, as numbered
    years of the company's fiscal calendar, as fiscal years counted in days, as fiscal years spanning
    two calendar years (only where several weeks fall on each side of the calendar year-end), as
    three-year groupings and as positions among the years and balance-sheet dates the latest 10-K
    presents; unit and rounding requests with their own verbs; metrics named as capitalised defined
    terms or described in words, and defined in contract-style prose, as typeset fractions or as
    lettered steps; comparisons asking in varied ways for the company with the higher or the lower
    figure. Like `vault`, `atlas`, `zenith`, `harbor`, `quarry`, `summit`, `tundra`, `ridge` and
    `canyon`, it is a held-out set: its wordings are deliberately not quoted here, and its questions
    should not be printed where the engine's builders read them. The earlier sixteen outputs are
    byte-identical to what they were before `mesa` existed (mesa draws from its own random stream,
    keyed by the split name as before).

How to run
    python3 tests/eval/xbrl_family2.py --split dev|heldout|fresh|final|sealed|novel|vault|ledger|atlas|zenith|harbor|quarry|summit|tundra|ridge|canyon|mesa --seed N -o OUT.json FILE.html [...]
    e.g.
    python3 tests/eval/xbrl_family2.py --split dev --seed 1 -o /tmp/family2/dev.json \\
        /work/shared/corpus/10-K-more/*.html /work/shared/corpus/10-K/apple_*.html \\
        /work/shared/corpus/10-K/tesla_*.html
    (the files in /tmp/family2 were made with --split dev --seed 1, --split heldout --seed 2,
    --split fresh --seed 3, --split final --seed 4 and --split sealed --seed 5 on those 18 filings;
    /tmp/family2/novel.json and vault.json with --split novel --seed 6 and --split vault --seed 7;
    /tmp/family2/ledger.json with --split ledger --seed 8; /tmp/family2/atlas.json with --split atlas --seed 9;
    /tmp/family2/zenith.json with --split zenith --seed 10; /tmp/family2/harbor.json with --split harbor --seed 14;
    /tmp/family2/quarry.json with --split quarry --seed 15; /tmp/family2/summit.json with --split summit --seed 16;
    /tmp/family2/tundra.json with --split tundra --seed 17; /tmp/family2/ridge.json with --split ridge --seed 18;
    /tmp/family2/canyon.json with --split canyon --seed 19; /tmp/family2/mesa.json with --split mesa --seed 20.
    `vault`, `atlas`, `zenith`, `harbor`, `quarry`, `summit`, `tundra`, `ridge`, `canyon` and `mesa` are meant to stay unread by the people who build the engine:
    do not print their questions.)
    Options: --show N prints N random questions with gold to stderr; --dump prints the resolved
    line items of every filing (for checking concept choices against the statements).
    Output: a JSON list of objects with fields doc, question, family, concept, fiscal_year, kind,
    gold, decimals, asked_scale, evidence, formula (+ doc_b, gold_company, gold_other, gold_b,
    direction for family "compare"). usd golds are plain dollars, percents in percent units,
    ratios (incl. days and multiples) plain numbers. Deterministic for a given seed.
    Stdlib only.
"""
import argparse
import calendar
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xbrl_questions import Filing  # noqa: E402  (fact reader: lines 1-470 of that file)

# ---------------------------------------------------------------------------------------
# Companies
# ---------------------------------------------------------------------------------------

NAMES = {  # how analysts refer to the registrants (common name, alternates)
    "AAPL": ["Apple"], "TSLA": ["Tesla"], "ABBV": ["AbbVie"], "BA": ["Boeing"],
    "CL": ["Colgate-Palmolive", "Colgate"], "CSCO": ["Cisco"], "GE": ["GE", "General Electric"],
    "GM": ["GM", "General Motors"], "INTC": ["Intel"], "JNJ": ["Johnson & Johnson", "J&J"],
    "META": ["Meta", "Meta Platforms"], "NKE": ["Nike"], "PG": ["Procter & Gamble", "P&G"],
    "PLTR": ["Palantir"], "RTX": ["RTX"], "UNH": ["UnitedHealth", "UnitedHealth Group"],
    "V": ["Visa"], "WMT": ["Walmart"],
}

LEGAL = r"(,?\s+(inc\.?|incorporated|corporation|corp\.?|company|co\.?|plc|ltd\.?|limited|group|holdings))+\s*$"


def common_names(F):
    if F.ticker in NAMES:
        return NAMES[F.ticker]
    base = re.sub(LEGAL, "", F.company, flags=re.I).strip() or F.company
    return [base]


# ---------------------------------------------------------------------------------------
# Concept choices (checked by eye against the printed statements of the 18 corpus filings)
# ---------------------------------------------------------------------------------------

# key: (period type, kind, concepts in preference order, pick)   pick: first | largest
SPECS = {
    "revenue": ("D", "usd", ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax",
                             "RevenueFromContractWithCustomerIncludingAssessedTax", "SalesRevenueNet"], "largest"),
    "cogs": ("D", "usd", ["CostOfRevenue", "CostOfGoodsAndServicesSold"], "first"),
    "gross_profit_tag": ("D", "usd", ["GrossProfit"], "first"),
    "operating_income": ("D", "usd", ["OperatingIncomeLoss"], "first"),
    "net_income": ("D", "usd", ["NetIncomeLoss"], "first"),
    "eps_diluted": ("D", "usd_per_share", ["EarningsPerShareDiluted"], "first"),
    "pretax_income": ("D", "usd", ["IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
                                   "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments"], "first"),
    "income_tax": ("D", "usd", ["IncomeTaxExpenseBenefit"], "first"),
    "rnd": ("D", "usd", ["ResearchAndDevelopmentExpense", "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"], "largest"),
    "sga": ("D", "usd", ["SellingGeneralAndAdministrativeExpense"], "first"),
    "interest_expense": ("D", "usd", ["InterestExpense", "InterestExpenseNonoperating"], "first"),
    "dna_tag": ("D", "usd", ["DepreciationDepletionAndAmortization", "DepreciationAndAmortization",
                             "DepreciationAmortizationAndAccretionNet", "DepreciationAmortizationAndImpairment"], "first"),
    "depreciation": ("D", "usd", ["Depreciation"], "first"),
    "amort_intang": ("D", "usd", ["AmortizationOfIntangibleAssets"], "first"),
    "cfo": ("D", "usd", ["NetCashProvidedByUsedInOperatingActivities",
                         "NetCashProvidedByUsedInOperatingActivitiesContinuingOperations"], "first"),
    "cfi": ("D", "usd", ["NetCashProvidedByUsedInInvestingActivities",
                         "NetCashProvidedByUsedInInvestingActivitiesContinuingOperations"], "first"),
    "cff": ("D", "usd", ["NetCashProvidedByUsedInFinancingActivities",
                         "NetCashProvidedByUsedInFinancingActivitiesContinuingOperations"], "first"),
    "capex": ("D", "usd", ["PaymentsToAcquirePropertyPlantAndEquipment", "PaymentsToAcquireProductiveAssets"], "first"),
    "dividends": ("D", "usd", ["PaymentsOfDividends", "PaymentsOfDividendsCommonStock", "PaymentsOfOrdinaryDividends"], "first"),
    "buybacks": ("D", "usd", ["PaymentsForRepurchaseOfCommonStock"], "first"),
    "total_assets": ("I", "usd", ["Assets"], "first"),
    "total_liabilities": ("I", "usd", ["Liabilities"], "first"),
    "current_assets": ("I", "usd", ["AssetsCurrent"], "first"),
    "current_liabilities": ("I", "usd", ["LiabilitiesCurrent"], "first"),
    "inventory": ("I", "usd", ["InventoryNet", "InventoryNetOfAllowancesCustomerAdvancesAndProgressBillings"], "first"),
    "cash": ("I", "usd", ["CashAndCashEquivalentsAtCarryingValue"], "first"),
    "receivables": ("I", "usd", ["AccountsReceivableNetCurrent", "ReceivablesNetCurrent"], "first"),
    "ppe": ("I", "usd", ["PropertyPlantAndEquipmentNet",
                         "PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization",
                         "PropertyPlantAndEquipmentExcludingLessorAssetUnderOperatingLeaseAfterAccumulatedDepreciation",
                         "PropertyPlantAndEquipmentAndOperatingLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization"], "first"),
    "lt_debt": ("I", "usd", ["LongTermDebtNoncurrent", "LongTermDebtAndCapitalLeaseObligations",
                             "LongTermDebtAndFinanceLeasesNoncurrent"], "first"),
    "parent_equity": ("I", "usd", ["StockholdersEquity"], "first"),
    "total_equity_tag": ("I", "usd", ["StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest"], "first"),
    "nci": ("I", "usd", ["MinorityInterest"], "first"),
}

# Filings whose statements show a cost-of-sales line that is the whole cost of revenue but no
# gross-profit subtotal: gross profit = revenue - cost of sales is the usual analyst computation.
DERIVED_GROSS_PROFIT = {"ABBV", "META", "PG"}
# Cost of sales is a proper total line (asked as an item) even without a gross profit line.
COGS_OK_WITHOUT_GP = DERIVED_GROSS_PROFIT | {"WMT"}
# Balance sheet "Cash and cash equivalents" tagged with the restricted-cash-inclusive concept
# (checked: the balance sheet line reads "Cash and cash equivalents" with the same figure).
CASH_FALLBACK_OK = {"INTC", "PG"}
# Inventories line tagged as finished goods (Nike holds only finished goods; the line reads "Inventories").
INVENTORY_FINISHED_GOODS_OK = {"NKE"}
# The "total shareholders' equity" line of the statement includes noncontrolling interests and
# is labelled shareholders' equity (P&G); used as shareholders' equity.
TOTAL_EQUITY_AS_SHAREHOLDERS = {"PG"}
# (ticker, key) pairs skipped because the tagged figure is not what an analyst means by the label.
SKIP = {
    ("GE", "dna"),                 # tagged D&A is PP&E only; intangible amortization is a separate line
    ("UNH", "sga"),                # tagged SG&A is UnitedHealth's "Operating costs" line
    ("WMT", "gross_profit"),       # gross profit rate is on net sales; total revenues include membership income
}

# items whose negative values would make the analyst label wrong (e.g. a tax benefit)
NONNEGATIVE = {"income_tax", "capex", "dividends", "buybacks", "rnd", "sga", "interest_expense", "cogs",
               "total_assets", "current_assets", "current_liabilities", "inventory", "cash", "receivables", "ppe",
               "lt_debt", "revenue"}

# D&A built from separate Depreciation + AmortizationOfIntangibleAssets cash-flow lines
DNA_FROM_PARTS_OK = {"ABBV", "INTC"}


class Co:
    """A filing with resolved line items: val(key, fy) -> (value, evidence list) or None."""

    def __init__(self, path):
        self.F = Filing(path)
        F = self.F
        self.doc = F.doc
        self.fy = F.fy_focus
        self.ticker = F.ticker
        self.company = F.company
        self.names = common_names(F)
        self._concept = {}
        self._cache = {}
        rev = self.val("revenue", self.fy)
        self.small = bool(rev) and abs(rev[0]) < 1e10
        self.calendar = F.fy_end.month == 12 and F.fy_end.day >= 24 or (F.fy_end.month == 1 and F.fy_end.day <= 7)
        if F.fy_end.month == 1 and F.fy_end.day > 7:
            self.calendar = False

    # -- periods
    def period(self, ptype, fy):
        return self.F.duration_period(fy) if ptype == "D" else self.F.instant_period(fy)

    def end_date(self, fy):
        p = self.F.duration_period(fy)
        if p:
            return p[2]
        p = self.F.instant_period(fy)
        return p[1] if p else None

    # -- raw tagged values with one concept chosen per key (at the latest year), reused for all years
    def _raw(self, key, fy):
        ptype, kind, concepts, pick = SPECS[key]
        if key not in self._concept:
            chosen = None
            p0 = self.period(ptype, self.fy)
            cands = []
            if p0 is not None:
                for c in concepts:
                    got = self.F.fact(c, p0, kind)
                    if got is not None and got[0] != 0:
                        cands.append((abs(got[0]), c))
                        if pick == "first":
                            break
            if cands:
                chosen = max(cands)[1] if pick == "largest" else cands[0][1]
            if chosen is None:          # not tagged for the latest year: first concept tagged for fy-1
                p1 = self.period(ptype, self.fy - 1)
                for c in concepts:
                    got = self.F.fact(c, p1, kind) if p1 else None
                    if got is not None and got[0] != 0:
                        chosen = c
                        break
            self._concept[key] = chosen
        c = self._concept[key]
        if c is None:
            return None
        p = self.period(ptype, fy)
        if p is None:
            return None
        got = self.F.fact(c, p, kind)
        if got is None:
            return None
        return got[0], [ev(c, p, got[0])]

    def val(self, key, fy):
        ck = (key, fy)
        if ck not in self._cache:
            self._cache[ck] = None if (self.ticker, key) in SKIP else self._val(key, fy)
        return self._cache[ck]

    def _val(self, key, fy):
        t = self.ticker
        if key == "gross_profit":
            gp = self._raw("gross_profit_tag", fy)
            if gp:
                return gp
            if t in DERIVED_GROSS_PROFIT:
                r, c = self.val("revenue", fy), self._raw("cogs", fy)
                if r and c:
                    return r[0] - c[0], r[1] + c[1]
            return None
        if key == "cogs":
            if self._raw("gross_profit_tag", self.fy) is None and t not in COGS_OK_WITHOUT_GP:
                return None
            return self._raw("cogs", fy)
        if key == "dna":
            d = self._raw("dna_tag", fy)
            if d:
                return d
            if t in DNA_FROM_PARTS_OK:
                a, b = self._raw("depreciation", fy), self._raw("amort_intang", fy)
                if a and b:
                    return a[0] + b[0], a[1] + b[1]
            return None
        if key == "cash":
            got = self._raw("cash", fy)
            if got is None and t in CASH_FALLBACK_OK:
                p = self.period("I", fy)
                c = "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents"
                f = self.F.fact(c, p, "usd") if p else None
                if f:
                    return f[0], [ev(c, p, f[0])]
            return got
        if key == "inventory":
            got = self._raw("inventory", fy)
            if got is None and t in INVENTORY_FINISHED_GOODS_OK:
                p = self.period("I", fy)
                c = "InventoryFinishedGoodsNetOfReserves"
                f = self.F.fact(c, p, "usd") if p else None
                if f:
                    return f[0], [ev(c, p, f[0])]
            return got
        if key == "equity":
            # shareholders' equity attributable to the company
            got = self._raw("parent_equity", fy)
            if got:
                return got
            nci = self._raw("nci", self.fy) or self._raw("nci", self.fy - 1)
            if nci is None or t in TOTAL_EQUITY_AS_SHAREHOLDERS:
                return self._raw("total_equity_tag", fy)
            return None
        if key == "total_equity_incl_nci":
            # only asked when the parent-only figure is not tagged and there is an NCI
            if self._raw("parent_equity", self.fy) or self.val("equity", self.fy):
                return None
            return self._raw("total_equity_tag", fy)
        if key == "interest_expense":
            return self._raw("interest_expense", fy)
        if key in SPECS:
            got = self._raw(key, fy)
            if got is not None and key in NONNEGATIVE and got[0] < 0:
                return None             # a tax benefit asked as "tax expense" etc.: skip
            return got
        raise KeyError(key)

    def avg(self, key, fy):
        a, b = self.val(key, fy), self.val(key, fy - 1)
        if a is None or b is None:
            return None
        return (a[0] + b[0]) / 2.0, b[1] + a[1]


def ev(concept, period, value):
    if period[0] == "I":
        p = period[1].isoformat()
    else:
        p = f"{period[1].isoformat()}..{period[2].isoformat()}"
    return f"{concept}@{p}={fmt_num(value)}"


def fmt_num(x):
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.6g}"


# ---------------------------------------------------------------------------------------
# Line items (analyst labels per split)
# ---------------------------------------------------------------------------------------

ITEM_LABELS = {
    # key: (dev labels, heldout labels)
    "revenue": (["revenue", "total revenue", "top line"], ["net revenues", "total sales", "reported revenue"]),
    "cogs": (["cost of revenue", "cost of sales"], ["COGS", "cost of goods sold"]),
    "gross_profit": (["gross profit"], ["gross profit dollars", "gross income"]),
    "operating_income": (["operating income", "operating profit"], ["EBIT (operating income)", "income from operations"]),
    "net_income": (["net income", "net earnings attributable to shareholders"], ["bottom-line net income", "net profit attributable to the company"]),
    "eps_diluted": (["diluted EPS", "diluted earnings per share"], ["EPS on a diluted basis", "diluted net income per share"]),
    "total_assets": (["total assets"], ["total asset base", "total assets on the balance sheet"]),
    "total_liabilities": (["total liabilities"], ["total liabilities on the balance sheet", "aggregate liabilities"]),
    "current_assets": (["total current assets", "current assets"], ["short-term (current) assets", "current assets in total"]),
    "current_liabilities": (["total current liabilities", "current liabilities"], ["short-term (current) liabilities", "current liabilities in total"]),
    "inventory": (["inventory", "inventories"], ["inventory on hand", "inventory balance"]),
    "cash": (["cash and cash equivalents", "cash & equivalents"], ["cash and equivalents (excluding marketable securities)", "cash & cash-equivalents balance"]),
    "lt_debt": (["long-term debt (excluding current portion)", "non-current long-term debt"], ["long-term borrowings net of current maturities", "LT debt (non-current)"]),
    "equity": (["shareholders' equity", "total stockholders' equity"], ["book value of shareholders' equity", "total shareholders' equity (book value)"]),
    "total_equity_incl_nci": (["total equity, including noncontrolling interests"], ["total equity (noncontrolling interests included)"]),
    "cfo": (["net cash from operating activities", "operating cash flow"], ["cash generated by operations (CFO)", "net cash provided by operating activities"]),
    "cfi": (["net cash from investing activities", "investing cash flow"], ["cash flow from investing activities (net)", "net investing cash flows"]),
    "cff": (["net cash from financing activities", "financing cash flow"], ["cash flow from financing activities (net)", "net financing cash flows"]),
    "capex": (["capital expenditures", "capex"], ["purchases of property and equipment (capex)", "capital spending"]),
    "dna": (["depreciation and amortization", "D&A"], ["total D&A expense", "depreciation & amortization charges"]),
    "rnd": (["R&D expense", "research and development spending"], ["research & development costs", "R&D spend"]),
    "sga": (["SG&A", "selling, general and administrative expense"], ["SG&A expenses", "selling, general & administrative costs"]),
    "interest_expense": (["interest expense"], ["interest costs (interest expense)", "reported interest expense"]),
    "income_tax": (["income tax expense", "provision for income taxes"], ["tax provision", "income taxes (the provision)"]),
    "dividends": (["dividends paid", "cash dividends paid"], ["cash returned via dividends", "dividend payments"]),
    "buybacks": (["share repurchases (cash paid)", "cash spent on buybacks"], ["cash spent repurchasing common stock", "stock buyback spending"]),
    "receivables": (["accounts receivable", "receivables"], ["trade receivables, net", "net receivables"]),
    "ppe": (["net PP&E", "property, plant and equipment, net"], ["net fixed assets (PP&E)", "PP&E net of depreciation"]),
}

# third wording set ("fresh"): labels used by neither dev nor heldout (British terms now and then)
ITEM_LABELS_FRESH = {
    "revenue": ["total revenues", "top-line sales"],
    "cogs": ["cost of goods and services sold", "cost of sales (COGS)"],
    "gross_profit": ["GP (gross profit)", "dollar gross profit"],
    "operating_income": ["operating earnings", "op. income"],
    "net_income": ["net earnings", "profit attributable to shareholders"],
    "eps_diluted": ["per-share diluted earnings", "earnings per diluted share"],
    "total_assets": ["balance-sheet total", "balance-sheet footing (total assets)"],
    "total_liabilities": ["total liabs", "liabilities, current plus non-current"],
    "current_assets": ["current asset total", "CA (total current assets)"],
    "current_liabilities": ["current liability total", "CL (total current liabilities)"],
    "inventory": ["stock (inventories)", "net inventories"],
    "cash": ["cash and cash equivalents (C&CE)", "cash & cash equivalents (not incl. investments)"],
    "lt_debt": ["non-current borrowings", "long-term debt excl. the current portion"],
    "equity": ["shareholders' funds", "equity attributable to shareholders"],
    "total_equity_incl_nci": ["equity including minority interests", "total equity incl. NCI"],
    "cfo": ["cash flow from operations", "OCF"],
    "cfi": ["net cash flow from investing", "investing-activities total on the cash flow statement"],
    "cff": ["net cash flow from financing", "financing-activities total on the cash flow statement"],
    "capex": ["PP&E purchases", "capital investment (purchases of PP&E)"],
    "dna": ["D&A charge", "depreciation plus amortisation"],
    "rnd": ["R&D outlay", "research and development (R&D) expense"],
    "sga": ["SG&A costs", "selling, general and admin expenses"],
    "interest_expense": ["finance costs (interest expense)", "interest charge"],
    "income_tax": ["tax charge", "income tax provision"],
    "dividends": ["dividends paid out in cash", "cash dividends to shareholders"],
    "buybacks": ["buyback cash outlay", "cash used for share buybacks"],
    "receivables": ["A/R", "trade debtors (receivables)"],
    "ppe": ["PP&E (net)", "net property, plant & equipment"],
}

ITEM_KEYS = ["revenue", "cogs", "gross_profit", "operating_income", "net_income", "eps_diluted",
             "total_assets", "total_liabilities", "current_assets", "current_liabilities", "inventory",
             "cash", "lt_debt", "equity", "total_equity_incl_nci", "cfo", "cfi", "cff", "capex", "dna",
             "rnd", "sga", "interest_expense", "income_tax", "dividends", "buybacks"]
INSTANT_KEYS = {"total_assets", "total_liabilities", "current_assets", "current_liabilities", "inventory",
                "cash", "lt_debt", "equity", "total_equity_incl_nci", "receivables", "ppe"}
KIND = {k: ("usd_per_share" if k == "eps_diluted" else "usd") for k in ITEM_LABELS}

# ---------------------------------------------------------------------------------------
# Period phrases
# ---------------------------------------------------------------------------------------


def date_us(d, abbrev=False):
    months = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
    m = months[d.month - 1]
    if abbrev and len(m) > 4:
        m = {"September": "Sept."}.get(m, m[:3] + ".")
    return f"{m} {d.day}, {d.year}"


def date_eu(d):
    months = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
    return f"{d.day} {months[d.month - 1]} {d.year}"


def date_num(d):
    return f"{d.month}/{d.day}/{d.year}"


MON3 = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def date_dmy(d):
    """28-Sep-2024 (spreadsheet style)"""
    return f"{d.day}-{MON3[d.month - 1]}-{d.year}"


def date_dmon(d):
    """28 Sep 2024"""
    return f"{d.day} {MON3[d.month - 1]} {d.year}"


def date_iso(d):
    return d.isoformat()


def dur_phrases_fresh(co, fy):
    end = co.end_date(fy)
    out = [f"for the fiscal year ending {date_dmon(end)}", f"for FYE {date_iso(end)}",
           f"for the twelve months ended {date_dmy(end)}", f"in financial year {fy}"]
    if co.calendar:
        out += [f"in CY{fy}"]
    if fy == co.fy:
        out += [f"in its FY{fy} 10-K", f"for the latest full fiscal year reported (FY{fy})"]
    if fy == co.fy - 1:
        out += [f"for FY{fy}, the comparative year in its FY{co.fy} 10-K",
                f"for the prior-year column (FY{fy}) of its FY{co.fy} 10-K"]
    return out


def inst_phrases_fresh(co, fy):
    end = co.end_date(fy)
    out = [f"as at {date_dmon(end)}", f"at FYE {date_iso(end)}", f"on the {date_dmy(end)} balance sheet",
           f"at the end of financial year {fy}"]
    if co.calendar and end.month == 12 and end.day == 31:
        out += [f"as at 31 December {fy}"]
    if fy == co.fy:
        out += [f"on the latest balance sheet in its FY{fy} 10-K"]
    if fy == co.fy - 1:
        out += [f"at the prior year-end (FY{fy}) as shown in its FY{co.fy} 10-K"]
    return out


def dur_phrases(co, fy, split):
    """Prepositional phrases naming the fiscal year fy of co (flow items)."""
    if split == "fresh":
        return dur_phrases_fresh(co, fy)
    if split == "final":
        return dur_phrases_final(co, fy)
    if split == "sealed":
        return dur_phrases_sealed(co, fy)
    if split == "novel":
        return dur_phrases_novel(co, fy)
    if split == "vault":
        return dur_phrases_vault(co, fy)
    if split == "ledger":
        return dur_phrases_ledger(co, fy)
    if split == "atlas":
        return dur_phrases_atlas(co, fy)
    if split == "harbor":
        return dur_phrases_harbor(co, fy)
    if split == "quarry":
        return dur_phrases_quarry(co, fy)
    if split == "summit":
        return dur_phrases_summit(co, fy)
    if split == "tundra":
        return dur_phrases_tundra(co, fy)
    if split == "ridge":
        return dur_phrases_ridge(co, fy)
    if split == "canyon":
        return dur_phrases_canyon(co, fy)
    if split == "mesa":
        return dur_phrases_mesa(co, fy)
    if split == "zenith":
        return dur_phrases_zenith(co, fy)
    end = co.end_date(fy)
    yy = fy % 100
    out = []
    if split == "dev":
        out += [f"in FY{fy}", f"for fiscal {fy}", f"in FY{yy:02d}", f"for the fiscal year ended {date_us(end)}"]
        if co.calendar:
            out += [f"in {fy}"]
        if fy == co.fy:
            out += ["in its most recent fiscal year", f"for the latest reported year (FY{fy})"]
        if fy == co.fy - 1:
            out += ["in the prior fiscal year"]
    else:
        out += [f"during fiscal year {fy}", f"over the twelve months ended {date_eu(end)}", f"in FY '{yy:02d}",
                f"for the {fy} fiscal year", f"in the year to {date_us(end, abbrev=True)}"]
        if co.calendar:
            out += [f"for calendar {fy}"]
        if fy == co.fy:
            out += ["in the latest fiscal year on file", "for the most recently completed fiscal year"]
        if fy == co.fy - 1:
            out += ["in the fiscal year before the latest one", "in the preceding fiscal year"]
    return out


def inst_phrases(co, fy, split):
    """Prepositional phrases naming the balance-sheet date at the end of fiscal year fy."""
    if split == "fresh":
        return inst_phrases_fresh(co, fy)
    if split == "final":
        return inst_phrases_final(co, fy)
    if split == "sealed":
        return inst_phrases_sealed(co, fy)
    if split == "novel":
        return inst_phrases_novel(co, fy)
    if split == "vault":
        return inst_phrases_vault(co, fy)
    if split == "ledger":
        return inst_phrases_ledger(co, fy)
    if split == "atlas":
        return inst_phrases_atlas(co, fy)
    if split == "harbor":
        return inst_phrases_harbor(co, fy)
    if split == "quarry":
        return inst_phrases_quarry(co, fy)
    if split == "summit":
        return inst_phrases_summit(co, fy)
    if split == "tundra":
        return inst_phrases_tundra(co, fy)
    if split == "ridge":
        return inst_phrases_ridge(co, fy)
    if split == "canyon":
        return inst_phrases_canyon(co, fy)
    if split == "mesa":
        return inst_phrases_mesa(co, fy)
    if split == "zenith":
        return inst_phrases_zenith(co, fy)
    end = co.end_date(fy)
    out = []
    if split == "dev":
        out += [f"as of {date_us(end)}", f"at the end of FY{fy}", f"at fiscal year-end {fy}"]
        if co.calendar:
            out += [f"at year-end {fy}"]
        if fy == co.fy:
            out += ["on its most recent balance sheet"]
        if fy == co.fy - 1:
            out += ["at the prior fiscal year-end"]
    else:
        out += [f"at {date_eu(end)}", f"as at the close of fiscal {fy}", f"on {date_num(end)}",
                f"at the {fy} fiscal year-end"]
        if co.calendar:
            out += [f"as of Dec. 31, {fy}" if end.month == 12 and end.day == 31 else f"at calendar year-end {fy}"]
        if fy == co.fy:
            out += ["at the latest balance-sheet date"]
        if fy == co.fy - 1:
            out += ["at the end of the preceding fiscal year"]
    return out


def cap(s):
    return s[:1].upper() + s[1:]


# ---------------------------------------------------------------------------------------
# Output format options (scale / decimals)
# ---------------------------------------------------------------------------------------

def usd_scale(rng, split, value, small_co=False):
    """(phrase, asked_scale, decimals); thousands only for companies that report in thousands-size figures"""
    big = abs(value) >= 1e9
    if split == "mesa":
        return usd_scale_mesa(rng, big, small_co)
    if split == "canyon":
        opts = [("", None, None), (" (show it in $ millions)", "millions", None), (" (a millions figure is fine)", "millions", None)]
        if big:
            opts += [(" (format: $X.X billion)", "billions", 1), (" (a figure in billions works)", "billions", None)]
        elif small_co:
            opts += [(" (show it in $ thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "ridge":
        opts = [("", None, None), (" (give it in millions)", "millions", None), (" (USD, millions)", "millions", None)]
        if big:
            opts += [(" (in billions of dollars, tenths place)", "billions", 1), (" (billions of dollars)", "billions", None)]
        elif small_co:
            opts += [(" (USD, thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "tundra":
        opts = [("", None, None), (" (I work in millions)", "millions", None), (" -- answer in USD millions", "millions", None)]
        if big:
            opts += [(" (in $bn, to one decimal)", "billions", 1), (" -- $bn is fine", "billions", None)]
        elif small_co:
            opts += [(" (our sheet is in $ thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "summit":
        opts = [("", None, None), (" (dollars in millions, please)", "millions", None), (" (quote it in millions)", "millions", None)]
        if big:
            opts += [(" (in billions, rounded to 0.1)", "billions", 1), (" (billions are fine)", "billions", None)]
        elif small_co:
            opts += [(" (dollars in thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "quarry":
        opts = [("", None, None), (" (in USD mm)", "millions", None), (" (state in millions)", "millions", None)]
        if big:
            opts += [(" (billions of USD, nearest $100 million)", "billions", 1), (" (in bn USD)", "billions", None)]
        elif small_co:
            opts += [(" (state in thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "harbor":
        opts = [("", None, None), (" (units: $ millions)", "millions", None), (" -- answer in $m", "millions", None)]
        if big:
            opts += [(" (to one decimal, in $ billions)", "billions", 1), (" (units: $ billions)", "billions", None)]
        elif small_co:
            opts += [(" (units: $ thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "zenith":
        opts = [("", None, None), (" [USD m]", "millions", None), (" in million dollars", "millions", None)]
        if big:
            opts += [(" (billions, e.g. 12.3)", "billions", 1), (" [USD bn]", "billions", None)]
        elif small_co:
            opts += [(" in thousand dollars", "thousands", None)]
        return rng.choice(opts)
    if split == "atlas":
        opts = [("", None, None), (" (mln USD)", "millions", None), (" ($M)", "millions", None)]
        if big:
            opts += [(", in billions with one digit after the decimal point", "billions", 1), (" ($B)", "billions", None)]
        elif small_co:
            opts += [(" ($K)", "thousands", None)]
        return rng.choice(opts)
    if split == "ledger":
        opts = [("", None, None), (" ($ millions)", "millions", None), (" (answer in millions)", "millions", None)]
        if big:
            opts += [(" (nearest $0.1 billion)", "billions", 1), (" ($ billions)", "billions", None)]
        elif small_co:
            opts += [(" ($ thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "novel":
        opts = [("", None, None), (" in $mm", "millions", None), (", $m", "millions", None)]
        if big:
            opts += [(" in bn (1 decimal)", "billions", 1), (" in bn", "billions", None)]
        elif small_co:
            opts += [(" in $k", "thousands", None)]
        return rng.choice(opts)
    if split == "vault":
        opts = [("", None, None), (" -- millions of dollars, please", "millions", None), (", expressed in $ millions", "millions", None)]
        if big:
            opts += [(", rounded to the nearest tenth of a billion", "billions", 1), (", answer in billions", "billions", None)]
        elif small_co:
            opts += [(", in thousands of dollars", "thousands", None)]
        return rng.choice(opts)
    if split == "sealed":
        opts = [("", None, None), (", in dollar millions", "millions", None), (" (figure in millions of dollars)", "millions", None)]
        if big:
            opts += [(", in dollar billions to one decimal", "billions", 1), (" (figure in billions of dollars)", "billions", None)]
        elif small_co:
            opts += [(", in dollar thousands", "thousands", None)]
        return rng.choice(opts)
    if split == "final":
        opts = [("", None, None), (" (US$m)", "millions", None), (", in millions of US dollars", "millions", None)]
        if big:
            opts += [(" (US$bn, one decimal place)", "billions", 1), (" in US$ billions", "billions", None)]
        elif small_co:
            opts += [(" (US$ thousands)", "thousands", None)]
        return rng.choice(opts)
    if split == "fresh":
        opts = [("", None, None), (" (in $m)", "millions", None), (", USD mn", "millions", None)]
        if big:
            opts += [(", $bn to one d.p.", "billions", 1), (", expressed in billions", "billions", None)]
        elif small_co:
            opts += [(", in $000s", "thousands", None)]
        return rng.choice(opts)
    if split == "dev":
        opts = [("", None, None), (", in millions", "millions", None), (" (in $ millions)", "millions", None)]
        if big:
            opts += [(", in billions to one decimal", "billions", 1), (" ($bn)", "billions", None)]
    else:
        opts = [("", None, None), (" (USD millions)", "millions", None), (", stated in millions of dollars", "millions", None)]
        if big:
            opts += [(", in $bn to 2 dp", "billions", 2), (", in billions of dollars", "billions", None)]
        elif small_co:
            opts += [(" (in thousands of USD)", "thousands", None)]
    return rng.choice(opts)


def pct_fmt(rng, split):
    if split == "mesa":
        return pct_fmt_mesa(rng)
    if split == "canyon":
        return rng.choice([("", None), ("", None), (" (X.X% format)", 1), (" (X.XX% format)", 2),
                           (" (state it as a %)", None)])
    if split == "ridge":
        return rng.choice([("", None), ("", None), (" (percent, tenths place)", 1), (" (percent, hundredths place)", 2),
                           (" (reply in percent)", None)])
    if split == "tundra":
        return rng.choice([("", None), ("", None), (" (one decimal, in %)", 1), (" (to two decimals, as a %)", 2),
                           (" (a % figure is fine)", None)])
    if split == "summit":
        return rng.choice([("", None), ("", None), (" (basis-point precision)", 2), (" (round to 1/10 of a percent)", 1),
                           (" (percent, not a decimal fraction)", None)])
    if split == "quarry":
        return rng.choice([("", None), ("", None), (" (precision: 0.1%)", 1), (" (precision: 0.01%)", 2),
                           (" (as a percent figure)", None)])
    if split == "harbor":
        return rng.choice([("", None), ("", None), (" (round to a single decimal)", 1),
                           (" (two digits after the decimal point)", 2), (" (answer in %)", None)])
    if split == "zenith":
        return rng.choice([("", None), ("", None), (" -- one decimal will do", 1), (" (keep 2 decimals)", 2),
                           (" [in %]", None), (" (format like 12.3%)", 1)])
    if split == "atlas":
        return rng.choice([("", None), ("", None), (" (xx.x%)", 1), (" (xx.xx%)", 2),
                           (" (no need for more than one decimal)", 1)])
    if split == "ledger":
        return rng.choice([("", None), ("", None), (" (one decimal place is enough)", 1), (" (round to two decimals)", 2),
                           (" (percent)", None)])
    if split == "novel":
        return rng.choice([("", None), ("", None), (", 1 decimal", 1), (" (2 decimals)", 2), (" in % terms", None)])
    if split == "vault":
        return rng.choice([("", None), ("", None), (", to a tenth of a percentage point", 1),
                           (", to the hundredth of a percent", 2), (" -- give it as a percentage", None)])
    if split == "sealed":
        return rng.choice([("", None), ("", None), (", rounded to 0.1%", 1), (", to the nearest 0.01%", 2),
                           (" -- a percentage, please", None)])
    if split == "final":
        return rng.choice([("", None), ("", None), (" (per cent, one decimal place)", 1),
                           (", correct to two decimal places", 2), (" (answer as a percentage)", None)])
    if split == "fresh":
        return rng.choice([("", None), ("", None), (" (to 1 d.p.)", 1), (", two decimal places please", 2)])
    if split == "dev":
        return rng.choice([("", None), (" (as a %, one decimal)", 1), (", in percent", None), (", to one decimal place", 1)])
    return rng.choice([("", None), (", percentage to 2 dp", 2), (" (%)", None), (", rounded to a tenth of a percent", 1)])


def ratio_fmt(rng, split, days=False):
    if split == "mesa":
        return ratio_fmt_mesa(rng, days)
    if split == "canyon":
        if days:
            return rng.choice([(" (a number of days)", None), (" (days, X.X format)", 1), (" (counted in days of revenue)", None)])
        return rng.choice([("", None), ("", None), (" (X.XX format)", 2), (" (X.X format)", 1),
                           (" (as a multiple, X.XXx)", 2)])
    if split == "ridge":
        if days:
            return rng.choice([(" (how many days' worth of revenue?)", None), (" (days, tenths place)", 1),
                               (" (days of revenue, please)", None)])
        return rng.choice([("", None), ("", None), (" (hundredths place)", 2), (" (tenths place)", 1),
                           (" (as a multiple, hundredths place)", 2)])
    if split == "tundra":
        if days:
            return rng.choice([(" (answer in days of revenue)", None), (" (days, to one decimal)", 1), (" (how many days?)", None)])
        return rng.choice([("", None), ("", None), (" (to two decimals)", 2), (" (one decimal is plenty)", 1),
                           (" (as N.NNx)", 2)])
    if split == "summit":
        if days:
            return rng.choice([(" (in days, please)", None), (" (days, rounded to 1/10)", 1), (" (a day count)", None)])
        return rng.choice([("", None), ("", None), (" (round to 1/100)", 2), (" (round to 1/10)", 1),
                           (" (as an 'x' multiple, two places)", 2)])
    if split == "quarry":
        if days:
            return rng.choice([(" (days outstanding)", None), (" (result in days, precision 0.1)", 1), (" (answer in calendar days)", None)])
        return rng.choice([("", None), ("", None), (" (precision: 0.01)", 2), (" (to the first decimal)", 1),
                           (" (to the second decimal)", 2)])
    if split == "harbor":
        if days:
            return rng.choice([(" -- give it in days", None), (" (days, single decimal)", 1), (" (a figure in days)", None)])
        return rng.choice([("", None), ("", None), (" (two digits after the decimal point)", 2), (" (single decimal)", 1),
                           (" (in times, e.g. 1.4x)", 1)])
    if split == "zenith":
        if days:
            return rng.choice([(" [days]", None), (" -- number of days, 1 decimal", 1), (" (answer as days)", None)])
        return rng.choice([("", None), ("", None), (" (keep 2 decimals)", 2), (" -- one decimal will do", 1), (" (answer like 1.23x)", 2)])
    if split == "atlas":
        if days:
            return rng.choice([(" (unit: days)", None), (" (days; xx.x)", 1), (" (result in days)", None)])
        return rng.choice([("", None), ("", None), (" (x.xx)", 2), (" (0.0x)", 1)])
    if split == "ledger":
        if days:
            return rng.choice([(" (in days)", None), (" (to 0.1 day)", 1), (" (express in days)", None)])
        return rng.choice([("", None), ("", None), (" (two decimals, please)", 2), (" (round to 0.1)", 1)])
    if split == "novel":
        if days:
            return rng.choice([(" (# of days)", None), (", days to 1 decimal", 1), (", in # of days", None)])
        return rng.choice([("", None), ("", None), (", 2 decimals", 2), (" (x, 1 decimal)", 1)])
    if split == "vault":
        if days:
            return rng.choice([(", as a count of days", None), (", in days rounded to a tenth", 1), (", as a number of days of revenue", None)])
        return rng.choice([("", None), ("", None), (", rounded to the hundredth", 2), (", shown as a multiple to one decimal", 1)])
    if split == "sealed":
        if days:
            return rng.choice([(", in days of sales", None), (", in days, rounded to 0.1", 1), (", measured in days", None)])
        return rng.choice([("", None), ("", None), (", rounded to 0.01x", 2), (", to the nearest 0.1x", 1)])
    if split == "final":
        if days:
            return rng.choice([(" (days)", None), (", in days, one decimal place", 1), (", expressed as a day count", None)])
        return rng.choice([("", None), (" (times, two decimal places)", 2), (", given to one decimal place", 1), ("", None)])
    if split == "fresh":
        if days:
            return rng.choice([(" (number of days)", None), (", in days to 1 d.p.", 1), (" -- answer in days", None)])
        return rng.choice([("", None), (" (2 d.p.)", 2), (", to one decimal", 1), ("", None)])
    if days:
        if split == "dev":
            return rng.choice([(", in days", None), (" (days, one decimal)", 1), (", expressed in days", None)])
        return rng.choice([(", as a number of days", None), (" (in days, to 1 dp)", 1), (", days", None)])
    if split == "dev":
        return rng.choice([("", None), (", to two decimals", 2), (" (x, two decimals)", 2), ("", None)])
    return rng.choice([("", None), (", rounded to 2 dp", 2), (", as a multiple", None), (" (one decimal is fine)", 1)])


# ---------------------------------------------------------------------------------------
# Families: templates
# ---------------------------------------------------------------------------------------

ITEM_TEMPLATES = {
    "dev": [
        "What was {co}'s {item} {per}{scale}?",
        "How much {item} did {co} report {per}{scale}?",
        "{Per}, what did {co} show for {item}{scale}?",
        "Can you pull {co}'s {item} {per}{scale}?",
        "What is the {item} figure in {co}'s 10-K {per}{scale}?",
        "Give me {co}'s {item} {per}{scale}.",
        "{co} {item} {per}{scale}?",
        "Looking at {co}'s financial statements, what was the {item} {per}{scale}?",
        "I'm updating my model -- what {item} did {co} post {per}{scale}?",
    ],
    "heldout": [
        "{co} -- {item} {per}{scale}, please.",
        "I need the number {co} reported for {item} {per}{scale}.",
        "How big was the {item} line for {co} {per}{scale}?",
        "Pull {item} from {co}'s annual report {per}{scale}.",
        "What figure did {co} disclose for {item} {per}{scale}?",
        "Quick one: {co}, {item}, {per}{scale}?",
        "According to its 10-K, {co}'s {item} {per} came to how much{scale}?",
        "For my comp sheet I need {co}'s {item} {per}{scale} -- what is it?",
        "Tell me what {co} recorded for {item} {per}{scale}.",
    ],
}

CHANGE_ABS_TEMPLATES = {
    "dev": [
        "By how much did {co}'s {item} change from {p0} to {p1}{scale}?",
        "What was the dollar change in {co}'s {item} between {p0} and {p1}{scale}?",
        "{co}: {item} {y1} minus {item} {y0}{scale}?",
        "F:How much did {item} at {co} increase or decrease in {p1} versus {p0}{scale}?",
        "Compute the year-over-year change in {co}'s {item}, {p0} to {p1}{scale}.",
    ],
    "heldout": [
        "Between {p0} and {p1}, how far did {co}'s {item} move in dollar terms{scale}?",
        "F:Take {co}'s {item} for {p1} and subtract the {p0} figure -- what do you get{scale}?",
        "How many dollars did {co}'s {item} rise or fall between {p0} and {p1}{scale}?",
        "Net change in {item} at {co}, {p0} vs. {p1}{scale}?",
    ],
}

CHANGE_PCT_TEMPLATES = {
    "dev": [
        "F:What was {co}'s year-over-year {item} growth in {p1}{fmt}?",
        "What was the percentage change in {co}'s {item} from {p0} to {p1}{fmt}?",
        "F:By what percent did {co}'s {item} grow or shrink in {p1} compared with {p0}{fmt}?",
        "{co} {item} growth, {y0} to {y1}{fmt}?",
    ],
    "heldout": [
        "F:How fast did {co}'s {item} grow in {p1} over {p0}, in percentage terms{fmt}?",
        "Express the change in {co}'s {item} between {p0} and {p1} as a percent of the {y0} level{fmt}.",
        "F:What's the YoY % move in {item} at {co} for {p1}{fmt}?",
        "F:Relative to {p0}, how much (in %) did {co}'s {item} change in {p1}{fmt}?",
        "Percent change in {co}'s {item}: {y1} vs. {y0}{fmt}?",
    ],
}

AVG_BAL_TEMPLATES = {
    "dev": [
        "What was {co}'s average {item} for {p1}, using the opening and closing balances{scale}?",
        "Calculate the average of the opening and closing balance of {co}'s {item} for {p1}{scale}.",
        "Average {item} for {co} in {p1} (mean of the {y0} and {y1} year-end balances){scale}?",
        "What is the simple average of {co}'s {item} at the ends of {p0} and {p1}{scale}?",
    ],
    "heldout": [
        "Take {co}'s {item} at the start and at the end of {p1} and average them -- what's the figure{scale}?",
        "What was the mean balance of {item} at {co} across the {y0} and {y1} year-ends{scale}?",
        "Average {co}'s {y0} and {y1} closing {item} -- what does that give{scale}?",
        "For {p1}, what is {co}'s {item} averaged over the two balance-sheet dates{scale}?",
    ],
}

AVG3_TEMPLATES = {  # flows over three years (usd)
    "dev": [
        "What was {co}'s average annual {item} over {y2}-{y1}{scale}?",
        "Over the three fiscal years {y2} through {y1}, what was {co}'s average {item}{scale}?",
        "Give me the 3-year average of {co}'s {item}, {y2} to {y1}{scale}.",
        "Average {item} at {co} across the three years ended {end}{scale}?",
    ],
    "heldout": [
        "Averaged across {y2}, {y0} and {y1}, what did {co}'s {item} amount to per year{scale}?",
        "Sum {co}'s {item} for {y2}, {y0} and {y1} and divide by three -- result{scale}?",
        "Across its last three fiscal years ({y2}-{y1}), what was {co}'s {item} on average{scale}?",
        "Three-year average {item} for {co} ({y2}, {y0}, {y1}){scale}?",
    ],
}

AVG3_RATIO_TEMPLATES = {  # percent-of-revenue averaged over three years (simple average of the annual ratios)
    "dev": [
        "What was {co}'s 3-year average {metric} as a % of revenue for {y2}-{y1} (simple average of the three annual ratios){fmt}?",
        "Taking the simple average of each year's {metric}-to-revenue ratio for {y2}, {y0} and {y1}, what do you get for {co}{fmt}?",
        "Average annual {metric} intensity (% of revenue) at {co} over {y2} through {y1}, averaging the yearly percentages{fmt}?",
    ],
    "heldout": [
        "Compute {metric} as a percentage of sales for each of {co}'s {y2}, {y0} and {y1}, then average the three figures{fmt}.",
        "Over {y2}-{y1}, what was {co}'s mean {metric}/revenue ratio, in percent (equal-weighted average of the annual ratios){fmt}?",
        "Three-year average of {co}'s yearly {metric} as % of revenue, {y2}-{y1} (average of annual ratios){fmt}?",
    ],
}

METRIC_TEMPLATES = {
    "dev": {
        "plain": [
            "What was {co}'s {metric} {per}{fmt}?",
            "Calculate {co}'s {metric} {per}{fmt}.",
            "How much was {co}'s {metric} {per}{fmt}?",
            "{co} {metric} {per}{fmt}?",
            "Can you work out {co}'s {metric} {per}{fmt}?",
        ],
        "defn": [
            "What was {co}'s {metric} {per}, calculated as {defn}{fmt}?",
            "Using {defn}, what was {co}'s {metric} {per}{fmt}?",
            "{Per}, what was {co}'s {metric}, defined as {defn}{fmt}?",
            "Compute {co}'s {metric} {per} ({defn}){fmt}.",
        ],
    },
    "heldout": {
        "plain": [
            "Where did {co}'s {metric} come in {per}{fmt}?",
            "I'd like {co}'s {metric} {per}{fmt}.",
            "{Per}, what {metric} did {co} deliver{fmt}?",
            "Run the numbers: {metric} for {co} {per}{fmt}?",
            "How did {co} screen on {metric} {per}{fmt}?",
        ],
        "defn": [
            "Define {metric} as {defn}. What was it for {co} {per}{fmt}?",
            "{co}'s {metric} {per} -- take {defn}{fmt}.",
            "Work out {co}'s {metric} {per}, where {metric} means {defn}{fmt}.",
            "{co}, {per}: what's the {metric} if you take {defn}{fmt}?",
        ],
    },
}

COMPARE_TEMPLATES = {
    "dev": [
        "Which had the {adj} {metric} {per}, {A} or {B}?",
        "Did {A} or {B} report {more} {item} {per}?",
        "Between {A} and {B}, whose {metric} was {adj} {per}?",
        "{A} vs. {B}: which company posted the {adj} {metric} {per}?",
        "Comparing {A} and {B} {per}, which one had the {adj} {metric}?",
        "Of {A} and {B}, which one had {more} {item} {per}?",
        "Which company's {metric} was {adj} {per} -- {A}'s or {B}'s?",
        "In terms of {item} {per}, which was {adj}: {A} or {B}?",
    ],
    "heldout": [
        "{A} or {B}: whose {metric} was {adj} {per}?",
        "Looking at {A} and {B}, which name shows the {adj} {metric} {per}?",
        "{Per}, did {A} or {B} have the {adj} {metric}?",
        "Which of the two -- {A}, {B} -- had {more} {item} {per}?",
        "Rank {A} against {B} on {metric} {per}: which is {adj}?",
        "Who had {more} {item} {per}: {B} or {A}?",
        "On {metric}, which company comes out {adj} {per} -- {B} or {A}?",
        "Head to head, {A} vs. {B}, {per}: which had {more} {item}?",
        "Whose {item} was {adj} {per}, {A}'s or {B}'s?",
    ],
}

# Third wording set ("fresh"): chat / e-mail style requests (imperatives, fragments, "pls",
# British spellings now and then). Prefixes: F: flows only, I: balances only (changes);
# D: the definition is given as "dividing {num} by {den}" (metrics); H: asked only in the
# "higher" direction, G: "higher" direction and only for figures where more is better (compare).
ITEM_TEMPLATES["fresh"] = [
    "pls send over {co}'s {item} {per}{scale}",
    "Need {co}'s {item} {per}{scale} -- thanks.",
    "Could you look up {co}'s {item} {per} for me{scale}?",
    "{item} -- {co}, {per}{scale}?",
    "Do you have {co}'s {item} {per}{scale}?",
    "Trying to tie out {co}'s {item} {per} -- what's the number in the filing{scale}?",
    "Hi, quick ask: {co}'s {item} {per}{scale}?",
    "I'm building a DCF for {co} -- what did it report as its {item} {per}{scale}?",
    "For {co}, what figure does the 10-K give for the {item} {per}{scale}?",
]

CHANGE_ABS_TEMPLATES["fresh"] = [
    "pls give me the $ delta in {co}'s {item}, {p0} -> {p1}{scale}",
    "F:How much higher or lower did {co}'s {item} come in for {p1} than for {p0}{scale}?",
    "I:How much higher or lower did {co}'s {item} stand at {p1} than at {p0}{scale}?",
    "Did {co}'s {item} go up or down from {p0} to {p1}, and by how much{scale}?",
    "{co} {item}: {y1} figure minus {y0} figure{scale}?",
    "Work out the change in {co}'s {item} between {p0} and {p1} (later year minus earlier){scale}.",
]

CHANGE_PCT_TEMPLATES["fresh"] = [
    "F:What % growth did {co} post in {item} in {p1} vs {p0}{fmt}?",
    "{co}'s {item}, {p0} to {p1}: % change{fmt}?",
    "Calculate growth in {co}'s {item} as ({y1} − {y0}) / {y0}, in percent{fmt}.",
    "F:What was the growth rate of {co}'s {item} in {p1}, measured against {p0}{fmt}?",
    "Give me the growth in {co}'s {item} from {p0} through {p1}, in percent{fmt}.",
    "I:How much did {co}'s {item} grow or shrink (in %) between {p0} and {p1}{fmt}?",
]

AVG_BAL_TEMPLATES["fresh"] = [
    "Avg {item} for {co} over {p1}, i.e. (opening + closing balance) / 2{scale}?",
    "pls compute {co}'s average {item} for {p1} = ({y0} year-end + {y1} year-end) / 2{scale}",
    "What average {item} balance should I use for {co} in {p1}{scale}? Beginning plus end of year, halved.",
    "I need the two-point (start- and end-of-year) average of {co}'s {item} for {p1}{scale}.",
    "{co}'s {item}, averaged across the start-of-year and end-of-year balance sheets of {p1}{scale}?",
]

AVG3_TEMPLATES["fresh"] = [
    "{co}'s {item}: simple mean of {y2}, {y0} and {y1}{scale}?",
    "Add up {co}'s {item} for the three fiscal years to {end} and take a third{scale}.",
    "pls average {co}'s {item} for {y2} through {y1} (three years, equal weight){scale}",
    "What's the 3-yr average of {item} at {co}, {y2}/{y0}/{y1}{scale}?",
]

AVG3_RATIO_TEMPLATES["fresh"] = [
    "{co}: {metric} as % of revenue for each of {y2}, {y0}, {y1} -- what's the average of those three{fmt}?",
    "Unweighted mean of {co}'s annual {metric}/revenue percentages, {y2}-{y1}{fmt}?",
    "Work out {metric} divided by revenue for {co} in {y2}, {y0} and {y1}, then give me the mean of the three percentages{fmt}.",
]

METRIC_TEMPLATES["fresh"] = {
    "plain": [
        "pls calc {co}'s {metric} {per}{fmt}",
        "Got {co}'s {metric} {per}{fmt}?",
        "What number do you get for {co}'s {metric} {per}{fmt}?",
        "Need {metric} for {co} {per}{fmt} -- can you compute it?",
        "Quick check on {co}: {metric} {per}{fmt}?",
        "Help me with {co}'s {metric} {per}{fmt}.",
        "For {co}, what's the {metric} {per}{fmt}?",
    ],
    "defn": [
        "{co}'s {metric} {per}, i.e. {defn}{fmt}?",
        "Take {metric} = {defn}. What's that for {co} {per}{fmt}?",
        "Need {co}'s {metric} {per}{fmt} -- I define it as {defn}.",
        "{metric} (calc: {defn}) for {co} {per}{fmt}?",
        "For {co} {per}, work out {metric}, taking it to be {defn}{fmt}.",
        "D:What was {co}'s {metric} {per}, computed by dividing {num} by {den}{fmt}?",
        "D:Divide {num} by {den} for {co} {per} -- that's the {metric} I'm after{fmt}.",
    ],
}

COMPARE_TEMPLATES["fresh"] = [
    "G:Who comes out ahead on {metric} {per}, {A} or {B}?",
    "Rank {A} and {B}, {rank}, by {metric} {per} -- which name comes first?",
    "Which of {A} and {B} had the {adj} {metric} {per}?",
    "{Per}, is {A}'s {metric} {above} {B}'s?",
    "H:Is {A}'s {metric} above or below {B}'s {per}?",
    "{metric}: {A} vs {B} {per} -- which is {adj}?",
    "pls check whether {A} or {B} posted the {adj} {metric} {per}",
    "{A} and {B} -- who printed the {adj} {metric} {per}?",
    "Which of {A} and {B} had the {adj} {item} {per}?",
    "Rank {A} and {B} on {item} {per}, {rank}: who's first?",
    "Is {A}'s {item} {above} {B}'s {per}?",
    "G:Who comes out ahead on {item} {per}: {A} or {B}?",
    "{item}, {A} vs {B}, {per}: which is {adj}?",
    "{Per}, did {B}'s {item} come in {above} {A}'s?",
]

# ---------------------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------------------

# key: (kind, dev names, heldout names, dev definitions, heldout definitions, days?)
METRICS = {
    "gross_margin": ("percent", ["gross margin"], ["gross profit margin", "gross margin percentage"],
                     ["gross profit divided by revenue", "gross profit as a percentage of total revenue"],
                     ["revenue less cost of sales, over revenue", "gross profit / net revenues"]),
    "operating_margin": ("percent", ["operating margin"], ["EBIT margin (operating income over revenue)", "operating profit margin"],
                         ["operating income as a percentage of revenue", "operating income divided by total revenue"],
                         ["income from operations / revenue", "operating profit over sales"]),
    "net_margin": ("percent", ["net profit margin", "net margin"], ["net income margin", "after-tax profit margin"],
                   ["net income attributable to the company divided by total revenue", "net income as a percentage of revenue"],
                   ["net income / revenue", "bottom-line earnings over sales"]),
    "roa": ("percent", ["return on average assets", "ROA (on average assets)"], ["return on average total assets", "ROAA"],
            ["net income divided by the average of beginning and ending total assets",
             "net income over average total assets (opening and closing balances)"],
            ["net income / mean of the two year-end total asset balances", "net earnings over average assets"]),
    "roe": ("percent", ["return on average equity", "ROE (on average equity)"], ["return on average shareholders' equity", "ROAE"],
            ["net income divided by average shareholders' equity, using opening and closing balances",
             "net income over the average of beginning and ending stockholders' equity"],
            ["net income / mean of the two year-end shareholders' equity balances", "net earnings over average book equity"]),
    "asset_turnover": ("ratio", ["asset turnover", "total asset turnover"], ["asset turnover ratio", "sales-to-average-assets"],
                       ["revenue divided by average total assets", "total revenue over the average of opening and closing total assets"],
                       ["revenue / mean total assets", "sales over average assets"]),
    "fixed_asset_turnover": ("ratio", ["fixed-asset turnover", "PP&E turnover"], ["fixed asset turnover ratio", "net PP&E turnover"],
                             ["revenue divided by the average of opening and closing net PP&E", "revenue over average net property, plant and equipment"],
                             ["revenue / mean net PP&E", "sales over average net fixed assets"]),
    "inventory_turnover": ("ratio", ["inventory turnover", "inventory turns"], ["inventory turnover ratio", "stock turns"],
                           ["cost of sales divided by average inventory", "cost of revenue over the average of opening and closing inventory"],
                           ["COGS / mean inventory", "cost of goods sold over average inventories"]),
    "dso_avg": ("ratio", ["days sales outstanding (on average receivables)", "DSO using average receivables"],
                ["receivable days based on average receivables", "DSO (average A/R basis)"],
                ["average accounts receivable divided by revenue, times 365", "the average of opening and closing receivables over revenue, multiplied by 365"],
                ["mean receivables / revenue x 365", "365 times average A/R over sales"]),
    "dso_end": ("ratio", ["days sales outstanding (on year-end receivables)", "DSO based on ending receivables"],
                ["receivable days on closing receivables", "DSO (year-end A/R basis)"],
                ["year-end accounts receivable divided by revenue, times 365", "closing receivables over revenue, multiplied by 365"],
                ["ending receivables / revenue x 365", "365 times closing A/R over sales"]),
    "quick_ratio": ("ratio", ["quick ratio"], ["acid-test ratio", "quick ratio"],
                    ["current assets minus inventories, divided by current liabilities", "current assets less inventory, over current liabilities"],
                    ["(current assets - inventories) / current liabilities", "current assets excluding inventory, over current liabilities"]),
    "current_ratio": ("ratio", ["current ratio"], ["current ratio", "working-capital ratio"],
                      ["current assets divided by current liabilities", "total current assets over total current liabilities"],
                      ["current assets / current liabilities", "short-term assets over short-term liabilities"]),
    "interest_coverage": ("ratio", ["interest coverage", "interest coverage ratio"], ["times interest earned", "EBIT interest cover"],
                          ["operating income divided by interest expense", "operating income over interest expense"],
                          ["EBIT / interest expense", "operating profit over interest costs"]),
    "payout": ("percent", ["dividend payout ratio", "payout ratio"], ["cash dividend payout", "dividend payout (cash basis)"],
               ["cash dividends paid divided by net income", "dividends paid as a percentage of net income"],
               ["dividends paid / net income", "cash paid out as dividends over net earnings"]),
    "ebitda": ("usd", ["EBITDA"], ["EBITDA", "EBITDA (operating income plus D&A)"],
               ["operating income plus depreciation and amortization", "operating income with D&A added back"],
               ["EBIT + D&A", "operating profit plus depreciation & amortization"]),
    "ebitda_margin": ("percent", ["EBITDA margin"], ["EBITDA margin", "EBITDA as a % of sales"],
                      ["operating income plus D&A, as a percentage of revenue", "EBITDA, i.e. operating income plus depreciation and amortization, divided by revenue"],
                      ["(EBIT + D&A) / revenue", "operating profit plus D&A, over net revenues"]),
    "ebitda_less_capex": ("usd", ["EBITDA less capex", "EBITDA minus capital expenditures"], ["EBITDA - capex", "EBITDA net of capex"],
                          ["operating income plus D&A, less capital expenditures", "EBITDA, i.e. operating income plus D&A, minus capex"],
                          ["EBIT + D&A - capital expenditures", "operating profit plus D&A, minus purchases of PP&E"]),
    "working_capital": ("usd", ["working capital", "net working capital"], ["net working capital", "working capital position"],
                        ["current assets less current liabilities", "total current assets minus total current liabilities"],
                        ["current assets - current liabilities", "short-term assets net of short-term liabilities"]),
    "cash_conversion": ("ratio", ["cash conversion", "cash conversion ratio"], ["OCF-to-net-income ratio", "cash conversion of earnings"],
                        ["operating cash flow divided by net income", "cash from operations over net income"],
                        ["CFO / net income", "net cash from operating activities over net earnings"]),
    "ocf_ratio": ("ratio", ["operating cash flow ratio"], ["operating cash flow ratio", "CFO-to-current-liabilities ratio"],
                  ["operating cash flow divided by current liabilities", "cash from operations over year-end current liabilities"],
                  ["CFO / current liabilities", "net operating cash flow over closing current liabilities"]),
    "rnd_pct": ("percent", ["R&D as a percentage of revenue", "R&D intensity"], ["R&D-to-sales", "research spend as % of revenue"],
                ["R&D expense divided by revenue", "research and development expense as a share of total revenue"],
                ["R&D / revenue", "research and development costs over net revenues"]),
    "sga_pct": ("percent", ["SG&A as a percentage of revenue", "SG&A-to-revenue"], ["SG&A intensity", "SG&A as % of sales"],
                ["SG&A divided by revenue", "selling, general and administrative expense as a share of revenue"],
                ["SG&A / revenue", "selling, general & administrative costs over net revenues"]),
    "capex_pct": ("percent", ["capex as a percentage of revenue", "capital intensity (capex/revenue)"], ["capex-to-sales", "capex as % of revenue"],
                  ["capital expenditures divided by revenue", "capital expenditures as a share of total revenue"],
                  ["capex / revenue", "purchases of PP&E over net revenues"]),
    "fcf": ("usd", ["free cash flow", "FCF"], ["free cash flow", "FCF (CFO less capex)"],
            ["operating cash flow minus capital expenditures", "cash from operations less capex"],
            ["CFO - capex", "net cash from operating activities net of purchases of PP&E"]),
    "debt_to_equity": ("ratio", ["long-term debt-to-equity ratio", "LT debt to equity"], ["long-term-debt/equity", "LT-debt-to-book-equity"],
                       ["long-term debt (excluding current portion) divided by shareholders' equity",
                        "non-current long-term debt over total shareholders' equity"],
                       ["non-current LT debt / shareholders' equity", "long-term borrowings net of current maturities, over book equity"]),
    "etr": ("percent", ["effective tax rate", "ETR"], ["effective tax rate", "effective income tax rate"],
            ["income tax expense divided by pre-tax income", "the provision for income taxes over income before taxes"],
            ["tax provision / pretax income", "income tax expense over earnings before income taxes"]),
}

# third wording set ("fresh"): names, definitions (as expressions: "A/B", "(A − B) / C", "A less B,
# over C", words) and, for plain quotients, the (numerator, denominator) of a "computed by dividing
# {num} by {den}" phrasing.
METRICS_FRESH = {
    "gross_margin": (["GP margin", "gross margin ratio"],
                     ["gross profit/revenue", "(revenue − cost of sales) / revenue"], ("gross profit", "revenue")),
    "operating_margin": (["op margin", "operating income margin"],
                         ["operating income/revenue", "operating income as a share of total revenues"],
                         ("operating income", "total revenue")),
    "net_margin": (["net profit ratio", "net earnings margin"],
                   ["net income attributable to the company/revenue", "profit attributable to shareholders as a % of revenue"],
                   ("net income", "revenue")),
    "roa": (["average-asset ROA", "return on avg. total assets"],
            ["net income/((opening total assets + closing total assets) / 2)", "net income over the two-point average of total assets"],
            ("net income", "the average of beginning and ending total assets")),
    "roe": (["average-equity ROE", "return on avg. shareholders' funds"],
            ["net income/((opening equity + closing equity) / 2)", "net income over average shareholders' equity (start and end of year)"],
            ("net income", "the mean of opening and closing shareholders' equity")),
    "asset_turnover": (["asset turn ratio", "revenue-to-assets multiple"],
                       ["revenue/((opening + closing total assets) / 2)", "sales over the mean of opening and closing total assets"],
                       ("revenue", "the average of opening and closing total assets")),
    "fixed_asset_turnover": (["PP&E turn ratio", "revenue-to-net-PP&E multiple"],
                             ["revenue/average net PP&E (opening and closing)", "sales over the mean of opening and closing net PP&E"],
                             ("revenue", "average net PP&E (opening and closing balances)")),
    "inventory_turnover": (["stock turnover", "inventory turn rate"],
                           ["cost of sales/average inventory", "cost of sales over the mean of opening and closing stock"],
                           ("cost of sales", "average inventory (opening and closing)")),
    "dso_avg": (["debtor days on average receivables", "DSO on average A/R"],
                ["(average receivables/revenue) × 365", "365 × the mean of opening and closing receivables, over revenue"], None),
    "dso_end": (["debtor days on closing receivables", "DSO on closing A/R"],
                ["(closing receivables/revenue) × 365", "year-end trade receivables * 365 / revenue"], None),
    "quick_ratio": (["acid test", "quick liquidity ratio"],
                    ["(total current assets − inventory) / total current liabilities",
                     "total current assets less stock, over total current liabilities"], None),
    "current_ratio": (["current ratio", "current liquidity ratio"],
                      ["total current assets/total current liabilities", "CA/CL"],
                      ("total current assets", "total current liabilities")),
    "interest_coverage": (["interest cover", "EBIT-to-interest multiple"],
                          ["operating income/interest expense", "EBIT (operating income) over interest charges"],
                          ("operating income", "interest expense")),
    "payout": (["cash payout ratio", "dividend payout %"],
               ["cash dividends paid/net income", "total cash dividends as a % of net income"],
               ("cash dividends paid", "net income")),
    "ebitda": (["EBITDA", "operating EBITDA"],
               ["operating income + D&A", "operating income, plus depreciation and amortisation"], None),
    "ebitda_margin": (["EBITDA margin", "EBITDA-to-revenue"],
                      ["(operating income + D&A) / total revenue", "operating income plus depreciation and amortisation, over revenue"], None),
    "ebitda_less_capex": (["EBITDA after capex", "capex-adjusted EBITDA"],
                          ["operating income + D&A − capex", "operating income plus D&A, less capital expenditure"], None),
    "working_capital": (["NWC", "working capital"],
                        ["total current assets − total current liabilities", "CA minus CL"], None),
    "cash_conversion": (["OCF/NI conversion", "earnings cash conversion"],
                        ["cash from operating activities/net income", "OCF as a multiple of net income"],
                        ("operating cash flow", "net income")),
    "ocf_ratio": (["OCF-to-current-liabilities", "operating cash coverage of current liabilities"],
                  ["cash from operations/year-end current liabilities", "OCF over closing current liabilities"],
                  ("operating cash flow", "year-end current liabilities")),
    "rnd_pct": (["R&D % of revenue", "R&D/revenue ratio"],
                ["R&D expense/total revenue", "research & development as a share of sales"],
                ("R&D expense", "revenue")),
    "sga_pct": (["SG&A % of revenue", "SG&A ratio"],
                ["SG&A/total revenue", "selling, general and admin costs as a share of revenue"],
                ("SG&A", "revenue")),
    "capex_pct": (["capex/sales", "capex intensity"],
                  ["capital expenditure/revenue", "PP&E purchases as a share of revenue"],
                  ("capital expenditures", "revenue")),
    "fcf": (["simple FCF", "pre-dividend free cash flow"],
            ["cash from operations − capital expenditure", "operating cash flow less PP&E purchases"], None),
    "debt_to_equity": (["LT debt/equity", "long-term debt to book equity"],
                       ["non-current long-term debt/shareholders' equity", "LT debt (excl. current portion) over book equity"],
                       ("long-term debt excluding the current portion", "shareholders' equity")),
    "etr": (["ETR", "effective rate of income tax"],
            ["income tax expense/pre-tax income", "tax charge over profit before tax"],
            ("the income tax provision", "pre-tax income")),
}


# ---------------------------------------------------------------------------------------
# Fourth wording set ("final")
# ---------------------------------------------------------------------------------------
# Written to be unlike dev, heldout and fresh: formal / terse analyst, banker, auditor,
# journalist and investor phrasing ("State ...", "Kindly provide ...", "Recompute ... as ...",
# "Quantify the movement in ...", "Name the company with ..."), American and British usage
# (accounts, overheads, gearing, net current assets, liquid ratio, per cent, year-on-year,
# totalled), periods as "in fiscal year 2024", "for the year that ended Sep 28, 2024",
# "for the year to 28th September 2024", "at 28th September 2024", "in the most recent fiscal
# year (FY2024)", "for the year covered by its 2024 annual report", definitions as
# "A ÷ B × 100", "the ratio of A to B", "A per $100 of B", "½(opening + closing X)",
# "the excess of A over B", "A after deducting B". Prefixes: F: flows only, I: balances only,
# X: income-statement amounts only (items).

def ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def date_ord(d):
    """28th September 2024 (British, ordinal day)"""
    months = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
    return f"{ordinal(d.day)} {months[d.month - 1]} {d.year}"


def date_mdy(d):
    """Sep 28, 2024 (US, short month without a full stop)"""
    return f"{MON3[d.month - 1]} {d.day}, {d.year}"


def dur_phrases_final(co, fy):
    end = co.end_date(fy)
    out = [f"in fiscal year {fy}", f"for the year that ended {date_mdy(end)}", f"for the year to {date_ord(end)}"]
    if fy == co.fy:
        out += [f"in the most recent fiscal year (FY{fy})", f"for the year covered by its {fy} annual report"]
    if fy == co.fy - 1:
        out += [f"for fiscal year {fy} as presented in the {co.fy} annual report"]
    return out


def inst_phrases_final(co, fy):
    end = co.end_date(fy)
    out = [f"at {date_ord(end)}", f"per the statement of financial position dated {date_mdy(end)}",
           f"at the fiscal year {fy} reporting date"]
    if fy == co.fy:
        out += [f"at the most recent fiscal year-end (FY{fy})", f"at the reporting date of its {fy} annual report"]
    if fy == co.fy - 1:
        out += [f"at the fiscal year {fy} reporting date, as presented in the {co.fy} annual report"]
    return out


ITEM_LABELS_FINAL = {
    "revenue": ["consolidated revenue", "group revenue"],
    "cogs": ["total cost of sales", "consolidated cost of revenue"],
    "gross_profit": ["gross profit before operating expenses", "consolidated gross profit"],
    "operating_income": ["profit from operations", "consolidated operating income"],
    "net_income": ["net income attributable to the parent", "attributable net income"],
    "eps_diluted": ["fully diluted EPS", "EPS (diluted)"],
    "total_assets": ["consolidated total assets", "total assets (current and non-current)"],
    "total_liabilities": ["consolidated total liabilities", "overall liabilities"],
    "current_assets": ["assets classified as current", "total current-asset balance"],
    "current_liabilities": ["liabilities classified as current", "creditors falling due within one year (current liabilities)"],
    "inventory": ["carrying value of inventories", "inventory carrying amount"],
    "cash": ["cash and cash-equivalent holdings", "cash and cash equivalents on hand"],
    "lt_debt": ["long-term debt due after more than one year", "non-current portion of long-term debt"],
    "equity": ["stockholders' equity in total", "owners' equity"],
    "total_equity_incl_nci": ["total equity (parent plus noncontrolling interests)", "group equity including noncontrolling interests"],
    "cfo": ["net cash flows from operating activities", "operating cash generation"],
    "cfi": ["net cash flows from investing activities", "total investing cash flows"],
    "cff": ["net cash flows from financing activities", "total financing cash flows"],
    "capex": ["payments for property, plant and equipment", "cash capital expenditure"],
    "dna": ["D&A add-back in the cash flow statement", "depreciation and amortisation expense"],
    "rnd": ["research and development expenditure", "R&D charges"],
    "sga": ["overheads (SG&A)", "total SG&A expense"],
    "interest_expense": ["interest payable (interest expense)", "gross interest expense"],
    "income_tax": ["taxation (income tax expense)", "provision for taxes on income"],
    "dividends": ["dividend cash outflow", "ordinary dividends paid"],
    "buybacks": ["payments to repurchase common stock", "purchases of own shares (cash)"],
    "receivables": ["receivables net of allowances", "net accounts receivable"],
    "ppe": ["property and equipment net of accumulated depreciation", "net book value of PP&E"],
}

PNL_KEYS = {"revenue", "cogs", "gross_profit", "operating_income", "net_income", "rnd", "sga", "interest_expense",
            "income_tax"}

AVG3_RATIO_FINAL = {"capex": ["cash capex", "payments for PP&E"],
                    "rnd": ["research and development expenditure", "R&D charges"],
                    "sga": ["overheads (SG&A)", "total SG&A expense"]}

# key: (names, definitions)
METRICS_FINAL = {
    "gross_margin": (["gross profit percentage", "gross profit rate"],
                     ["gross profit ÷ revenue × 100", "gross profit per $100 of revenue"]),
    "operating_margin": (["operating profit percentage", "operating return on sales"],
                         ["operating income ÷ revenue × 100", "operating income per $100 of revenue"]),
    "net_margin": (["net profit percentage", "after-tax return on sales"],
                   ["net income attributable to the parent ÷ total revenue × 100", "attributable net income per $100 of revenue"]),
    "roa": (["average-asset return", "return on assets measured on average balances"],
            ["net income ÷ ½(opening + closing total assets) × 100",
             "net income per $100 of total assets, averaging the opening and closing balances"]),
    "roe": (["average-equity return", "return on equity measured on average balances"],
            ["net income ÷ ½(opening + closing shareholders' equity) × 100",
             "net income per $100 of shareholders' equity, averaging the opening and closing balances"]),
    "asset_turnover": (["revenue per dollar of average assets", "asset utilisation ratio"],
                       ["revenue ÷ ½(opening + closing total assets)",
                        "the ratio of revenue to total assets averaged over the start and end of the year"]),
    "fixed_asset_turnover": (["revenue per dollar of average net PP&E", "net fixed-asset turnover"],
                             ["revenue ÷ ½(opening + closing net PP&E)",
                              "the ratio of revenue to net PP&E averaged over the start and end of the year"]),
    "inventory_turnover": (["stockturn", "number of inventory turns"],
                           ["cost of sales ÷ ½(opening + closing inventories)",
                            "the ratio of cost of sales to inventories averaged over the start and end of the year"]),
    "dso_avg": (["debtor collection period on average receivables", "average collection period"],
                ["365 × ½(opening + closing receivables) ÷ revenue",
                 "the average of opening and closing net receivables expressed in days of revenue, on a 365-day year"]),
    "dso_end": (["debtor collection period on year-end receivables", "collection period on closing receivables"],
                ["365 × closing receivables ÷ revenue",
                 "year-end net receivables expressed in days of revenue, on a 365-day year"]),
    "quick_ratio": (["liquid ratio", "quick assets ratio"],
                    ["(current assets − inventories) ÷ current liabilities",
                     "the ratio of current assets net of inventories to current liabilities"]),
    "current_ratio": (["current ratio", "current-asset cover of current liabilities"],
                      ["current assets ÷ current liabilities", "the ratio of current assets to current liabilities"]),
    "interest_coverage": (["interest-coverage multiple", "operating-profit interest cover"],
                          ["operating income ÷ interest expense", "the ratio of operating income to interest expense"]),
    "payout": (["share of profits distributed as dividends", "proportion of net income paid out in cash dividends"],
               ["cash dividends paid ÷ net income × 100", "cash dividends paid per $100 of net income"]),
    "ebitda": (["EBITDA in dollar terms", "earnings before interest, taxes, depreciation and amortization"],
               ["the sum of operating income and depreciation and amortization", "operating income before deducting D&A"]),
    "ebitda_margin": (["EBITDA as a proportion of revenue", "EBITDA return on sales"],
                      ["(operating income + D&A) ÷ revenue × 100", "operating income plus D&A per $100 of revenue"]),
    "ebitda_less_capex": (["EBITDA-minus-capex cash proxy", "capex-burdened EBITDA"],
                          ["operating income + D&A − payments for PP&E",
                           "the sum of operating income and D&A, after deducting capital expenditure"]),
    "working_capital": (["net current asset position", "net working capital balance"],
                        ["current assets − current liabilities", "the excess of current assets over current liabilities"]),
    "cash_conversion": (["cash realisation ratio", "operating-cash-to-earnings ratio"],
                        ["net cash from operating activities ÷ net income", "the ratio of operating cash flow to net income"]),
    "ocf_ratio": (["operating cash flow cover of current liabilities", "OCF-to-CL ratio"],
                  ["operating cash flow ÷ year-end current liabilities",
                   "the ratio of operating cash flow to current liabilities at the year-end"]),
    "rnd_pct": (["R&D spend as a share of revenue", "research intensity"],
                ["R&D expense ÷ revenue × 100", "research and development expense per $100 of revenue"]),
    "sga_pct": (["SG&A as a share of revenue", "overhead ratio"],
                ["SG&A ÷ revenue × 100", "selling, general and administrative expense per $100 of revenue"]),
    "capex_pct": (["capex as a share of revenue", "capital expenditure intensity"],
                  ["payments for PP&E ÷ revenue × 100", "capital expenditure per $100 of revenue"]),
    "fcf": (["cash flow after capital expenditure", "basic free cash flow"],
            ["operating cash flow − payments for PP&E", "net cash from operating activities after deducting capital expenditure"]),
    "debt_to_equity": (["long-term gearing", "long-term debt/equity ratio"],
                       ["non-current long-term debt ÷ shareholders' equity",
                        "the ratio of long-term debt due after more than one year to shareholders' equity"]),
    "etr": (["effective tax rate on pre-tax income", "book effective tax rate"],
            ["income tax expense ÷ income before income taxes × 100", "the tax provision per $100 of pre-tax income"]),
}

ITEM_TEMPLATES["final"] = [
    "State {co}'s {item} {per}{scale}.",
    "Please confirm the reported figure for {co}'s {item} {per}{scale}.",
    "{Per}, {co} recorded {item} of what amount{scale}?",
    "What figure for {item} appears in {co}'s accounts {per}{scale}?",
    "X:What did {co} book as {item} {per}{scale}?",
    "Kindly provide {co}'s {item} {per}{scale}.",
    "For {co}, report {item} {per}{scale}.",
    "I:What was the balance of {item} on {co}'s balance sheet {per}{scale}?",
    "Per the audited financial statements, {co}'s {item} {per} totalled what{scale}?",
    "I am looking for the {item} that {co} reported {per}{scale}.",
]

CHANGE_ABS_TEMPLATES["final"] = [
    "Quantify the movement in {co}'s {item} from {p0} to {p1}{scale}.",
    "F:Compared with {p0}, what was the dollar movement in {co}'s {item} in {p1}{scale}?",
    "I:What was the year-on-year movement in {co}'s {item} between the balance sheets at {p0} and {p1}{scale}?",
    "F:What is the difference between {co}'s {item} for {p1} and for {p0}{scale}?",
    "I:What is the difference between {co}'s {item} at {p1} and at {p0}{scale}?",
    "In dollars, how far did {co}'s {item} move from {p0} to {p1}{scale}?",
    "Report the {y1}-versus-{y0} variance in {co}'s {item}{scale}.",
    "Determine the dollar amount by which {co}'s {item} moved from {p0} to {p1}{scale}.",
    "In absolute terms, what was the swing in {co}'s {item} between {p0} and {p1}{scale}?",
]

CHANGE_PCT_TEMPLATES["final"] = [
    "F:What percentage increase or decrease did {co} record in {item} in {p1} against {p0}{fmt}?",
    "State the year-on-year percentage movement in {co}'s {item} from {p0} to {p1}{fmt}.",
    "I:What was the percentage movement in {co}'s {item} between the balance sheets at {p0} and {p1}{fmt}?",
    "F:Percentage growth in {item} at {co} for {p1} (base: {p0}){fmt}?",
    "F:What growth rate did {co}'s {item} show in {p1}, with {p0} as the base year{fmt}?",
    "F:By what percentage was {co}'s {item} up or down in {p1} on {p0}{fmt}?",
    "Year-on-year, how many per cent did {co}'s {item} gain or lose between {p0} and {p1}{fmt}?",
    "I:By what percentage did {co}'s {item} at {p1} differ from its balance at {p0}{fmt}?",
    "Measure, in per cent, how far {co}'s {item} moved from {p0} to {p1}{fmt}.",
]

AVG_BAL_TEMPLATES["final"] = [
    "Average the opening and closing {item} of {co} for {p1}{scale}.",
    "On a two-point average basis (beginning and end of year), what was {co}'s {item} for {p1}{scale}?",
    "Half the sum of {co}'s {item} at the {y0} and {y1} year-ends: what does it come to{scale}?",
    "Please calculate {co}'s average {item} for {p1} from the balance sheets at either end of the year{scale}.",
    "Using the balances at the start and end of {p1}, what was {co}'s average {item}{scale}?",
    "What average {item} did {co} carry through {p1}, measured as the midpoint of the opening and closing figures{scale}?",
    "Mean {item}, {co}, {p1} (beginning- and end-of-year balances){scale}?",
    "Give the simple mean of {co}'s {item} as at the {y0} and {y1} balance-sheet dates{scale}.",
]

AVG3_TEMPLATES["final"] = [
    "What was {co}'s mean yearly {item} across {yl}{scale}?",
    "Over the three-year period to {end}, what did {co}'s {item} average per year{scale}?",
    "Calculate the arithmetic mean of {co}'s {item} for {yl}{scale}.",
    "{co}'s {item} averaged what per year over {yr}{scale}?",
    "On a three-year average basis ({y2} to {y1}), what was {co}'s {item}{scale}?",
    "Taken over {yr}, what was {co}'s {item} per year on average{scale}?",
    "What is the three-year mean of {co}'s {item} ({yl}){scale}?",
    "Report {co}'s {item} as a three-year average for {yl}{scale}.",
]

AVG3_RATIO_TEMPLATES["final"] = [
    "Across {yr}, what share of revenue did {co}'s {metric} represent on average (mean of the three annual percentages){fmt}?",
    "{co}'s {metric} relative to revenue, averaged over {yl} (average of each year's percentage, not a pooled ratio){fmt}?",
    "For {co}, find {metric} ÷ revenue for each of {yl} separately and report the arithmetic mean in per cent{fmt}.",
    "On average, what proportion of revenue did {co} devote to {metric} in {yl}, averaging the annual percentages{fmt}?",
    "Three-year mean of {co}'s {metric} intensity (percentage of revenue, year by year) for {yr}{fmt}?",
    "Take {co}'s {metric} as a share of revenue in {y2}, {y0} and {y1}; what is the unweighted average of the three percentages{fmt}?",
]

METRIC_TEMPLATES["final"] = {
    "plain": [
        "Determine {co}'s {metric} {per}{fmt}.",
        "What did {co}'s {metric} come to {per}{fmt}?",
        "Please calculate the {metric} of {co} {per}{fmt}.",
        "{co}'s {metric} stood at what level {per}{fmt}?",
        "Kindly compute {co}'s {metric} {per}{fmt}.",
        "Derive {co}'s {metric} {per} from its reported figures{fmt}.",
        "On the reported numbers, what is {co}'s {metric} {per}{fmt}?",
    ],
    "defn": [
        "{metric}, measured as {defn}: what figure results for {co} {per}{fmt}?",
        "What was {co}'s {metric} {per}{fmt}? For this purpose, {metric} is {defn}.",
        "Please compute {co}'s {metric} {per}{fmt}; the definition to use is {defn}.",
        "If {metric} is {defn}, what is the figure for {co} {per}{fmt}?",
        "What is the {metric} ({defn}) for {co} {per}{fmt}?",
        "Recompute {co}'s {metric} {per} as {defn}{fmt}.",
        "Our house definition of {metric} is {defn}. What does that give for {co} {per}{fmt}?",
    ],
}

COMPARE_TEMPLATES["final"] = [
    "Name the company with the {adj} {metric} {per}, choosing between {A} and {B}.",
    "As between {A} and {B}, which showed the {adj} {metric} {per}?",
    "Identify whichever of {A} and {B} recorded the {adj} {metric} {per}.",
    "Investors comparing {A} with {B} {per}: which showed the {adj} {metric}?",
    "Placing {A} alongside {B} {per}, whose {metric} was the {adj} of the two?",
    "For {A} versus {B} {per}, state which company's {metric} was {adj}.",
    "In a comparison of {A} with {B} {per}, which company's figure for {item} was {adj}?",
    "Lining up {A} and {B} {per}, which company had the {adj} {item}?",
    "Name the company with the {adj} {item} {per}, choosing between {A} and {B}.",
    "Identify whichever of {A} and {B} reported the {adj} {item} {per}.",
    "Placing {A} alongside {B} {per}, whose figure for {item} was the {adj} of the two?",
    "As between {A} and {B}, which had the {adj} {item} {per}?",
]


def compare_period_final(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    if same:
        if instant:
            opts = [f"at their fiscal year {a.fy} reporting dates", f"on the balance sheets in their {a.fy} annual reports"]
            if dec31:
                opts.append(f"at {date_ord(a.F.fy_end)}")
        else:
            opts = [f"in fiscal year {a.fy}", f"for the years covered by their respective {a.fy} annual reports"]
            if dec31:
                opts.append(f"for the year that ended {date_mdy(a.F.fy_end)}")
        return rng.choice(opts)
    na, nb = a.names[0], b.names[0]
    if instant:
        return rng.choice([f"at {date_ord(a.F.fy_end)} for {na} and {date_ord(b.F.fy_end)} for {nb}",
                           f"on the balance sheets in their latest annual reports ({na}: fiscal year {a.fy}; {nb}: fiscal year {b.fy})"])
    if a.fy == b.fy:
        return f"for the years that ended {date_mdy(a.F.fy_end)} ({na}) and {date_mdy(b.F.fy_end)} ({nb})"
    return rng.choice([f"for the years that ended {date_mdy(a.F.fy_end)} ({na}) and {date_mdy(b.F.fy_end)} ({nb})",
                       f"with {na} on fiscal year {a.fy} and {nb} on fiscal year {b.fy}",
                       f"per their latest annual reports ({na}: fiscal year {a.fy}; {nb}: fiscal year {b.fy})"])


# ---------------------------------------------------------------------------------------
# Fifth wording set ("sealed")
# ---------------------------------------------------------------------------------------
# Written after reading dev, heldout, fresh and final and avoiding their distinctive phrases:
# plain questions, requests and short notes as analysts, credit officers, equity researchers,
# accountants and students write them ("Could you tell me ...", "To check: ...", "For the credit
# file, ...", "My tutor has asked for ...", "For a bridge chart I need ...", "Credit note: ...",
# "Going by ..., where does ... end up", "<period>, was the higher ... A's or B's?"), US and UK usage
# (turnover, stock-in-trade, debtors, per annum, net current assets, the 2024 financial year).
# Periods as "for the year ended September 28th, 2024", "for its year ended the 28th of September
# 2024", "in the 2024 financial year", "for the year to end-September 2024", "at end-FY2024",
# "as things stood on September 28th, 2024", "at the close of business on the 28th of September
# 2024"; definitions as "A as a fraction of B, in %", "A in the numerator and B in the
# denominator", "A as a multiple of B", "A net of B", "A grossed up for D&A". Prefixes: F: flows
# only, I: balances only, X: income-statement amounts only (items).

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def date_ordus(d):
    """September 28th, 2024 (US, ordinal day)"""
    return f"{MONTHS[d.month - 1]} {ordinal(d.day)}, {d.year}"


def date_ofuk(d):
    """the 28th of September 2024 (British, spoken form)"""
    return f"the {ordinal(d.day)} of {MONTHS[d.month - 1]} {d.year}"


def end_month(d):
    """end-September 2024, only when the year-end falls late in its month (else None)"""
    return f"end-{MONTHS[d.month - 1]} {d.year}" if d.day >= 20 else None


def dur_phrases_sealed(co, fy):
    end = co.end_date(fy)
    out = [f"for the year ended {date_ordus(end)}", f"for its year ended {date_ofuk(end)}",
           f"in the {fy} financial year", f"for the fiscal period ending {date_ordus(end)}"]
    if end_month(end):
        out += [f"for the year to {end_month(end)}"]
    if fy == co.fy:
        out += [f"for fiscal {fy}, the last year it has reported"]
    if fy == co.fy - 1:
        out += [f"for the comparative year, fiscal {fy}"]
    return out


def inst_phrases_sealed(co, fy):
    end = co.end_date(fy)
    out = [f"at end-FY{fy}", f"as things stood on {date_ordus(end)}",
           f"at the close of business on {date_ofuk(end)}", f"at its fiscal {fy} balance sheet date"]
    if fy == co.fy:
        out += [f"at the last year-end it has reported (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"at end-FY{fy}, the comparative balance sheet date"]
    return out


ITEM_LABELS_SEALED = {
    "revenue": ["headline revenue", "turnover (total revenue)"],
    "cogs": ["direct cost of revenue", "cost of sales (direct costs)"],
    "gross_profit": ["gross profit amount", "gross profit after cost of sales"],
    "operating_income": ["operating result", "operating income (operating profit)"],
    "net_income": ["net income attributable to the company's owners", "profit for the year attributable to the company"],
    "eps_diluted": ["diluted earnings per common share", "EPS (diluted basis)"],
    "total_assets": ["asset total", "balance sheet size (total assets)"],
    "total_liabilities": ["liabilities total", "total liabilities (current and long-term)"],
    "current_assets": ["short-dated assets (total current assets)", "total of current assets"],
    "current_liabilities": ["short-dated liabilities (total current liabilities)", "total of current liabilities"],
    "inventory": ["stock-in-trade (inventories)", "inventories (net)"],
    "cash": ["cash plus cash equivalents", "cash & cash equivalents held"],
    "lt_debt": ["long-term debt (non-current portion)", "long-term debt shown under non-current liabilities"],
    "equity": ["stockholders' equity attributable to the company", "shareholders' equity (book)"],
    "total_equity_incl_nci": ["total equity with noncontrolling interests", "overall equity including noncontrolling interests"],
    "cfo": ["cash generated from operating activities", "operating activities cash flow (net)"],
    "cfi": ["investing activities cash flow (net)", "net cash provided by or used in investing activities"],
    "cff": ["financing activities cash flow (net)", "net cash provided by or used in financing activities"],
    "capex": ["spending on property, plant and equipment", "capital expenditure (cash paid for PP&E)"],
    "dna": ["depreciation and amortization total", "depreciation & amortisation (D&A)"],
    "rnd": ["R&D costs expensed", "research and development charge"],
    "sga": ["SG&A spending", "selling, general & administrative expense (SG&A)"],
    "interest_expense": ["cost of interest (interest expense)", "interest expense charged"],
    "income_tax": ["tax expense on income", "taxes on income (the provision)"],
    "dividends": ["dividends paid to shareholders in cash", "cash spent on dividends"],
    "buybacks": ["cash spent buying back shares", "share buyback payments"],
    "receivables": ["accounts receivable (net)", "debtors (net accounts receivable)"],
    "ppe": ["PP&E after accumulated depreciation", "property, plant and equipment at net book value"],
}

AVG3_RATIO_SEALED = {"capex": ["capital spend", "spending on PP&E"],
                     "rnd": ["research and development", "R&D investment"],
                     "sga": ["SG&A overhead", "selling and administrative overhead (SG&A)"]}

# key: (names, definitions)
METRICS_SEALED = {
    "gross_margin": (["GM%", "margin at the gross level"],
                     ["gross profit as a fraction of revenue, in %", "gross profit in the numerator and revenue in the denominator, expressed in %"]),
    "operating_margin": (["operating margin %", "margin at the operating level"],
                         ["operating income as a fraction of revenue, in %",
                          "operating income in the numerator and revenue in the denominator, expressed in %"]),
    "net_margin": (["net margin %", "margin at the net income level"],
                   ["net income attributable to the company as a fraction of revenue, in %",
                    "net income in the numerator and total revenue in the denominator, expressed in %"]),
    "roa": (["return on assets (average-balance basis)", "ROA on mean assets"],
            ["net income as a fraction of the mean of beginning and year-end total assets, in %",
             "net income in the numerator and total assets averaged between the prior and current year-ends in the denominator, expressed in %"]),
    "roe": (["return on equity (average-balance basis)", "ROE on mean equity"],
            ["net income as a fraction of the mean of beginning and year-end shareholders' equity, in %",
             "net income in the numerator and shareholders' equity averaged between the prior and current year-ends in the denominator, expressed in %"]),
    "asset_turnover": (["asset turns", "total-asset turnover (average-balance basis)"],
                       ["revenue as a multiple of the mean of beginning and year-end total assets",
                        "revenue in the numerator and total assets averaged between the prior and current year-ends in the denominator"]),
    "fixed_asset_turnover": (["PP&E turns", "fixed-asset turns (average net PP&E)"],
                             ["revenue as a multiple of the mean of beginning and year-end net PP&E",
                              "revenue in the numerator and net PP&E averaged between the prior and current year-ends in the denominator"]),
    "inventory_turnover": (["turns of inventory", "inventory turnover (average-balance basis)"],
                           ["cost of sales as a multiple of the mean of beginning and year-end inventories",
                            "cost of sales in the numerator and inventories averaged between the prior and current year-ends in the denominator"]),
    "dso_avg": (["receivable days (average-balance basis)", "days of sales in receivables (average A/R)"],
                ["the mean of beginning and year-end receivables as a fraction of revenue, multiplied by 365",
                 "the average of prior and current year-end receivables in the numerator and revenue in the denominator, multiplied by 365"]),
    "dso_end": (["receivable days (year-end balance)", "days of sales in receivables (closing A/R)"],
                ["year-end receivables as a fraction of revenue, multiplied by 365",
                 "closing receivables in the numerator and revenue in the denominator, multiplied by 365"]),
    "quick_ratio": (["quick ratio (inventories excluded)", "acid-test liquidity"],
                    ["current assets net of inventories as a multiple of current liabilities",
                     "current assets minus inventories in the numerator and current liabilities in the denominator"]),
    "current_ratio": (["current-assets-to-current-liabilities ratio", "current ratio"],
                      ["current assets as a multiple of current liabilities",
                       "current assets in the numerator and current liabilities in the denominator"]),
    "interest_coverage": (["times interest covered", "operating income interest cover"],
                          ["operating income as a multiple of interest expense",
                           "operating income in the numerator and interest expense in the denominator"]),
    "payout": (["earnings paid out as cash dividends (%)", "cash dividend payout on earnings"],
               ["cash dividends paid as a fraction of net income, in %",
                "cash dividends paid in the numerator and net income in the denominator, expressed in %"]),
    "ebitda": (["reported EBITDA", "EBITDA (unadjusted)"],
               ["operating income grossed up for depreciation and amortization",
                "operating profit before depreciation and amortisation charges"]),
    "ebitda_margin": (["EBITDA margin %", "unadjusted EBITDA margin"],
                      ["operating income plus D&A as a fraction of revenue, in %",
                       "operating income plus depreciation and amortization in the numerator and revenue in the denominator, expressed in %"]),
    "ebitda_less_capex": (["EBITDA after capital spending", "EBITDA less capital spend"],
                          ["operating income plus D&A, then net of cash paid for PP&E",
                           "operating income grossed up for D&A, with capital expenditure taken off"]),
    "working_capital": (["net current assets", "working-capital surplus (or deficit)"],
                        ["current assets net of current liabilities",
                         "total current assets with total current liabilities taken off"]),
    "cash_conversion": (["OCF-to-earnings multiple", "earnings-to-cash conversion"],
                        ["operating cash flow as a multiple of net income",
                         "net cash from operating activities in the numerator and net income in the denominator"]),
    "ocf_ratio": (["cash-flow liquidity ratio (OCF to current liabilities)", "current-liability coverage by operating cash flow"],
                  ["operating cash flow as a multiple of year-end current liabilities",
                   "net cash from operating activities in the numerator and current liabilities at the year-end in the denominator"]),
    "rnd_pct": (["R&D as % of turnover", "research spending relative to sales"],
                ["R&D expense as a fraction of revenue, in %",
                 "research and development expense in the numerator and revenue in the denominator, expressed in %"]),
    "sga_pct": (["SG&A as % of turnover", "overhead-to-sales percentage"],
                ["SG&A expense as a fraction of revenue, in %",
                 "selling, general and administrative expense in the numerator and revenue in the denominator, expressed in %"]),
    "capex_pct": (["capex as % of turnover", "capital spending relative to sales"],
                  ["capital expenditure as a fraction of revenue, in %",
                   "cash paid for PP&E in the numerator and revenue in the denominator, expressed in %"]),
    "fcf": (["free cash flow (simple)", "FCF on the basic definition"],
            ["operating cash flow net of cash paid for PP&E",
             "net cash from operating activities with capital expenditure taken off"]),
    "debt_to_equity": (["book leverage (long-term debt to equity)", "non-current debt-to-equity"],
                       ["non-current long-term debt as a multiple of shareholders' equity",
                        "long-term debt excluding the current portion in the numerator and shareholders' equity in the denominator"]),
    "etr": (["ETR on pre-tax profit", "tax rate actually borne (effective rate)"],
            ["income tax expense as a fraction of income before income taxes, in %",
             "the income tax provision in the numerator and pre-tax income in the denominator, expressed in %"]),
}

ITEM_TEMPLATES["sealed"] = [
    "Could you tell me {co}'s {item} {per}{scale}?",
    "To check: {co}'s {item} {per}{scale}.",
    "For the credit file, what {item} did {co} report {per}{scale}?",
    "My tutor has asked for {co}'s {item} {per}{scale} -- what was it?",
    "What number does {co} give for {item} {per}{scale}?",
    "Can I check what {co} reported as its {item} {per}{scale}?",
    "Please let me know {co}'s {item} {per}{scale}.",
    "X:On {co}'s income statement, how much was {item} {per}{scale}?",
    "I:What {item} did {co} show on its balance sheet {per}{scale}?",
    "F:Which amount did {co} present for {item} {per}{scale}?",
]

CHANGE_ABS_TEMPLATES["sealed"] = [
    "In dollars, how much did {co}'s {item} grow from {p0} to {p1}{scale}? Negative if it shrank.",
    "F:Compared to {p0}, how much extra {item} did {co} record in {p1}{scale}? Use a negative number if it was less.",
    "Year-over-year dollar growth in {co}'s {item}, {p0} to {p1}{scale}?",
    "I:Between the balance sheet dates {p0} and {p1}, did {co}'s {item} build up or run down, and by what amount{scale}?",
    "For a bridge chart I need the dollar change in {co}'s {item} from {p0} to {p1}{scale}.",
    "Credit note: {co} -- {item}, {y0} to {y1}, change in dollars{scale}?",
    "For my coursework: what amount did {co}'s {item} change by from {p0} to {p1}{scale}?",
    "F:Set {co}'s {item} for {p1} against {p0}: what is the change in dollars{scale}?",
    "I:Set {co}'s {item} at {p1} against {p0}: what is the change in dollars{scale}?",
]

CHANGE_PCT_TEMPLATES["sealed"] = [
    "F:How much bigger or smaller, in %, was {co}'s {item} in {p1} than in {p0}{fmt}?",
    "What % did {co}'s {item} rise (or fall) by between {p0} and {p1}{fmt}?",
    "F:{co} grew its {item} by what percentage in {p1} versus {p0} (negative if it fell){fmt}?",
    "{co}'s {item}, {y1} on {y0}: % growth{fmt}?",
    "For the equity note I need {co}'s {item} growth from {p0} to {p1}, expressed as a %{fmt}.",
    "I:By how many percent did {co}'s {item} at {p1} exceed (or fall short of) the level at {p0}{fmt}?",
    "Accounting class exercise: compute the percentage change in {co}'s {item}, {p0} to {p1}{fmt}.",
    "What was {co}'s {item} growth between {p0} and {p1} in percent (negative for a decline){fmt}?",
]

AVG_BAL_TEMPLATES["sealed"] = [
    "What was {co}'s average {item} during {p1}, taking the beginning-of-year and year-end figures{scale}?",
    "Add {co}'s {item} at end-{y0} to its {item} at end-{y1} and divide by two -- what's the answer{scale}?",
    "For a ratio denominator I need {co}'s average {item} for {p1} (prior and current year-end balances averaged){scale}.",
    "Average {item} held by {co} over {p1}, based on the balances at the start and the finish of the year{scale}?",
    "What's the mean of {co}'s end-{y0} and end-{y1} {item}{scale}?",
    "Please average {co}'s {item} at the beginning and end of {p1}{scale}.",
    "Student query: what is {co}'s average {item} for {p1}, from the prior and current year-end balances{scale}?",
    "Beginning balance plus ending balance, divided by 2: {co}'s {item} for {p1}{scale}?",
]

AVG3_TEMPLATES["sealed"] = [
    "What did {co}'s {item} average per annum in {y2}, {y0} and {y1}{scale}?",
    "Looking at {co}'s {item} for {span}, what is the average per year{scale}?",
    "Give the per-year average of {co}'s {item} over {span}{scale}.",
    "{co} -- average yearly {item} for {span}{scale}?",
    "If you average {co}'s {item} for {y2}, {y0} and {y1}, what do you get{scale}?",
    "For a normalised view, what was {co}'s {item} on average across {span}{scale}?",
    "Please work out {co}'s average {item} per year for the period {span}{scale}.",
    "Average of {co}'s {y2}, {y0} and {y1} {item}{scale}?",
]

AVG3_RATIO_TEMPLATES["sealed"] = [
    "{co}'s {metric}-to-revenue percentage for {y2}, {y0} and {y1}, averaged with each year's ratio weighted equally{fmt}?",
    "What was {co}'s average {metric} as a percentage of revenue over {span}, averaging the three yearly ratios rather than pooling the totals{fmt}?",
    "Each year {co}'s {metric} was some percentage of revenue; what is the average of those percentages for {span}{fmt}?",
    "For {co}, compute {metric} over revenue individually for {y2}, {y0} and {y1}; what's the average of the three percentages{fmt}?",
    "On average, how much of each revenue dollar went on {metric} at {co} across {span} (average of the annual ratios, in %){fmt}?",
    "Credit memo input: {co}'s {metric} relative to sales, averaged over {span} from the three annual %-of-revenue figures{fmt}.",
]

METRIC_TEMPLATES["sealed"] = {
    "plain": [
        "How does {co}'s {metric} work out {per}{fmt}?",
        "I'm writing up {co} for the credit committee -- what was its {metric} {per}{fmt}?",
        "Tell me {co}'s {metric} {per}{fmt}.",
        "As a ratio-analysis exercise, find {co}'s {metric} {per}{fmt}.",
        "What's {co}'s {metric} looking like {per}{fmt}?",
        "Equity research note: {metric} at {co} {per}{fmt}?",
        "Please find {co}'s {metric} {per}{fmt}.",
    ],
    "defn": [
        "Our credit team works out {metric} as {defn} -- on that basis, what was {co}'s figure {per}{fmt}?",
        "The textbook formula for {metric} is {defn}. Apply it to {co} {per}{fmt}.",
        "Find {co}'s {metric} {per}; by {metric} I mean {defn}{fmt}.",
        "Applying the definition '{defn}', what {metric} does {co} show {per}{fmt}?",
        "Going by {defn}, where does {co}'s {metric} end up {per}{fmt}?",
        "Please work {co}'s {metric} out {per} on the basis of {defn}{fmt}.",
        "Note -- {metric} here means {defn}. {co}'s figure {per}{fmt}?",
    ],
}

COMPARE_TEMPLATES["sealed"] = [
    "{A} against {B} {per}: which had the {adj} {metric}?",
    "Quick comparison for a student project -- {A} or {B}, which had the {adj} {metric} {per}?",
    "For the peer table, tell me which company had the {adj} {metric} {per}: {A} or {B}.",
    "Credit view: did {A} or {B} carry the {adj} {metric} {per}?",
    "I'm comparing {A} and {B} {per}. Which one's {metric} was {adj}?",
    "{Per}, was the {adj} {metric} {A}'s or {B}'s?",
    "{Per}, was the {adj} {item} {A}'s or {B}'s?",
    "Tell me whether {A} or {B} had {more} {item} {per}.",
    "Between the two of them, {A} and {B}, who booked {more} {item} {per}?",
    "{A} against {B} {per}: which company had the {adj} {item}?",
    "For the peer table: {A} versus {B}, who shows {more} {item} {per}?",
    "I'm comparing {A} and {B} {per}. Whose {item} was {adj}?",
]



def compare_period_sealed(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    if same:
        if instant:
            opts = [f"at their end-FY{a.fy} balance sheet dates", f"on the balance sheets closing their fiscal {a.fy} years"]
            if dec31:
                opts.append(f"as of {date_ofuk(a.F.fy_end)}")
        else:
            opts = [f"for their respective fiscal {a.fy} years", f"in the {a.fy} financial year of each company"]
            if dec31:
                opts.append(f"for the year ended {date_ordus(a.F.fy_end)}")
        return rng.choice(opts)
    na, nb = a.names[0], b.names[0]
    if instant:
        dated = f"at each company's latest year-end ({na}: {date_ordus(a.F.fy_end)}; {nb}: {date_ordus(b.F.fy_end)})"
        if a.fy == b.fy:
            return dated
        return rng.choice([f"at end-FY{a.fy} for {na} and end-FY{b.fy} for {nb}", dated])
    return rng.choice([f"for {na}'s year ended {date_ordus(a.F.fy_end)} and {nb}'s year ended {date_ordus(b.F.fy_end)}",
                       f"using fiscal {a.fy} for {na} and fiscal {b.fy} for {nb}"])


# ---------------------------------------------------------------------------------------
# Sixth and seventh wording sets ("novel", "vault")
# ---------------------------------------------------------------------------------------
# Both written by a further helper that had not seen the engine, after reading the five
# earlier sets and avoiding their distinctive phrases; novel and vault also avoid each other's.
# Prefixes on templates (any combination, e.g. "I:L:"): F: flows only, I: balances only,
# X: income-statement amounts only, L: chat style -- the question keeps its lower-case start.
#
# novel: desk shorthand and chat-box typing from sell-side / buy-side analysts, PMs, credit
#   analysts and retail holders ("whats ...", "need ..., thx", "Off X's P&L, ...", "Doing a tear
#   sheet on ...", "I'm spreading X's financials into our credit template", "PM wants ...",
#   "Walk me from ...", "who wins if higher is better?", "I'm pairing A against B in a
#   long/short"), abbreviations (ttl, revs, NI, op income, opex, B/S, YE, YoY, chg, avg, mgn,
#   dil., $mm, bn, CFO, LTD, WC). Periods as "for FY24", "for the FY ended 9/28/2024", "for the
#   twelve months through September 2024", "in '23" (calendar filers only), "in the latest fiscal
#   year", "at 9/28/24", "per the 9/28/24 B/S", "exiting FY24", "at YE23". Definitions as
#   "A/B (in %)", "take A, subtract B, then divide by C", "A scaled by B".
# vault: longer, fuller sentences from journalists, auditors, CFO-office staff, credit
#   committees and MBA students ("For a story I'm writing on ...", "Audit support request: ...",
#   "Analytical procedures: ...", "MBA assignment: subtract ...", "Is A's ... greater than /
#   less than B's ...?", "Sort A and B by ..., largest to smallest", "Out of A and B, whose ...
#   was the lesser one?"). Periods as "for the fiscal year ending Sept. 28, 2024", "for
#   full-year fiscal 2024", "in fiscal '24", "in the fiscal year that wrapped up in September
#   2024", "for full-year 2023" (calendar filers only), "at the Sept. 28, 2024 balance sheet
#   date", "when fiscal 2024 closed", "at year-end fiscal 2024". Definitions as "A expressed as
#   a percentage of B", "A relative to B", "A for every dollar of B", "A divided by daily revenue".

NEW_SPLITS = ("novel", "vault", "ledger", "atlas", "zenith", "harbor", "quarry", "summit", "tundra", "ridge", "canyon", "mesa")   # ledger, atlas, zenith, harbor, quarry, summit, tundra, ridge, canyon and mesa (eighth to seventeenth sets, below) were added later with the same wiring


def yy(y):
    return f"{y % 100:02d}"


def date_mdyy(d):
    """9/28/24"""
    return f"{d.month}/{d.day}/{yy(d.year)}"


def date_ap(d):
    """Sept. 28, 2024 (AP style)"""
    return date_us(d, abbrev=True)


def month_year(d):
    """September 2024, only when the year-end falls late in its month (else None)"""
    return f"{MONTHS[d.month - 1]} {d.year}" if d.day >= 20 else None


def dur_phrases_novel(co, fy):
    end = co.end_date(fy)
    out = [f"for FY{yy(fy)}", f"for the FY ended {date_num(end)}"]
    if month_year(end):
        out += [f"for the twelve months through {month_year(end)}"]
    if co.calendar:
        out += [f"in '{yy(fy)}"]
    if fy == co.fy:
        out += ["in the latest fiscal year", f"in the latest fiscal year (FY{yy(fy)})"]
    if fy == co.fy - 1:
        out += [f"for FY{yy(fy)} (the yr before the latest)"]
    return out


def inst_phrases_novel(co, fy):
    end = co.end_date(fy)
    out = [f"at {date_mdyy(end)}", f"per the {date_mdyy(end)} B/S", f"exiting FY{yy(fy)}"]
    if co.calendar and end.month == 12:
        out += [f"at YE{yy(fy)}"]
    if fy == co.fy:
        out += [f"on the latest B/S (FY{yy(fy)})"]
    if fy == co.fy - 1:
        out += [f"a year earlier, at {date_mdyy(end)}"]
    return out


def dur_phrases_vault(co, fy):
    end = co.end_date(fy)
    out = [f"for the fiscal year ending {date_ap(end)}", f"for full-year fiscal {fy}", f"in fiscal '{yy(fy)}"]
    if month_year(end):
        out += [f"in the fiscal year that wrapped up in {month_year(end)}"]
    if co.calendar:
        out += [f"for full-year {fy}"]
    if fy == co.fy:
        out += [f"in its newest reported fiscal year ({fy})"]
    if fy == co.fy - 1:
        out += [f"in fiscal {fy}, the year prior to its latest"]
    return out


def inst_phrases_vault(co, fy):
    end = co.end_date(fy)
    out = [f"at the {date_ap(end)} balance sheet date", f"when fiscal {fy} closed", f"at year-end fiscal {fy}"]
    if fy == co.fy:
        out += [f"on the newest balance sheet (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"at the prior year's close (fiscal {fy})"]
    return out


def yr_forms_new(co, fy, split, rng, instant=False):
    """(p0, p1, y0, y1) for novel / vault / ledger / atlas / zenith / harbor / quarry / summit / tundra / ridge / canyon / mesa."""
    if split == "tundra":
        return yr_forms_tundra(co, fy, rng, instant)
    if split == "ridge":
        return yr_forms_ridge(co, fy, rng, instant)
    if split == "canyon":
        return yr_forms_canyon(co, fy, rng, instant)
    if split == "mesa":
        return yr_forms_mesa(co, fy, rng, instant)
    if split == "summit":
        return yr_forms_summit(co, fy, rng, instant)
    if split == "quarry":
        return yr_forms_quarry(co, fy, rng, instant)
    if split == "harbor":
        return yr_forms_harbor(co, fy, rng, instant)
    if split == "zenith":
        return yr_forms_zenith(co, fy, rng, instant)
    if split == "atlas":
        return yr_forms_atlas(co, fy, rng, instant)
    if split == "ledger":
        return yr_forms_ledger(co, fy, rng, instant)
    y0, y1 = fy - 1, fy
    e0, e1 = co.end_date(y0), co.end_date(y1)
    if split == "novel":
        if instant:
            style = rng.choice(["mdyy", "fyend", "ye"])
            if style == "ye" and not (co.calendar and e0.month == 12 and e1.month == 12):
                style = "mdyy"
            f = {"mdyy": lambda y: date_mdyy(co.end_date(y)), "fyend": lambda y: f"FY{yy(y)} year-end",
                 "ye": lambda y: f"YE{yy(y)}"}[style]
        else:
            style = rng.choice(["fy", "ended", "thru"])
            if style == "thru" and not (month_year(e0) and month_year(e1)):
                style = "fy"
            f = {"fy": lambda y: f"FY{yy(y)}", "ended": lambda y: f"the FY ended {date_num(co.end_date(y))}",
                 "thru": lambda y: f"the twelve months through {month_year(co.end_date(y))}"}[style]
        return f(y0), f(y1), f"FY{yy(y0)}", f"FY{yy(y1)}"
    if instant:
        style = rng.choice(["ap", "yefy"])
        f = {"ap": lambda y: date_ap(co.end_date(y)), "yefy": lambda y: f"year-end fiscal {y}"}[style]
    else:
        style = rng.choice(["tick", "ending", "full"])
        f = {"tick": lambda y: f"fiscal '{yy(y)}", "ending": lambda y: f"the fiscal year ending {date_ap(co.end_date(y))}",
             "full": lambda y: f"full-year fiscal {y}"}[style]
    return f(y0), f(y1), f"fiscal '{yy(y0)}", f"fiscal '{yy(y1)}"


def span_new(co, fy, split, rng):
    """the three fiscal years fy-2..fy, for averages"""
    if split == "tundra":
        return span_tundra(co, fy, rng)
    if split == "ridge":
        return span_ridge(co, fy, rng)
    if split == "canyon":
        return span_canyon(co, fy, rng)
    if split == "mesa":
        return span_mesa(co, fy, rng)
    if split == "summit":
        return span_summit(co, fy, rng)
    if split == "quarry":
        return span_quarry(co, fy, rng)
    if split == "harbor":
        return span_harbor(co, fy, rng)
    if split == "zenith":
        return span_zenith(co, fy, rng)
    if split == "atlas":
        return span_atlas(co, fy, rng)
    if split == "ledger":
        return span_ledger(co, fy, rng)
    if split == "novel":
        return rng.choice([f"FY{yy(fy - 2)}-FY{yy(fy)}", f"FY{yy(fy - 2)} thru FY{yy(fy)}"])
    return rng.choice([f"fiscal '{yy(fy - 2)} through fiscal '{yy(fy)}",
                       f"the three fiscal years ending {date_ap(co.end_date(fy))}"])


def split_flags(tpl):
    m = re.match(r"^((?:[A-Z]:)+)", tpl)
    if not m:
        return set(), tpl
    return set(m.group(1).replace(":", "")), tpl[m.end():]


def pick_new(rng, tpls, inst=None, pnl=True):
    """choose a novel / vault template allowed for this kind of figure (flags kept for fill2)"""
    ok = []
    for t in tpls:
        fl = split_flags(t)[0]
        if ("F" in fl and inst) or ("I" in fl and not inst) or ("X" in fl and not pnl):
            continue
        ok.append(t)
    return rng.choice(ok)


def fill2(tpl, **kw):
    """fill() for novel / vault: strips the flags; L: keeps a lower-case chat-style start."""
    fl, body = split_flags(tpl)
    s = fill(body, **kw)
    if "L" in fl and body[:1].islower():
        s = body[:1] + s[1:]
    return s


ITEM_LABELS_NOVEL = {
    "revenue": ["revs", "ttl revenue"],
    "cogs": ["cost of rev", "COGS line"],
    "gross_profit": ["gross profit $", "GP $"],
    "operating_income": ["op income", "op profit"],
    "net_income": ["NI", "net income attrib. to the company"],
    "eps_diluted": ["EPS (dil.)", "dil. EPS"],
    "total_assets": ["ttl assets", "TA (total assets)"],
    "total_liabilities": ["ttl liabilities", "TL (total liabilities)"],
    "current_assets": ["ttl current assets", "current assets (ttl)"],
    "current_liabilities": ["ttl current liabilities", "current liabs (ttl)"],
    "inventory": ["inventory $", "inventories on the B/S"],
    "cash": ["cash & equivs", "cash and equivs (ex. investments)"],
    "lt_debt": ["LTD (non-current)", "long-term debt ex-current maturities"],
    "equity": ["book equity", "shareholders' eq."],
    "total_equity_incl_nci": ["ttl equity w/ NCI", "equity (parent + minority interest)"],
    "cfo": ["op cash flow", "CFO (cash from ops)"],
    "cfi": ["investing CF", "CFI (net investing cash flow)"],
    "cff": ["financing CF", "CFF (net financing cash flow)"],
    "capex": ["capex spend", "PP&E capex"],
    "dna": ["D&A expense", "dep & amort"],
    "rnd": ["R&D", "R&D exp."],
    "sga": ["SG&A exp.", "SG&A opex"],
    "interest_expense": ["int. exp.", "interest exp"],
    "income_tax": ["tax exp.", "income tax exp."],
    "dividends": ["divs paid", "cash divs"],
    "buybacks": ["buybacks (cash)", "share repurchase spend"],
    "receivables": ["net A/R", "AR balance"],
    "ppe": ["PP&E net of dep.", "net PPE"],
}

ITEM_LABELS_VAULT = {
    "revenue": ["overall revenues", "revenues from all sources"],
    "cogs": ["costs of revenue", "COGS (cost of revenues)"],
    "gross_profit": ["gross profit earned", "gross profit in dollar terms"],
    "operating_income": ["operating profit as reported", "GAAP operating income"],
    "net_income": ["GAAP net income attributable to the company", "reported net earnings"],
    "eps_diluted": ["earnings per share after dilution", "EPS after dilution"],
    "total_assets": ["assets in total", "total assets at book value"],
    "total_liabilities": ["liabilities in total", "total liabilities owed"],
    "current_assets": ["sum of current assets", "current assets in aggregate"],
    "current_liabilities": ["sum of current liabilities", "current liabilities in aggregate"],
    "inventory": ["inventory holdings", "inventory carried on the balance sheet"],
    "cash": ["cash and cash equivalents position", "cash on the balance sheet (cash and cash equivalents only)"],
    "lt_debt": ["long-term debt less its current portion", "long-term debt classified as noncurrent"],
    "equity": ["equity of shareholders", "stockholders' equity as reported"],
    "total_equity_incl_nci": ["combined equity of shareholders and noncontrolling interests",
                              "total equity counting noncontrolling interests"],
    "cfo": ["cash provided by operations", "operating cash flow as reported"],
    "cfi": ["investing-section net cash flow", "net investing-activities cash flow"],
    "cff": ["financing-section net cash flow", "net financing-activities cash flow"],
    "capex": ["cash additions to property, plant and equipment", "capital outlays for PP&E"],
    "dna": ["depreciation and amortization (combined)", "combined depreciation and amortization"],
    "rnd": ["spending on research and development", "research & development expense"],
    "sga": ["SG&A expense line", "selling, general, and administrative spending"],
    "interest_expense": ["interest expense incurred", "interest costs expensed"],
    "income_tax": ["provision for taxes", "income taxes expensed"],
    "dividends": ["dividends paid in cash", "cash paid for dividends"],
    "buybacks": ["cash used to repurchase shares", "repurchases of common stock (cash paid)"],
    "receivables": ["amounts receivable from customers (net A/R)", "accounts receivable balance"],
    "ppe": ["property, plant & equipment (net)", "net carrying value of PP&E"],
}

AVG3_RATIO_NOVEL = {"capex": ["capex spend", "PP&E spend"], "rnd": ["R&D exp.", "R&D $"],
                    "sga": ["SG&A exp.", "SG&A opex"]}
AVG3_RATIO_VAULT = {"capex": ["capital outlays", "spending on property, plant and equipment"],
                    "rnd": ["research and development", "spending on research and development"],
                    "sga": ["selling, general, and administrative spending"]}

# key: (names, definitions)
METRICS_NOVEL = {
    "gross_margin": (["gross mgn", "gross margin pct"],
                     ["gross profit/revenue (in %)", "take revenue, subtract cost of sales, then divide by revenue (x100)"]),
    "operating_margin": (["op mgn", "operating mgn (%)"],
                         ["op income/revenue (in %)", "operating income scaled by revenue, x100"]),
    "net_margin": (["net mgn", "NI margin"],
                   ["NI/revenue (in %)", "net income attrib. to the company scaled by total revenue, x100"]),
    "roa": (["ROA (avg assets)", "RoA on avg. TA"],
            ["NI/avg. total assets (in %), avg = (beginning + ending)/2",
             "net income scaled by the average of beginning and ending total assets, x100"]),
    "roe": (["ROE (avg equity)", "RoE on avg. book"],
            ["NI/avg. shareholders' equity (in %), avg = (beginning + ending)/2",
             "net income scaled by the average of beginning and ending shareholders' equity, x100"]),
    "asset_turnover": (["asset turns (x)", "TA turnover"],
                       ["revenue/avg. total assets (avg of beginning & ending)",
                        "revenue scaled by average total assets (beginning and end of year)"]),
    "fixed_asset_turnover": (["PP&E turns (x)", "net PPE turnover"],
                             ["revenue/avg. net PP&E (avg of beginning & ending)",
                              "revenue scaled by average net PP&E (beginning and end of year)"]),
    "inventory_turnover": (["inv. turns", "inventory turns (x)"],
                           ["COGS/avg. inventory (avg of beginning & ending)",
                            "cost of sales scaled by average inventory (beginning and end of year)"]),
    "dso_avg": (["DSO (avg A/R)", "days receivable (avg bal.)"],
                ["avg. A/R/revenue × 365, avg = (beginning + ending A/R)/2",
                 "average receivables (beginning + ending, halved) scaled by revenue, times 365"]),
    "dso_end": (["DSO (ending A/R)", "days receivable (ending bal.)"],
                ["ending A/R/revenue × 365", "year-end receivables scaled by revenue, times 365"]),
    "quick_ratio": (["acid-test (x)", "quick ratio ex-inventory"],
                    ["take current assets, subtract inventory, then divide by current liabilities",
                     "current assets ex-inventory, scaled by current liabilities"]),
    "current_ratio": (["current ratio (x)", "curr. ratio"],
                      ["current assets/current liabilities (x)", "current assets scaled by current liabilities"]),
    "interest_coverage": (["int. coverage (x)", "op-income interest coverage"],
                          ["op income/interest expense (x)", "operating income scaled by interest expense"]),
    "payout": (["payout %", "div payout"],
               ["divs paid/NI (in %)", "cash dividends paid scaled by net income, x100"]),
    "ebitda": (["EBITDA ($)", "simple EBITDA"],
               ["op income + D&A", "take operating income and add back D&A"]),
    "ebitda_margin": (["EBITDA mgn", "EBITDA margin (%)"],
                      ["(op income + D&A)/revenue (in %)", "take op income, add D&A, then divide by revenue (x100)"]),
    "ebitda_less_capex": (["EBITDA-capex ($)", "EBITDA minus capex spend"],
                          ["take op income, add D&A, then subtract capex", "op income + D&A − capex"]),
    "working_capital": (["WC ($)", "net WC"],
                        ["take current assets and subtract current liabilities", "current assets less current liabs ($)"]),
    "cash_conversion": (["CFO/NI", "cash conversion (x)"],
                        ["op cash flow/NI (x)", "operating cash flow scaled by net income"]),
    "ocf_ratio": (["CFO/current liabs (x)", "op cash flow ratio"],
                  ["op cash flow/year-end current liabilities (x)", "operating cash flow scaled by ending current liabilities"]),
    "rnd_pct": (["R&D/sales (%)", "R&D as % of revs"],
                ["R&D/revenue (in %)", "R&D expense scaled by revenue, x100"]),
    "sga_pct": (["SG&A/sales (%)", "SG&A as % of revs"],
                ["SG&A/revenue (in %)", "SG&A scaled by revenue, x100"]),
    "capex_pct": (["capex/rev (%)", "capex as % of revs"],
                  ["capex/revenue (in %)", "capital expenditures scaled by revenue, x100"]),
    "fcf": (["FCF ($)", "free cash flow $"],
            ["take op cash flow and subtract capex", "operating cash flow after capex spend"]),
    "debt_to_equity": (["LTD/equity (x)", "LT debt-to-equity (x)"],
                       ["non-current LTD/shareholders' equity (x)",
                        "long-term debt ex-current portion scaled by shareholders' equity"]),
    "etr": (["ETR (%)", "eff. tax rate"],
            ["tax exp./pretax income (in %)", "income tax expense scaled by pre-tax income, x100"]),
}

METRICS_VAULT = {
    "gross_margin": (["gross margin rate", "gross profit margin ratio"],
                     ["gross profit expressed as a percentage of revenue", "gross profit relative to revenue (as a percentage)"]),
    "operating_margin": (["operating margin rate", "operating profitability ratio"],
                         ["operating income expressed as a percentage of revenue",
                          "operating income relative to revenue (as a percentage)"]),
    "net_margin": (["net margin rate", "profit margin (net)"],
                   ["net income attributable to the company expressed as a percentage of revenue",
                    "net income relative to total revenue (as a percentage)"]),
    "roa": (["ROA based on average assets", "return earned on average assets"],
            ["net income expressed as a percentage of average total assets (the mean of the beginning and ending balances)",
             "net income relative to the average of the prior and current year-end total assets (as a percentage)"]),
    "roe": (["ROE based on average equity", "return earned on average equity"],
            ["net income expressed as a percentage of average shareholders' equity (the mean of the beginning and ending balances)",
             "net income relative to the average of the prior and current year-end shareholders' equity (as a percentage)"]),
    "asset_turnover": (["asset turnover multiple", "asset efficiency ratio (asset turnover)"],
                       ["revenue relative to average total assets (beginning and ending balances averaged)",
                        "revenue for every dollar of average total assets (mean of the beginning and ending balances)"]),
    "fixed_asset_turnover": (["fixed-asset turnover multiple", "PP&E efficiency ratio (fixed-asset turnover)"],
                             ["revenue relative to average net PP&E (beginning and ending balances averaged)",
                              "revenue for every dollar of average net PP&E (mean of the beginning and ending balances)"]),
    "inventory_turnover": (["inventory turnover multiple", "inventory churn (turnover)"],
                           ["cost of sales relative to average inventory (beginning and ending balances averaged)",
                            "cost of sales for every dollar of average inventory (mean of the beginning and ending balances)"]),
    "dso_avg": (["collection period in days (average receivables)", "days to collect (average A/R basis)"],
                ["average receivables (mean of the beginning and ending balances) divided by daily revenue, where daily revenue is annual revenue / 365",
                 "the mean of beginning and ending receivables relative to revenue, converted to days on a 365-day year"]),
    "dso_end": (["collection period in days (ending receivables)", "days to collect (ending A/R basis)"],
                ["year-end receivables divided by daily revenue, where daily revenue is annual revenue / 365",
                 "ending receivables relative to revenue, converted to days on a 365-day year"]),
    "quick_ratio": (["acid-test liquidity multiple", "quick (acid-test) ratio"],
                    ["current assets excluding inventories, relative to current liabilities",
                     "current assets minus inventories, for every dollar of current liabilities"]),
    "current_ratio": (["current-ratio multiple", "current ratio (liquidity)"],
                      ["current assets relative to current liabilities", "current assets for every dollar of current liabilities"]),
    "interest_coverage": (["interest coverage multiple", "operating income coverage of interest"],
                          ["operating income relative to interest expense", "operating income for every dollar of interest expense"]),
    "payout": (["dividend payout rate", "cash dividends-to-earnings ratio"],
               ["cash dividends paid expressed as a percentage of net income", "dividends paid relative to net income (as a percentage)"]),
    "ebitda": (["EBITDA dollars", "EBITDA on an operating-income basis"],
               ["the total of operating income and depreciation & amortization",
                "depreciation and amortization added on top of operating income"]),
    "ebitda_margin": (["EBITDA margin rate", "EBITDA-to-sales percentage"],
                      ["operating income plus D&A, expressed as a percentage of revenue",
                       "EBITDA (operating income plus D&A) relative to revenue (as a percentage)"]),
    "ebitda_less_capex": (["EBITDA after subtracting capex", "capex-deducted EBITDA"],
                          ["operating income plus D&A, with capital expenditures then subtracted",
                           "the total of operating income and D&A, minus cash spent on property, plant and equipment"]),
    "working_capital": (["working capital in dollars", "net working capital amount"],
                        ["the amount by which current assets exceed current liabilities (negative if they fall short)",
                         "the gap between current assets and current liabilities (current assets minus current liabilities)"]),
    "cash_conversion": (["cash conversion multiple", "operating cash flow relative to earnings"],
                        ["operating cash flow relative to net income", "operating cash flow for every dollar of net income"]),
    "ocf_ratio": (["operating cash flow to current liabilities", "cash-flow coverage of current liabilities"],
                  ["operating cash flow relative to year-end current liabilities",
                   "operating cash flow for every dollar of current liabilities at year-end"]),
    "rnd_pct": (["R&D-to-revenue percentage", "research and development intensity"],
                ["R&D expense expressed as a percentage of revenue",
                 "research and development expense relative to revenue (as a percentage)"]),
    "sga_pct": (["SG&A-to-revenue percentage", "SG&A burden on revenue"],
                ["SG&A expense expressed as a percentage of revenue",
                 "selling, general, and administrative expense relative to revenue (as a percentage)"]),
    "capex_pct": (["capex-to-revenue percentage", "capital spending intensity"],
                  ["capital expenditures expressed as a percentage of revenue",
                   "purchases of property, plant and equipment relative to revenue (as a percentage)"]),
    "fcf": (["plain-vanilla free cash flow", "free cash generation"],
            ["operating cash flow, with capital expenditures then subtracted",
             "cash from operating activities minus cash spent on property, plant and equipment"]),
    "debt_to_equity": (["long-term debt-to-equity multiple", "leverage (long-term debt relative to equity)"],
                       ["long-term debt, less current portion, relative to shareholders' equity",
                        "noncurrent long-term debt for every dollar of shareholders' equity"]),
    "etr": (["effective income-tax rate", "tax rate (effective)"],
            ["income tax expense expressed as a percentage of pre-tax income",
             "the provision for income taxes relative to income before taxes (as a percentage)"]),
}

ITEM_TEMPLATES["novel"] = [
    "L:whats {co}'s {item} {per}{scale}",
    "L:need {co}'s {item} {per}{scale}, thx",
    "{co}: {item} {per}{scale} -- what's the reported number?",
    "I'm spreading {co}'s financials into our credit template -- {item} {per}{scale}?",
    "Doing a tear sheet on {co}; can you get me {item} {per}{scale}?",
    "I:L:how much {item} did {co} have on the books {per}{scale}",
    "Reading {co}'s 10-K for class -- what's the {item} {per}{scale}?",
    "X:Off {co}'s P&L, {item} {per}{scale}?",
    "I:Off {co}'s B/S, {item} {per}{scale}?",
    "Long-time {co} holder here -- what was {item} {per}{scale}?",
    "Sanity-checking my model vs. the 10-K: {co}'s {item} {per}{scale}?",
]

ITEM_TEMPLATES["vault"] = [
    "For a story I'm writing on {co}, I need the figure it reported for {item} {per}{scale}.",
    "Audit support request: {co}'s {item} {per}{scale}, exactly as filed?",
    "How large a figure did {co} report for {item} {per}{scale}?",
    "We're benchmarking against {co} in the CFO's office -- what number does it give for {item} {per}{scale}?",
    "At what level did {co} report its {item} {per}{scale}?",
    "MBA case prep: find {co}'s {item} {per}{scale}.",
    "I:How much {item} was sitting on {co}'s balance sheet {per}{scale}?",
    "X:What was the size of {co}'s {item} {per}{scale}?",
    "I'm looking into {co} as a possible investment; where did its {item} stand {per}{scale}?",
    "Could I get {co}'s {item} {per}{scale}, straight from the filing?",
]

CHANGE_ABS_TEMPLATES["novel"] = [
    "L:{co} {item}, $ chg {y0} to {y1}{scale}?",
    "What's the YoY $ change in {co}'s {item}, {p0} vs {p1}{scale}? (negative = decline)",
    "F:Walk me from {co}'s {item} in {p0} to {p1}: net $ difference{scale}?",
    "I:Walk me from {co}'s {item} at {p0} to {p1}: net $ difference{scale}?",
    "I'm modelling {co} and need my {y1} {item} to tie -- what was the $ increase/decrease vs {y0}{scale}?",
    "L:{co} {item} {y1} less {y0}{scale}",
    "I:B/S check: {co}'s {item}, {p1} vs. {p0} -- $ difference (latest minus prior){scale}?",
    "F:{co}'s {item} in {p1} minus {p0} -- what's the $ gap{scale}?",
]

CHANGE_ABS_TEMPLATES["vault"] = [
    "Measured in dollars, what was the increase (or decrease, shown as a negative) in {co}'s {item} from {p0} to {p1}{scale}?",
    "A reader asked how much {co}'s {item} changed from {p0} to {p1}. What's the dollar answer{scale}?",
    "For our CFO-office benchmarking deck: {co}'s {item}, {y1} less {y0}{scale}?",
    "F:In {p1}, was {co}'s {item} ahead of or behind {p0}? State the difference in dollars, signed{scale}.",
    "I:By how much did {co}'s {item} on the balance sheet differ between {p0} and {p1} (newer figure less older){scale}?",
    "MBA assignment: subtract {co}'s {y0} {item} from its {y1} {item}{scale}.",
    "Auditor's analytical review: what is the change in {co}'s {item} from {p0} to {p1}, in dollars{scale}?",
]

CHANGE_PCT_TEMPLATES["novel"] = [
    "L:yoy % growth in {co}'s {item} for {y1} (vs {y0}){fmt}",
    "F:{co}'s {item} grew by what % YoY in {p1} (vs. {p0}){fmt}?",
    "Doing growth attribution for {co} -- how much did {item} grow or decline in % from {p0} to {p1}{fmt}?",
    "Retail investor q: how did {co}'s {item} trend from {p0} to {p1}? what % (negative if down){fmt}",
    "I:{co}'s {item} at {p1} vs. {p0}: % chg{fmt}?",
    "L:{co} {item} % chg, {y1} over {y0}{fmt}",
    "Growth check on {co}: {item} up or down how much (%) from {p0} to {p1}{fmt}?",
]

CHANGE_PCT_TEMPLATES["vault"] = [
    "Taking {y0} as the base, what percentage change did {co}'s {item} show from {p0} to {p1}{fmt}?",
    "Writing up {co}'s results: what was the percent increase (or decrease) in {item}, {p0} versus {p1}{fmt}?",
    "F:{co} saw its {item} change by what percentage in {p1} compared to {p0}{fmt}?",
    "I:Starting from the {p0} balance, by what percentage had {co}'s {item} grown or contracted at {p1}{fmt}?",
    "Growing or shrinking? Give the percentage change in {co}'s {item} from {p0} to {p1}{fmt}.",
    "Analytical procedures: compute the percent change in {co}'s {item} between {p0} and {p1}, with {y0} as the denominator{fmt}.",
]

AVG_BAL_TEMPLATES["novel"] = [
    "L:need avg {item} for {co} in {p1} (avg of {y0} and {y1} YE balances){scale}",
    "For a turns calc I need {co}'s {item} averaged over the {y0} and {y1} year-end B/S -- what do I get{scale}?",
    "{co}: {y0}/{y1} year-end {item}, averaged{scale}?",
    "What's {co}'s avg. {item} for {p1}? Beg. and end balances, simple avg{scale}.",
    "MBA homework: avg {item} of {co} over {p1} -- start-of-year B/S plus end-of-year B/S, halved{scale}?",
]

AVG_BAL_TEMPLATES["vault"] = [
    "To build a return metric I need {co}'s average {item} for {p1}: the mean of its {y0} and {y1} closing balances{scale}.",
    "Averaging {co}'s {item} at the close of {y0} and at the close of {y1} gives what figure{scale}?",
    "Please give {co}'s average {item} across {p1}, weighting last year's closing balance and this year's closing balance equally{scale}.",
    "MBA case: what is {co}'s average {item} for {p1}, averaging the two year-end balances that bracket it{scale}?",
    "For an audit expectation, average {co}'s closing {item} for {y0} with its closing {item} for {y1}{scale}.",
]

AVG3_TEMPLATES["novel"] = [
    "L:{co} 3yr avg {item} {y2}-{y1}{scale}",
    "Smoothing out {co}'s {item} over {span}: what's the mean per year{scale}?",
    "I'm looking at through-cycle {item} for {co}; what's the {span} annual avg{scale}?",
    "What's {co}'s avg annual {item} across the last three FYs ({y2}, {y0}, {y1}){scale}?",
    "{co} -- mean {item}, {span}, per yr{scale}?",
]

AVG3_TEMPLATES["vault"] = [
    "Over {span}, how much {item} did {co} average per year{scale}?",
    "Journalist's question: averaged over {span}, what did {co}'s yearly {item} come to{scale}?",
    "Across the individual years {y2}, {y0} and {y1}, what was {co}'s average {item}{scale}?",
    "For an MBA valuation exercise, average {co}'s {item} across {span}{scale}.",
    "Treating {y2}, {y0} and {y1} equally, what does {co}'s {item} work out to per year on average{scale}?",
]

AVG3_RATIO_TEMPLATES["novel"] = [
    "L:{co} avg {metric}/sales % {y2}-{y1}, avg of the 3 yrly ratios{fmt}",
    "I'm comparing {metric} intensity across names; for {co}, take {metric} as % of revs in each of {y2}, {y0}, {y1} and average the three{fmt}.",
    "{co}: mean of annual {metric}-to-revenue %, {span} (avg of yearly ratios, not pooled){fmt}?",
    "What's {co}'s 3-yr avg {metric} % of revs ({y2}-{y1}), averaging each yr's %{fmt}?",
]

AVG3_RATIO_TEMPLATES["vault"] = [
    "For each of {y2}, {y0} and {y1}, express {co}'s {metric} as a percentage of revenue, then take the plain arithmetic mean of the three{fmt}.",
    "I'm comparing spending patterns across large caps; what was {co}'s average ratio of {metric} to revenue (as a percentage) over {span}, averaging the annual ratios{fmt}?",
    "Average {co}'s yearly {metric} relative to revenue (in %) across {span}, giving each year's ratio equal weight{fmt}.",
    "How much of its revenue, on average, did {co} spend on {metric} over {span}? Use the mean of the three yearly percentages{fmt}.",
]

METRIC_TEMPLATES["novel"] = {
    "plain": [
        "L:{co} {metric} {per}{fmt} -- whats ur number",
        "I'm comparing {metric} across large caps; where was {co} {per}{fmt}?",
        "PM wants {co}'s {metric} {per} for the morning meeting{fmt} -- can you run it?",
        "L:can u calc {metric} for {co} {per}{fmt}",
        "Running a screen -- {co}'s {metric} {per}{fmt}?",
        "For my valuation class: {co}'s {metric} {per}{fmt}?",
        "Credit review of {co}: {metric} {per}{fmt}, please.",
    ],
    "defn": [
        "L:{co} {metric} {per}{fmt}; method: {defn}",
        "My method for {metric}: {defn}. Run that for {co} {per}{fmt}?",
        "{co} {per} -- {metric} [{defn}]{fmt}?",
        "Problem set Q: for {co} {per}, find {metric}{fmt}. Formula to use -- {defn}.",
        "I'm comparing {metric} across names, computed as: {defn}. What's {co}'s number {per}{fmt}?",
        "L:{metric} for {co} {per}{fmt}, computed this way: {defn}",
    ],
}

METRIC_TEMPLATES["vault"] = {
    "plain": [
        "For a feature on {co}, what was its {metric} {per}{fmt}?",
        "What {metric} did {co} achieve {per}{fmt}?",
        "At what level was {co}'s {metric} {per}{fmt}?",
        "As part of an audit analytical review, compute {co}'s {metric} {per}{fmt}.",
        "I'm studying {co} for an MBA case. What was the {metric} {per}{fmt}?",
        "Our CFO wants {co}'s {metric} {per} as a benchmark{fmt}.",
    ],
    "defn": [
        "Treating {metric} as {defn}, where did {co} land {per}{fmt}?",
        "With {metric} defined here as {defn}, compute the value for {co} {per}{fmt}.",
        "If we take {metric} to mean {defn}, how does {co} come out {per}{fmt}?",
        "For benchmarking, our finance team measures {metric} as {defn}. What does {co} show {per}{fmt}?",
        "Calculate {co}'s {metric} {per} on this basis: {defn}{fmt}.",
        "An MBA textbook gives {metric} as {defn}; work it out for {co} {per}{fmt}.",
    ],
}

# compare: {win} = "higher" / "lower" (the stated direction), {gt} = "greater than" / "less than",
# {sortdir} = "largest to smallest" / "smallest to largest"
COMPARE_TEMPLATES["novel"] = [
    "{A} vs {B} on {metric} {per} -- who wins if {win} is better?",
    "{A} vs {B} on {metric} {per}: which one's {adj}?",
    "{A} or {B} -- {adj} {metric} {per}?",
    "I'm pairing {A} against {B} in a long/short; {per}, which has the {adj} {metric}?",
    "Quick peer check for the IC memo -- {A} and {B}, who screens {win} on {metric} {per}?",
    "{A} vs {B} on {item} {per} -- who wins if {win} is better?",
    "{A} vs {B} on {item} {per}: which one's {adj}?",
    "{A} or {B} -- who's got {more} {item} {per}?",
    "I'm pairing {A} against {B} in a long/short; who had {more} {item} {per}?",
    "Quick peer check for the IC memo -- {A} and {B}, which shows {more} {item} {per}?",
]

COMPARE_TEMPLATES["vault"] = [
    "Is {A}'s {metric} {gt} {B}'s {per}?",
    "Sort {A} and {B} by {metric} {per}, {sortdir}. Which one sits at the top of the list?",
    "For an article contrasting {A} and {B}: which had the {adj} {metric} {per}?",
    "Out of {A} and {B}, whose {metric} {per} was the {adj} one?",
    "Credit committee asks: {per}, which borrower -- {A} or {B} -- had the {adj} {metric}?",
    "Is the figure {A} reported for {item} {gt} {B}'s {per}?",
    "Out of {A} and {B}, which reported {more} {item} {per}?",
    "Sort {A} and {B} by {item} {per}, {sortdir}. Which one sits at the top of the list?",
    "For an article contrasting {A} and {B}: who had {more} {item} {per}?",
    "MBA case comparison -- {per}, which of {A} or {B} shows the {adj} {item}?",
]


# ---------------------------------------------------------------------------------------
# Eighth wording set ("ledger")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the seven earlier sets and avoiding their
# distinctive phrases. A mix of the people who type questions about 10-Ks: sell-side modellers
# ("FY2024A", "X item growth FY2024/FY2023?", "avg(FY2023 balance, FY2024 balance)", "Populating a
# comps table: ...", "Model roll-forward: ...", "For the lender deck: ..."), buy-side PMs and
# analysts ("Relative-value question: A versus B ...", "For the PM's one-pager: ..."), credit
# analysts ("Credit analyst here -- ...", "Lender's view of X: ..."), students ("CFA L1 practice --
# ...", "Student here: ...", "Homework: given that ... is ..., find ...") and polite e-mail
# writers ("Good morning. Would you mind finding ...? Many thanks.", "Hoping you can help: ...").
# Periods as "for FY2024A", "in the 12 months to 28/09/2024" (day after the 12th only),
# "for the year ending Sep-24" (year-end on or after the 20th), "over fiscal 2024 (year-end
# September 28)", "for the 2024 calendar year" (calendar filers), "in the latest 10-K year
# (FY2024)", "for FY2023, i.e. the year before the latest 10-K", "at Sep-24", "at the 28/09/2024
# year-end", "on the FY2024A balance sheet", "at the end of fiscal 2024 (September 28)";
# definitions with the precedence spelled in different ways ("100 × A / B", "100 times A, divided
# by B", "A / avg(opening X, closing X)", "[A – B] ÷ C", "A less B, with the result divided by C");
# compare as "Comp table question -- ..., does A or B have the higher/lower ...?", "Put A next to
# B on ...: whose number is higher/lower?", "Just need a name: ...", "Who comes in higher/lower
# on ..., B or A?" (direction drawn at random). Template flags as for novel / vault (F:, I:, X:, L:).

def date_dmyslash(d):
    """28/09/2024 (UK numeric), only when the day cannot be read as a month (day > 12; else None)"""
    return f"{d.day:02d}/{d.month:02d}/{d.year}" if d.day > 12 else None


def mon_yy(d):
    """Sep-24 (model-column style), only when the year-end falls late in its month (else None)"""
    return f"{MON3[d.month - 1]}-{yy(d.year)}" if d.day >= 20 else None


def month_day(d, fy=None):
    """September 28 (with the year when it is not the fiscal year's number: January 1, 2023 for fiscal 2022)"""
    return f"{MONTHS[d.month - 1]} {d.day}" + (f", {d.year}" if fy is not None and d.year != fy else "")


def dur_phrases_ledger(co, fy):
    end = co.end_date(fy)
    out = [f"for FY{fy}A", f"over fiscal {fy} (year-end {month_day(end, fy)})"]
    if date_dmyslash(end):
        out += [f"in the 12 months to {date_dmyslash(end)}"]
    if mon_yy(end):
        out += [f"for the year ending {mon_yy(end)}"]
    if co.calendar:
        out += [f"for the {fy} calendar year"]
    if fy == co.fy:
        out += [f"in the latest 10-K year (FY{fy})"]
    if fy == co.fy - 1:
        out += [f"for FY{fy}, i.e. the year before the latest 10-K"]
    return out


def inst_phrases_ledger(co, fy):
    end = co.end_date(fy)
    out = [f"on the FY{fy}A balance sheet", f"at the end of fiscal {fy} ({month_day(end, fy)})"]
    if mon_yy(end):
        out += [f"at {mon_yy(end)}"]
    if date_dmyslash(end):
        out += [f"at the {date_dmyslash(end)} year-end"]
    if fy == co.fy:
        out += [f"at the latest 10-K year-end (FY{fy})"]
    if fy == co.fy - 1:
        out += [f"at the close of the prior year (FY{fy})"]
    return out


def yr_forms_ledger(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for ledger."""
    y0, y1 = fy - 1, fy
    e0, e1 = co.end_date(y0), co.end_date(y1)
    if instant:
        style = rng.choice(["mon", "slash", "bs"])
        if style == "mon" and not (mon_yy(e0) and mon_yy(e1)):
            style = "bs"
        if style == "slash" and not (date_dmyslash(e0) and date_dmyslash(e1)):
            style = "bs"
        f = {"mon": lambda y: mon_yy(co.end_date(y)), "slash": lambda y: f"the {date_dmyslash(co.end_date(y))} year-end",
             "bs": lambda y: f"the FY{y}A balance sheet date"}[style]
    else:
        style = rng.choice(["act", "twelve", "ending", "fiscal"])
        if style == "twelve" and not (date_dmyslash(e0) and date_dmyslash(e1)):
            style = "act"
        if style == "ending" and not (mon_yy(e0) and mon_yy(e1)):
            style = "fiscal"
        f = {"act": lambda y: f"FY{y}A", "twelve": lambda y: f"the 12 months to {date_dmyslash(co.end_date(y))}",
             "ending": lambda y: f"the year ending {mon_yy(co.end_date(y))}", "fiscal": lambda y: f"fiscal {y}"}[style]
    return f(y0), f(y1), f"FY{y0}", f"FY{y1}"


def span_ledger(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    opts = [f"FY{fy - 2}A-FY{fy}A", f"its last three fiscal years ({fy - 2}, {fy - 1} and {fy})"]
    if mon_yy(co.end_date(fy)):
        opts.append(f"the three years to {mon_yy(co.end_date(fy))}")
    return rng.choice(opts)


ITEM_LABELS_LEDGER = {
    "revenue": ["total net revenue", "total sales and revenue"],
    "cogs": ["total cost of revenue", "cost-of-sales line"],
    "gross_profit": ["gross margin in dollars", "gross profit (revenue less cost of sales)"],
    "operating_income": ["reported operating income", "operating income/(loss)"],
    "net_income": ["net earnings attributable to the company", "net income after NCI"],
    "eps_diluted": ["diluted EPS (GAAP)", "GAAP diluted EPS"],
    "total_assets": ["total assets reported", "total assets line"],
    "total_liabilities": ["total liabilities line", "total liabilities (current + non-current)"],
    "current_assets": ["total current assets (TCA)", "current assets subtotal"],
    "current_liabilities": ["total current liabilities (TCL)", "current liabilities subtotal"],
    "inventory": ["inventory (net of reserves)", "inventories as carried"],
    "cash": ["cash and cash equivalents line", "cash balance (cash & equivalents)"],
    "lt_debt": ["long-term debt net of the current portion", "long-term debt (ex. current maturities)"],
    "equity": ["shareholders' equity line", "total stockholders' equity figure"],
    "total_equity_incl_nci": ["total equity (with NCI)", "equity of parent and noncontrolling holders combined"],
    "cfo": ["cash flow from operating activities", "net cash provided by operations"],
    "cfi": ["net cash from (used in) investing activities", "total cash from investing activities"],
    "cff": ["net cash from (used in) financing activities", "total cash from financing activities"],
    "capex": ["capex (additions to PP&E)", "gross capex"],
    "dna": ["D&A in total", "non-cash D&A"],
    "rnd": ["R&D line", "research & development outlays"],
    "sga": ["SG&A line", "selling, general & admin"],
    "interest_expense": ["interest expense line", "interest charges (expense)"],
    "income_tax": ["income tax line", "income tax expense (provision)"],
    "dividends": ["dividends paid (cash flow statement)", "cash dividends"],
    "buybacks": ["buyback spend", "stock repurchased (cash)"],
    "receivables": ["receivables (net)", "A/R after allowances"],
    "ppe": ["net PP&E balance", "property & equipment (net)"],
}

AVG3_RATIO_LEDGER = {"capex": ["capex", "gross capex"], "rnd": ["R&D", "R&D outlays"],
                     "sga": ["SG&A", "SG&A spend"]}

# key: (names, definitions)
METRICS_LEDGER = {
    "gross_margin": (["GP/sales", "gross margin in percent"],
                     ["100 × gross profit / revenue", "revenue minus cost of sales, divided by revenue, shown as a percentage"]),
    "operating_margin": (["op. margin", "operating margin in percent"],
                         ["100 × operating income / revenue", "100 times operating income, divided by revenue"]),
    "net_margin": (["NI/sales", "net margin in percent"],
                   ["100 × net income attributable to the company / revenue",
                    "100 times attributable net income, divided by revenue"]),
    "roa": (["ROA on an average-assets basis", "ROA using average total assets"],
            ["100 × net income / avg(opening total assets, closing total assets)",
             "net income divided by the average of last year's and this year's closing total assets, as a %"]),
    "roe": (["ROE on an average-equity basis", "ROE using average shareholders' equity"],
            ["100 × net income / avg(opening shareholders' equity, closing shareholders' equity)",
             "net income divided by the average of last year's and this year's closing shareholders' equity, as a %"]),
    "asset_turnover": (["sales / avg. assets", "total asset turnover on average balances"],
                       ["revenue / avg(opening total assets, closing total assets)",
                        "revenue divided by the average of last year's and this year's closing total assets"]),
    "fixed_asset_turnover": (["sales / avg. net PP&E", "PP&E turnover on average balances"],
                             ["revenue / avg(opening net PP&E, closing net PP&E)",
                              "revenue divided by the average of last year's and this year's closing net PP&E"]),
    "inventory_turnover": (["COGS / avg. inventory", "inventory turnover on average balances"],
                           ["cost of sales / avg(opening inventory, closing inventory)",
                            "cost of sales divided by the average of last year's and this year's closing inventory"]),
    "dso_avg": (["DSO on an average-receivables basis", "average collection days"],
                ["365 × avg(opening receivables, closing receivables) / revenue",
                 "receivables averaged over the opening and closing balance sheets, divided by revenue, times 365"]),
    "dso_end": (["DSO on a year-end receivables basis", "days of revenue in closing A/R"],
                ["365 × closing receivables / revenue", "closing receivables times 365, divided by revenue"]),
    "quick_ratio": (["quick ratio (CA less inventory basis)", "acid-test (quick) ratio"],
                    ["current assets less inventories, with the result divided by current liabilities",
                     "[current assets – inventories] ÷ current liabilities"]),
    "current_ratio": (["current ratio (CA/CL)", "current liquidity multiple"],
                      ["TCA / TCL", "dollars of current assets per dollar of current liabilities"]),
    "interest_coverage": (["interest coverage (EBIT/interest)", "TIE ratio"],
                          ["operating income / interest expense, as a multiple",
                           "the number of times operating income covers interest expense"]),
    "payout": (["dividend payout in percent", "payout ratio (cash dividends/NI)"],
               ["100 × dividends paid / net income", "cash dividends paid, divided by net income, times 100"]),
    "ebitda": (["EBITDA (op. income + D&A)", "GAAP-based EBITDA"],
               ["D&A plus operating income", "operating income after adding back D&A"]),
    "ebitda_margin": (["EBITDA/sales", "EBITDA margin in percent"],
                      ["100 × (operating income + D&A) / revenue",
                       "operating income plus D&A, that sum divided by revenue, times 100"]),
    "ebitda_less_capex": (["EBITDA-less-capex", "EBITDA after capex deduction"],
                          ["(operating income + D&A) − purchases of PP&E",
                           "capex subtracted from the sum of operating income and D&A"]),
    "working_capital": (["net working capital (CA − CL)", "dollar working capital"],
                        ["TCA − TCL", "current assets after subtracting current liabilities"]),
    "cash_conversion": (["cash conversion (CFO ÷ NI)", "OCF conversion of net income"],
                        ["net cash from operations ÷ net income", "CFO over NI"]),
    "ocf_ratio": (["operating cash flow ratio (CFO ÷ CL)", "CFO coverage of current liabilities"],
                  ["CFO ÷ closing current liabilities", "operating cash flow divided by year-end current liabilities"]),
    "rnd_pct": (["R&D/revenue in percent", "R&D as a share of sales"],
                ["100 × R&D expense / revenue", "R&D expense, divided by revenue, times 100"]),
    "sga_pct": (["SG&A/revenue in percent", "SG&A as a share of sales"],
                ["100 × SG&A / revenue", "SG&A expense, divided by revenue, times 100"]),
    "capex_pct": (["capex/revenue in percent", "capex as a share of sales"],
                  ["100 × purchases of PP&E / revenue", "capex, divided by revenue, times 100"]),
    "fcf": (["FCF (CFO − capex)", "FCF on a CFO-minus-capex basis"],
            ["CFO − purchases of PP&E", "operating cash flow with capex subtracted"]),
    "debt_to_equity": (["long-term debt to equity (x)", "LTD-to-equity"],
                       ["non-current long-term debt ÷ total shareholders' equity",
                        "long-term debt (excluding the current portion) divided by shareholders' equity"]),
    "etr": (["effective tax rate in percent", "ETR on pretax income"],
            ["100 × income tax expense / pretax income", "the income tax provision, divided by income before taxes, times 100"]),
}

ITEM_TEMPLATES["ledger"] = [
    "Populating a comps table: {co}, {item}, {per}{scale}.",
    "Hoping you can help: I'm after {co}'s {item} {per}{scale}.",
    "Just confirming a number in my notes. {co}'s {item} {per} -- how much was it{scale}?",
    "{co} 10-K, {item} {per}{scale} = ?",
    "I:Where did {co}'s {item} close {per}{scale}?",
    "X:Looking for the {item} in {co}'s income statement {per}{scale}.",
    "CFA L1 practice -- using {co}'s annual report, find the {item} {per}{scale}.",
    "L:quick q: {co}'s {item} {per}{scale}?",
    "Good morning. Would you mind finding {co}'s {item} {per}{scale}? Many thanks.",
    "For the lender deck: {co} {item} {per}{scale}.",
    "Portfolio review prep: how much was {co}'s {item} {per}{scale}?",
    "I:Balance check -- {co}'s {item} {per}{scale}?",
]

CHANGE_ABS_TEMPLATES["ledger"] = [
    "{co} {item}: {y1} vs {y0}, absolute change{scale}?",
    "F:By how much was {co}'s {item} up or down in {p1} versus {p0}{scale}? A negative answer is fine if it fell.",
    "I:{co}'s {item} went from its level at {p0} to its level at {p1} -- what was the increase or decrease{scale}?",
    "Model roll-forward: {co}'s {item}, {y0} to {y1} -- delta{scale}?",
    "F:Student here: how much more (or less) {item} did {co} have in {p1} than in {p0}{scale}?",
    "I:Change in {co}'s {item} over the year from {p0} to {p1}{scale}? Negative if it fell.",
    "PM question: did {co} grow its {item} from {p0} to {p1}? Give me the change{scale}.",
    "I:Roll-forward check for {co}: {item} at {p0} vs {p1}, difference{scale}?",
]

CHANGE_PCT_TEMPLATES["ledger"] = [
    "{co} {item} growth {y1}/{y0}{fmt}?",
    "F:What was {co}'s {item} growth rate in {p1} versus {p0}{fmt}? Negative if it declined.",
    "Please could you give me the % change in {co}'s {item} from {p0} to {p1}{fmt}?",
    "I:Balance-sheet growth check -- how much did {co}'s {item} expand or contract, in %, from {p0} to {p1}{fmt}?",
    "F:For my earnings preview: how much did {co}'s {item} grow year on year in {p1} (vs. {p0}), in percent{fmt}?",
    "Credit analyst here -- percent change in {co}'s {item} between {p0} and {p1}{fmt}?",
    "What % higher or lower was {co}'s {item} in {y1} than in {y0}{fmt}?",
]

AVG_BAL_TEMPLATES["ledger"] = [
    "{co} -- average {item} = avg({y0} balance, {y1} balance){scale}?",
    "Could you average {co}'s {item} at the two most recent year-ends ({y0} and {y1}){scale}?",
    "For ROE/ROA-style work I average the opening and closing balances. Doing that for {co}'s {item} over {p1}, what do you get{scale}?",
    "What's halfway between {co}'s {y0} and {y1} year-end {item}{scale}?",
    "Average-balance question: {co}'s {item}, mean of the {y0} and {y1} closing figures{scale}?",
]

AVG3_TEMPLATES["ledger"] = [
    "{co}: average {item} for {span}, straight average of the three years{scale}.",
    "Rather than one year, I want {co}'s average annual {item} across {span}{scale}.",
    "Lumpy numbers, so I'd rather use a three-year average: {co}'s {item} over {span}{scale}?",
    "Homework question: find the average annual {item} of {co} for {span}{scale}.",
    "3-year avg of {co}'s {item} ({y2}, {y0}, {y1}){scale}?",
]

AVG3_RATIO_TEMPLATES["ledger"] = [
    "Work out {co}'s {metric}/revenue ratio for each year in {span} and give me the simple average of the three{fmt}.",
    "What's {co}'s average {metric} intensity over {span}? I mean the average of the three annual {metric}-to-revenue percentages, not total over total{fmt}.",
    "Three annual ratios, one average: {co}'s {metric} divided by revenue for {y2}, {y0} and {y1}, averaged{fmt}?",
    "Buy-side screen: {co}, {metric} % of sales, mean of the annual values for {span}{fmt}?",
]

METRIC_TEMPLATES["ledger"] = {
    "plain": [
        "{co}, {metric}, {per}{fmt} -- thanks!",
        "I'm trying to figure out {co}'s {metric} {per}{fmt}. Any help appreciated.",
        "For the PM's one-pager: {co} {metric} {per}{fmt}.",
        "How did {co}'s {metric} shake out {per}{fmt}?",
        "Lender's view of {co}: {metric} {per}{fmt}?",
        "Student question -- what is {co}'s {metric} {per}{fmt}?",
        "Compute {co}'s {metric} {per} from the 10-K figures{fmt}.",
    ],
    "defn": [
        "{co} {per}: what's the {metric}{fmt}? Calculate it as {defn}.",
        "Definition first: {metric} = {defn}. Now apply it to {co} {per}{fmt}.",
        "Using my formula ({defn}), what is {co}'s {metric} {per}{fmt}?",
        "What was {co}'s {metric} {per}{fmt}? Please use {defn}.",
        "Our model's {metric} line is {defn}. Fill it in for {co} {per}{fmt}.",
        "Homework: given that {metric} is {defn}, find {co}'s value {per}{fmt}.",
    ],
}

COMPARE_TEMPLATES["ledger"] = [
    "Comp table question -- {per}, does {A} or {B} have the {adj} {metric}?",
    "Relative-value question: {A} versus {B}, {per} -- which name had the {adj} {metric}?",
    "I'm writing a compare-and-contrast on {A} and {B} for class. {Per}, which had the {adj} {metric}?",
    "Who comes in {adj} on {metric} {per}, {B} or {A}?",
    "Put {A} next to {B} on {metric} {per}: whose number is {adj}?",
    "Just need a name: {adj} {metric} {per}, {A} or {B}?",
    "Comp table question -- {per}, does {A} or {B} have {more} {item}?",
    "Relative-value question: {A} versus {B}, {per} -- which name had {more} {item}?",
    "Screening {B} against {A}: which one shows the {adj} {item} {per}?",
    "Put {A} next to {B} on {item} {per}: whose number is {adj}?",
    "Just need a name: {adj} {item} {per}, {A} or {B}?",
    "For class, I'm contrasting {A} with {B}. Which one had {more} {item} {per}?",
]


def compare_period_ledger(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"on their FY{a.fy}A balance sheets", f"at their fiscal {a.fy} year-ends"]
            if dec31:
                opts.append(f"at {mon_yy(a.F.fy_end)}")
        else:
            opts = [f"for FY{a.fy}A", f"in each company's fiscal {a.fy}"]
            if dec31:
                opts.append(f"for the year ending {mon_yy(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        opts = [f"at each one's latest year-end ({na} FY{a.fy}A, {nb} FY{b.fy}A)"]
        if mon_yy(a.F.fy_end) and mon_yy(b.F.fy_end):
            opts.append(f"on their latest balance sheets ({na} at {mon_yy(a.F.fy_end)}, {nb} at {mon_yy(b.F.fy_end)})")
        return rng.choice(opts)
    opts = [f"using the latest 10-K for each ({na}: FY{a.fy}A, {nb}: FY{b.fy}A)"]
    if date_dmyslash(a.F.fy_end) and date_dmyslash(b.F.fy_end):
        opts.append(f"for the 12 months to {date_dmyslash(a.F.fy_end)} ({na}) and {date_dmyslash(b.F.fy_end)} ({nb})")
    return rng.choice(opts)


# ---------------------------------------------------------------------------------------
# Ninth wording set ("atlas")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the eight earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. A broad mix of people (equity and credit
# analysts, PMs, auditors, journalists, students, IR staff, non-native English writers), terse and
# full-sentence, some multi-sentence; dates only in forms that cannot be misread (ISO always;
# numeric day/month forms only when the day is after the 12th). Template flags as for novel /
# vault / ledger (F:, I:, X:, L:). Not to be printed or quoted where the engine's builders read.

def date_dot(d):
    """European dotted day.month.year, only when the day cannot be read as a month (day > 12; else None)"""
    return f"{d.day:02d}.{d.month:02d}.{d.year}" if d.day > 12 else None


def date_uspad(d):
    """US zero-padded month/day/year, only when the day cannot be read as a month (day > 12; else None)"""
    return f"{d.month:02d}/{d.day:02d}/{d.year}" if d.day > 12 else None


def date_ye(d):
    """day, short month, two-digit year (e.g. for a 'y/e' note)"""
    return f"{d.day} {MON3[d.month - 1]} {yy(d.year)}"


def start_date(co, fy):
    p = co.period("D", fy)
    return p[1] if p else None


def dur_phrases_atlas(co, fy):
    end = co.end_date(fy)
    start = start_date(co, fy)
    out = [f"in F{fy}", f"in FY{fy} (y/e {date_ye(end)})"]
    if start:
        out += [f"for the period {date_iso(start)} to {date_iso(end)}"]
    if date_dot(end):
        out += [f"for the financial year closed {date_dot(end)}"]
    if date_uspad(end):
        out += [f"in the year through {date_uspad(end)}"]
    if start and start.month == 1 and start.day == 1 and end.month == 12 and end.day == 31 and start.year == end.year == fy:
        out += [f"over Jan–Dec {fy}"]
    if fy == co.fy:
        out += ["in the last reported year", f"in this past fiscal year ({fy})"]
    if fy == co.fy - 1:
        out += [f"in FY {fy}, one year before the last reported year", f"in the prior-year period (F{fy})"]
    return out


def inst_phrases_atlas(co, fy):
    end = co.end_date(fy)
    out = [f"as of {date_iso(end)}", f"at FY{fy} y/e", f"on the last day of fiscal {fy}"]
    if date_dot(end):
        out += [f"at closing date {date_dot(end)}"]
    if date_uspad(end):
        out += [f"at {date_uspad(end)}"]
    if fy == co.fy:
        out += ["at the last reported year-end", f"as of the last reported closing date ({date_iso(end)})"]
    if fy == co.fy - 1:
        out += [f"at the previous y/e (FY{fy})", f"at the year-end before the latest one ({date_iso(end)})"]
    return out


def yr_forms_atlas(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for atlas."""
    y0, y1 = fy - 1, fy
    e0, e1 = co.end_date(y0), co.end_date(y1)
    if instant:
        style = rng.choice(["iso", "dot", "ye", "us"])
        if style == "dot" and not (date_dot(e0) and date_dot(e1)):
            style = "iso"
        if style == "us" and not (date_uspad(e0) and date_uspad(e1)):
            style = "ye"
        f = {"iso": lambda y: date_iso(co.end_date(y)), "dot": lambda y: date_dot(co.end_date(y)),
             "ye": lambda y: f"FY{y} y/e", "us": lambda y: date_uspad(co.end_date(y))}[style]
    else:
        style = rng.choice(["f", "ye", "closed", "fy"])
        if style == "closed" and not (date_dot(e0) and date_dot(e1)):
            style = "fy"
        f = {"f": lambda y: f"F{y}", "ye": lambda y: f"FY{y} (y/e {date_ye(co.end_date(y))})",
             "closed": lambda y: f"the financial year closed {date_dot(co.end_date(y))}", "fy": lambda y: f"FY {y}"}[style]
    return f(y0), f(y1), f"FY {y0}", f"FY {y1}"


def span_atlas(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    return rng.choice([f"F{fy - 2}–F{fy}", f"the three fiscal years {fy - 2}-{fy}",
                       f"the 3 fiscal years ended {date_iso(co.end_date(fy))}"])


ITEM_LABELS_ATLAS = {
    "revenue": ["sales revenue", "revenue (all segments combined)"],
    "cogs": ["COS (cost of sales)", "total cost of goods sold"],
    "gross_profit": ["gross profit figure", "total gross profit"],
    "operating_income": ["operating profit (EBIT line)", "total operating income"],
    "net_income": ["net profit (group share)", "net result attributable to owners of the parent"],
    "eps_diluted": ["diluted earnings/share", "EPS diluted"],
    "total_assets": ["total assets figure", "total assets (consolidated balance sheet)"],
    "total_liabilities": ["total liabilities figure", "combined liabilities (total)"],
    "current_assets": ["total current assets figure", "sum total of current assets"],
    "current_liabilities": ["total short-term liabilities", "total current liabilities figure"],
    "inventory": ["inventory level", "inventories carried (net)"],
    "cash": ["cash + cash equivalents", "cash/cash equivalents"],
    "lt_debt": ["long-term debt outside current maturities", "LT debt excluding the short-term portion"],
    "equity": ["stockholders' equity figure", "equity of the stockholders"],
    "total_equity_incl_nci": ["total equity (NCI included)", "equity including non-controlling stakes"],
    "cfo": ["net operating cash flow", "cash from operating activities (net)"],
    "cfi": ["investing cash flow total", "net cash flow of investing activities"],
    "cff": ["financing cash flow total", "net cash flow of financing activities"],
    "capex": ["capital expenditure (cash basis)", "investment in PP&E (capex)"],
    "dna": ["depreciation/amortization", "D and A charges"],
    "rnd": ["research expenses (R&D)", "R and D expense"],
    "sga": ["overall SG&A", "selling & administrative expenses (SG&A)"],
    "interest_expense": ["interest expense (P&L)", "interest expenses"],
    "income_tax": ["income taxes (total)", "taxes on profit"],
    "dividends": ["dividends distributed (cash)", "dividend cash payments"],
    "buybacks": ["treasury stock purchases (cash)", "money spent on buybacks"],
    "receivables": ["customer receivables (net)", "net trade accounts receivable"],
    "ppe": ["tangible fixed assets (net PP&E)", "property and equipment (net)"],
}

AVG3_RATIO_ATLAS = {"capex": ["investment in PP&E", "capital expenditures (PP&E)"],
                    "rnd": ["R and D", "research expenses"],
                    "sga": ["selling and admin expenses (SG&A)", "overall SG&A"]}

# key: (names, definitions)
METRICS_ATLAS = {
    "gross_margin": (["gross profit as % of sales", "gross margin on sales"],
                     ["GP / revenue × 100", "numerator: gross profit; denominator: revenue; result in %"]),
    "operating_margin": (["operating income as % of sales", "EBIT margin"],
                         ["(operating income/revenue)*100", "the share of revenue left over as operating income, in percent"]),
    "net_margin": (["net profit as % of sales", "net margin on sales"],
                   ["NI attributable to the company / revenue, in %",
                    "numerator: net income attributable to the company; denominator: total revenue; times 100"]),
    "roa": (["return on total assets (mean balance)", "ROA computed on averaged total assets"],
            ["NI / [(TA_start + TA_end) / 2] × 100",
             "step 1: average total assets at the start and at the end of the year; step 2: divide net income by that average; step 3: multiply by 100"]),
    "roe": (["return on shareholders' equity (mean balance)", "ROE computed on averaged equity"],
            ["NI / [(equity_start + equity_end) / 2] × 100",
             "step 1: average shareholders' equity at the start and at the end of the year; step 2: divide net income by it; step 3: multiply by 100"]),
    "asset_turnover": (["sales-to-assets (avg.)", "turnover of total assets"],
                       ["revenue / [(TA_start + TA_end) / 2]",
                        "numerator: revenue; denominator: mean of start-of-year and end-of-year total assets"]),
    "fixed_asset_turnover": (["sales-to-net-PP&E (avg.)", "turnover of fixed assets"],
                             ["revenue / [(PP&E_start + PP&E_end) / 2], PP&E taken net",
                              "numerator: revenue; denominator: mean of start-of-year and end-of-year net PP&E"]),
    "inventory_turnover": (["COGS-to-inventory (avg.)", "turnover of inventories"],
                           ["COGS / [(inventory_start + inventory_end) / 2]",
                            "numerator: cost of sales; denominator: mean of start-of-year and end-of-year inventory"]),
    "dso_avg": (["days sales outstanding (mean A/R)", "DSO with averaged receivables"],
                ["[(A/R_start + A/R_end) / 2] / revenue * 365",
                 "365 days times the ratio of average receivables (start and end of year) to revenue"]),
    "dso_end": (["days sales outstanding (closing A/R)", "DSO with year-end receivables"],
                ["A/R_end / revenue * 365", "365 days times the ratio of year-end receivables to revenue"]),
    "quick_ratio": (["acid-test ratio (excl. inventories)", "quick ratio w/o inventories"],
                    ["(CA − inventories) / CL",
                     "numerator: current assets minus inventories; denominator: current liabilities"]),
    "current_ratio": (["CA-to-CL ratio", "current assets/current liabilities ratio"],
                      ["CA / CL", "the quotient of current assets and current liabilities"]),
    "interest_coverage": (["interest cover ratio (EBIT basis)", "EBIT-based coverage of interest"],
                          ["EBIT (taken as operating income) / interest expense",
                           "how many times interest expense fits into operating income"]),
    "payout": (["dividends/earnings payout", "payout of earnings (cash dividends)"],
               ["(dividends paid / net income)*100",
                "numerator: cash dividends paid; denominator: net income; result in %"]),
    "ebitda": (["EBITDA figure", "EBITDA amount"],
               ["operating income + depreciation & amortization", "D&A + EBIT, with EBIT taken as operating income"]),
    "ebitda_margin": (["EBITDA/revenue ratio", "EBITDA margin on sales"],
                      ["((operating income + D&A) / revenue)*100",
                       "step 1: operating income plus D&A; step 2: divide by revenue; step 3: multiply by 100"]),
    "ebitda_less_capex": (["EBITDA after deducting capex", "EBITDA minus investment in PP&E"],
                          ["operating income + D&A − capital expenditure (purchases of PP&E)",
                           "step 1: EBITDA as operating income + D&A; step 2: subtract capex"]),
    "working_capital": (["WC (CA − CL)", "net working capital figure"],
                        ["CA − CL", "current assets minus current liabilities (can come out negative)"]),
    "cash_conversion": (["CFO/net income ratio", "conversion of net income into operating cash"],
                        ["CFO ÷ NI", "the quotient of operating cash flow and net income"]),
    "ocf_ratio": (["cash flow to current liabilities", "OCF coverage of short-term liabilities"],
                  ["CFO / CL (year-end)", "numerator: operating cash flow; denominator: current liabilities at year end"]),
    "rnd_pct": (["R&D intensity ratio", "R&D spend in % of sales"],
                ["(R&D expense / revenue)*100", "the share of revenue spent on R&D, in percent"]),
    "sga_pct": (["SG&A to revenue ratio", "SG&A in % of sales"],
                ["(SG&A / revenue)*100", "the share of revenue absorbed by SG&A, in percent"]),
    "capex_pct": (["capital expenditure to revenue ratio", "capex in % of sales"],
                  ["(capex / revenue)*100", "the share of revenue spent on capital expenditure (purchases of PP&E), in percent"]),
    "fcf": (["free cash flow (OCF − capex)", "FCF figure"],
            ["CFO − capex", "cash from operating activities minus purchases of PP&E"]),
    "debt_to_equity": (["long-term leverage (LT debt ÷ equity)", "ratio of LT debt to equity"],
                       ["LT debt (non-current) / shareholders' equity",
                        "the quotient of long-term debt excluding current maturities and total shareholders' equity"]),
    "etr": (["GAAP effective tax rate", "effective tax burden (%)"],
            ["(income tax expense / pre-tax income)*100",
             "numerator: provision for income taxes; denominator: income before income taxes; in %"]),
}

ITEM_TEMPLATES["atlas"] = [
    "{co} | {item} | {per}{scale}",
    "Please, what is the {item} of {co} {per}{scale}?",
    "Reported {item} for {co} {per}{scale}?",
    "I work in investor relations at {co} and need to double-check our {item} {per}{scale}. What does the 10-K say?",
    "I:Audit tie-out for {co}: {item} {per}{scale}?",
    "X:Income statement check for {co} -- {item} {per}{scale}?",
    "Journalist on deadline -- need {co}'s {item} {per}{scale}. Can you confirm the figure?",
    "I'm a student and I can't find {co}'s {item} {per} in the 10-K. What is the number{scale}?",
    "L:{item} for {co} {per}{scale}?",
    "PM ask -- {co} {item} {per}{scale}, asap.",
    "Could you check the {item} {co} reported {per}{scale}? I have two different numbers in my notes.",
    "I:{co}'s balance sheet {per}: {item}{scale}?",
]

CHANGE_ABS_TEMPLATES["atlas"] = [
    "Δ {item} at {co}, {y0} → {y1}{scale}?",
    "F:How much did {co}'s {item} change in {p1} compared to the year before{scale}?",
    "F:{co}'s {item} in the last reported year minus the year before that{scale}?",
    "I:{co}'s {item} at the last reported year-end minus the year-end before that{scale}?",
    "Hi! I am preparing a presentation about {co}. Can you tell me how much its {item} increased or decreased from {p0} to {p1}{scale}?",
    "Variance analysis for the audit file: {co} {item}, {p1} vs {p0}, difference{scale}? Positive for an increase.",
    "I:{co}'s {item} went from one level at {p0} to another at {p1}. I only need the difference{scale}.",
    "F:For a news brief: {co}'s {item} rose or fell by how much in {p1} versus {p0}{scale}?",
]

CHANGE_PCT_TEMPLATES["atlas"] = [
    "{co} {item} growth, % ({y0}→{y1}){fmt}?",
    "F:By what percent did {co}'s {item} in {p1} differ from the year before{fmt}?",
    "F:How much did {co}'s {item} grow in the last reported year compared to the year before that, in %{fmt}?",
    "Growth rate = ({y1} − {y0}) / {y0}. Apply it to {co}'s {item}{fmt}.",
    "I:Percent change in {co}'s {item} from {p0} to {p1}{fmt}? Put a minus sign if it went down.",
    "An investor asked us on a call how much {co}'s {item} grew from {y0} to {y1}. What is that in percent{fmt}?",
    "Please, what is the percentage variation of {co}'s {item} between {p0} and {p1}{fmt}?",
]

AVG_BAL_TEMPLATES["atlas"] = [
    "({item} end {y0} + {item} end {y1}) ÷ 2 for {co}{scale}?",
    "I need an average-balance denominator: {co}'s {item}, average of the {y0} and {y1} year-end values{scale}.",
    "Please, the average {item} of {co} in {p1}, using start- and end-of-year balances{scale}?",
    "Auditor expectation: average {item} for {co} across {p1}, i.e. beginning balance and ending balance averaged{scale}?",
    "For {co}, average together the {item} reported at the end of {y0} and at the end of {y1}{scale}.",
]

AVG3_TEMPLATES["atlas"] = [
    "3y average {item} for {co} ({span}){scale}?",
    "Can you average {co}'s {item} over {span}? Just the arithmetic mean of the three years{scale}.",
    "{co} {item}: {y2} / {y0} / {y1} -- mean{scale}?",
    "I don't trust a single year for {co}. What is its {item} averaged across {span}{scale}?",
    "Average yearly {item}, {co}, {span}{scale}.",
]

AVG3_RATIO_TEMPLATES["atlas"] = [
    "{co}: {metric}/revenue in {y2}, {y0}, {y1} → average of those three percentages{fmt}?",
    "Step 1: {metric} as % of revenue for each year of {span}. Step 2: average the three results. What do you get for {co}{fmt}?",
    "What share of revenue did {co} put into {metric}, on average, over {span}? Average the yearly shares, not total over total{fmt}.",
]

METRIC_TEMPLATES["atlas"] = {
    "plain": [
        "{co} | {metric} | {per}{fmt}",
        "Please, which is the {metric} of {co} {per}{fmt}?",
        "Working on an initiation report for {co}. What {metric} did it post {per}{fmt}?",
        "IR prep for {co}'s investor day: we want to quote our {metric} {per}{fmt}. What is it?",
        "What is {co}'s {metric} {per}{fmt}? I'm checking a number from a broker note.",
        "L:{metric} {per} for {co}{fmt}? need it for a slide",
        "Rating review for {co} -- {metric} {per}{fmt}?",
    ],
    "defn": [
        "{defn} -- that's how I define {metric}. What does it give for {co} {per}{fmt}?",
        "What was {co}'s {metric} {per}{fmt}? Definition: {defn}.",
        "{co}, {per}: {metric} ({defn}){fmt}?",
        "Calculate {metric} for {co} {per}{fmt}. • Metric: {metric} • Formula: {defn} • Source: 10-K",
        "My professor defines {metric} as {defn}. How much is it for {co} {per}{fmt}?",
        "Please calculate the {metric} of {co} {per}, using this formula: {defn}{fmt}.",
        "The rating methodology I follow computes {metric} as follows: {defn}. What is {co}'s figure {per}{fmt}?",
    ],
}

COMPARE_TEMPLATES["atlas"] = [
    "{A} / {B}, {per}: which has the {adj} {metric}?",
    "Please tell which company had {adj} {metric} {per}: {A} or {B}.",
    "For a pitch book slide comparing {A} and {B}, I need to know which one's {metric} was {adj} {per}.",
    "I work in IR at {A} and we benchmark against {B}. {Per}, which of us had the {adj} {metric}?",
    "{A} v {B}, {per} -- {adj} {metric}?",
    "Journalist question: {per}, was it {A} or {B} that reported the {adj} {metric}?",
    "{A} / {B}, {per}: which reported {more} {item}?",
    "Please tell which company had {more} {item} {per}: {A} or {B}.",
    "I work in IR at {A} and we benchmark against {B}. {Per}, which of us reported the {adj} {item}?",
    "{A} v {B}, {per} -- {adj} {item}?",
    "For a news piece: {per}, who reported {more} {item}, {B} or {A}?",
    "Student comparing annual reports: {A} or {B}, which one shows the {adj} {item} {per}?",
]


def compare_period_atlas(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"at their FY{a.fy} y/e", f"on the last day of each one's fiscal {a.fy}"]
            if dec31:
                opts.append(f"as of {date_iso(a.F.fy_end)}")
        else:
            opts = [f"in F{a.fy}", f"for FY {a.fy} (each company's own fiscal year)"]
            if dec31:
                opts.append(f"for the year to {date_iso(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        return rng.choice([f"each at its latest year-end ({na}: {date_iso(a.F.fy_end)}; {nb}: {date_iso(b.F.fy_end)})",
                           f"at their last reported balance-sheet dates ({na} FY {a.fy}, {nb} FY {b.fy})"])
    return rng.choice([f"in the last reported year of each ({na}: F{a.fy}, {nb}: F{b.fy})",
                       f"for the fiscal years ended {date_iso(a.F.fy_end)} ({na}) and {date_iso(b.F.fy_end)} ({nb})"])


# ---------------------------------------------------------------------------------------
# Tenth wording set ("zenith")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the nine earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. A broad mix of people (equity and credit
# analysts, PMs, auditors, journalists, students, IR staff, retail investors, non-native English
# writers), terse and full-sentence, some multi-sentence; dates only in forms that cannot be
# misread (numeric forms only when the day is after the 12th). Template flags as for novel / vault
# / ledger / atlas (F:, I:, X:, L:). Like vault and atlas, a held-out set: not to be printed or
# quoted where the engine's builders read.

def date_nc(d):
    """short month, day and year without commas (Sept spelled out as people type it)"""
    mon = "Sept" if d.month == 9 else MON3[d.month - 1]
    return f"{mon} {d.day} {d.year}"


def date_ymdslash(d):
    """year/month/day with slashes, only when the day cannot be read as a month (day > 12; else None)"""
    return f"{d.year}/{d.month:02d}/{d.day:02d}" if d.day > 12 else None


def date_dmydash(d):
    """day-month-year with dashes, only when the day cannot be read as a month (day > 12; else None)"""
    return f"{d.day:02d}-{d.month:02d}-{d.year}" if d.day > 12 else None


def month_span(co, fy):
    """first and last month of fiscal year fy, only when it starts early in a month and ends late in one"""
    s, e = start_date(co, fy), co.end_date(fy)
    if s is None or e is None or s.day > 7 or e.day < 20:
        return None
    return f"{MON3[s.month - 1]} {s.year} – {MON3[e.month - 1]} {e.year}"


def dur_phrases_zenith(co, fy):
    end = co.end_date(fy)
    out = [f"in business year {fy}", f"in the fiscal year ended on {date_nc(end)}"]
    if date_ymdslash(end):
        out += [f"for the accounting year ended {date_ymdslash(end)}"]
    if month_year(end):
        out += [f"for the {month_year(end)} fiscal year"]
    if month_span(co, fy):
        out += [f"in FY{fy} ({month_span(co, fy)})"]
    if fy == co.fy:
        out += [f"in the year just reported (fiscal {fy})", f"in the most recent year in the 10-K (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"in the year-ago period (fiscal {fy})", f"for fiscal {fy} (prior year)"]
    return out


def inst_phrases_zenith(co, fy):
    end = co.end_date(fy)
    out = [f"at the end of business year {fy}", f"on {date_nc(end)}", f"on the fiscal {fy} closing balance sheet"]
    if date_ymdslash(end):
        out += [f"at the reporting date {date_ymdslash(end)}"]
    if date_dmydash(end):
        out += [f"as per the balance sheet of {date_dmydash(end)}"]
    if month_year(end):
        out += [f"at the {month_year(end)} year-end"]
    if fy == co.fy:
        out += [f"on the just-reported balance sheet (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"at the year-ago balance sheet date (fiscal {fy})"]
    return out


def yr_forms_zenith(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for zenith."""
    y0, y1 = fy - 1, fy
    e0, e1 = co.end_date(y0), co.end_date(y1)
    if instant:
        style = rng.choice(["ymd", "biz", "dash", "monye"])
        if style == "ymd" and not (date_ymdslash(e0) and date_ymdslash(e1)):
            style = "biz"
        if style == "dash" and not (date_dmydash(e0) and date_dmydash(e1)):
            style = "biz"
        if style == "monye" and not (month_year(e0) and month_year(e1)):
            style = "biz"
        f = {"ymd": lambda y: date_ymdslash(co.end_date(y)), "biz": lambda y: f"the end of business year {y}",
             "dash": lambda y: date_dmydash(co.end_date(y)), "monye": lambda y: f"the {month_year(co.end_date(y))} year-end"}[style]
    else:
        style = rng.choice(["biz", "endedon", "acct", "span"])
        if style == "acct" and not (date_ymdslash(e0) and date_ymdslash(e1)):
            style = "endedon"
        if style == "span" and not (month_span(co, y0) and month_span(co, y1)):
            style = "biz"
        f = {"biz": lambda y: f"business year {y}", "endedon": lambda y: f"the fiscal year ended on {date_nc(co.end_date(y))}",
             "acct": lambda y: f"the accounting year ended {date_ymdslash(co.end_date(y))}",
             "span": lambda y: f"FY{y} ({month_span(co, y)})"}[style]
    lab = rng.choice(["fiscal year {}", "fy{}"])
    return f(y0), f(y1), lab.format(y0), lab.format(y1)


def span_zenith(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    opts = [f"the {fy - 2}–{fy} fiscal years", f"business years {fy - 2} to {fy}"]
    if date_ymdslash(co.end_date(fy)):
        opts.append(f"the three accounting years ended {date_ymdslash(co.end_date(fy))}")
    return rng.choice(opts)


ITEM_LABELS_ZENITH = {
    "revenue": ["total revenues/net sales", "sales (total revenue)"],
    "cogs": ["cost of sales/cost of revenue", "costs of products and services sold"],
    "gross_profit": ["gross profit line item", "gross result (gross profit)"],
    "operating_income": ["operating profit/loss", "op. profit (operating income)"],
    "net_income": ["net income belonging to the company's shareholders", "net income (parent-company share)"],
    "eps_diluted": ["earnings per share – diluted", "diluted EPS figure"],
    "total_assets": ["all assets combined (total assets)", "total assets amount"],
    "total_liabilities": ["all liabilities combined (total liabilities)", "total liabilities amount"],
    "current_assets": ["current assets (total)", "total current assets amount"],
    "current_liabilities": ["current liabilities (total)", "total current liabilities amount"],
    "inventory": ["inventory (net amount)", "total inventories"],
    "cash": ["cash and cash equivalents amount", "cash & cash equivalents (without short-term investments)"],
    "lt_debt": ["long-term debt excluding amounts due within one year", "noncurrent long-term debt figure"],
    "equity": ["total shareholders' equity amount", "net assets attributable to shareholders (equity)"],
    "total_equity_incl_nci": ["total equity including minority shareholders", "equity total (incl. non-controlling interests)"],
    "cfo": ["net operating cash inflow", "cash flows from operations (net)"],
    "cfi": ["cash flows from investing (net)", "net cash used in/provided by investing"],
    "cff": ["cash flows from financing (net)", "net cash used in/provided by financing"],
    "capex": ["additions to property and equipment (cash)", "capex (cash paid for fixed assets)"],
    "dna": ["depreciation and amortization amount", "D&A figure"],
    "rnd": ["money spent on R&D", "R&D expense figure"],
    "sga": ["SG&A figure", "SGA expenses"],
    "interest_expense": ["interest expense amount", "interest cost on borrowings"],
    "income_tax": ["income tax expense amount", "tax provision figure"],
    "dividends": ["dividends paid amount", "cash paid out as dividends"],
    "buybacks": ["stock buybacks (cash spent)", "share repurchase amount"],
    "receivables": ["receivables from customers (net)", "trade receivables amount"],
    "ppe": ["net PP&E amount", "property and equipment, net of depreciation"],
}

AVG3_RATIO_ZENITH = {"capex": ["additions to PP&E", "capital spend (additions to PP&E)"],
                     "rnd": ["R&D costs", "research & development spend"],
                     "sga": ["SGA expenses", "SG&A overhead costs"]}

# key: (names, definitions)
METRICS_ZENITH = {
    "gross_margin": (["GPM (gross profit margin)", "gross margin as a percentage"],
                     ["gross profit over revenue, times 100", "the percent of each sales dollar kept as gross profit"]),
    "operating_margin": (["operating profit ratio", "EBIT-to-sales (%)"],
                         ["operating income over revenue, times 100", "the percent of each sales dollar kept as operating income"]),
    "net_margin": (["net income to sales (%)", "bottom-line margin"],
                   ["net income attributable to the company over revenue, times 100",
                    "the percent of each sales dollar that ends up as net income attributable to the company"]),
    "roa": (["return on assets (averaged-asset method)", "ROA with averaged assets"],
            ["net income over average total assets (prior and current year-end), times 100",
             "net income ÷ mean(total assets at prior year-end, total assets at current year-end), as a %"]),
    "roe": (["return on equity (averaged-equity method)", "ROE with averaged equity"],
            ["net income over average shareholders' equity (prior and current year-end), times 100",
             "net income ÷ mean(shareholders' equity at prior year-end, shareholders' equity at current year-end), as a %"]),
    "asset_turnover": (["asset turnover (times)", "asset rotation"],
                       ["revenue over average total assets (prior and current year-end)",
                        "revenue ÷ mean(total assets at prior year-end, total assets at current year-end)"]),
    "fixed_asset_turnover": (["fixed-asset rotation", "sales-to-average-fixed-assets ratio"],
                             ["revenue over average net PP&E (prior and current year-end)",
                              "revenue ÷ mean(net PP&E at prior year-end, net PP&E at current year-end)"]),
    "inventory_turnover": (["inventory turnover (times)", "inventory rotation"],
                           ["cost of sales over average inventory (prior and current year-end)",
                            "cost of sales ÷ mean(inventory at prior year-end, inventory at current year-end)"]),
    "dso_avg": (["days of sales outstanding on average A/R", "receivables collection days (average balance)"],
                ["average receivables (prior and current year-end) over revenue, times 365",
                 "mean(receivables at prior year-end, receivables at current year-end) ÷ revenue × 365"]),
    "dso_end": (["days of sales outstanding on year-end A/R", "receivables collection days (year-end balance)"],
                ["year-end receivables over revenue, times 365", "receivables at current year-end ÷ (revenue / 365)"]),
    "quick_ratio": (["quick ratio (acid test)", "liquidity ratio excluding inventory"],
                    ["current assets after taking out inventory, divided by current liabilities",
                     "(current assets excl. inventory) / current liabilities"]),
    "current_ratio": (["current ratio (times)", "liquidity ratio (current assets vs current liabilities)"],
                      ["total current assets, divided by total current liabilities", "CA over CL"]),
    "interest_coverage": (["interest coverage (times)", "EBIT/interest coverage"],
                          ["operating income over interest expense, expressed in times", "EBIT (= operating income) divided by interest expense"]),
    "payout": (["dividend payout (%)", "share of earnings paid as dividends"],
               ["dividends paid over net income, times 100", "cash dividends ÷ net income, as a %"]),
    "ebitda": (["EBITDA value", "EBITDA (not adjusted)"],
               ["operating income + total D&A", "operating income, then add depreciation and amortization"]),
    "ebitda_margin": (["EBITDA margin percentage", "EBITDA over sales (%)"],
                      ["operating income + total D&A, over revenue, times 100",
                       "EBITDA (operating income plus D&A) ÷ revenue, as a %"]),
    "ebitda_less_capex": (["EBITDA net of capital spending", "EBITDA minus capex figure"],
                          ["operating income + total D&A − additions to PP&E",
                           "EBITDA (operating income plus D&A) minus capex"]),
    "working_capital": (["working capital (USD)", "WC position"],
                        ["what is left of current assets once current liabilities are deducted",
                         "current assets − current liabilities, in $"]),
    "cash_conversion": (["operating cash conversion", "cash-to-earnings ratio"],
                        ["operating cash flow over net income",
                         "net cash provided by operating activities, divided by net income"]),
    "ocf_ratio": (["OCF/current liabilities", "cash-flow current ratio"],
                  ["operating cash flow over current liabilities at year-end",
                   "net cash provided by operating activities, divided by year-end current liabilities"]),
    "rnd_pct": (["R&D ratio (% of sales)", "R&D spending ratio"],
                ["R&D expense over revenue, times 100", "the percent of each sales dollar spent on R&D"]),
    "sga_pct": (["SG&A ratio (% of sales)", "SG&A spending ratio"],
                ["SG&A over revenue, times 100", "the percent of each sales dollar spent on SG&A"]),
    "capex_pct": (["capex ratio (% of sales)", "capex spending ratio"],
                  ["capital expenditures over revenue, times 100",
                   "the percent of each sales dollar spent on capex (additions to PP&E)"]),
    "fcf": (["free cash flow (simple version)", "FCF in dollars"],
            ["operating cash flow, less additions to PP&E", "cash flows from operations after capital expenditures"]),
    "debt_to_equity": (["LT debt-to-equity ratio", "long-term debt/shareholders' equity"],
                       ["long-term debt (excl. current maturities) over shareholders' equity",
                        "long-term debt due after one year ÷ stockholders' equity"]),
    "etr": (["effective tax rate (%)", "average tax rate on pretax profit"],
            ["income tax expense over income before income taxes, times 100",
             "provision for income taxes ÷ pretax income, as a %"]),
}

ITEM_TEMPLATES["zenith"] = [
    "Hello, I am student and I need {co}'s {item} {per}{scale}. Can you help?",
    "{co}'s {item} {per}{scale} -- can you give me the exact number from the 10-K?",
    "Where can I find {co}'s {item} {per}, and what is the number{scale}?",
    "Need it for a footnote: {item}, {co}, {per}{scale}.",
    "I:Balance sheet question for {co}: what was the {item} {per}{scale}?",
    "X:In {co}'s statement of operations, what is the {item} {per}{scale}?",
    "Our IR team is updating the fact sheet. Can you confirm {co}'s {item} {per}{scale}?",
    "L:hey, {co} {item} {per}{scale}?",
    "Fact-checking an article that quotes {co}'s {item} {per}. What is the actual figure{scale}?",
    "What {item} does {co}'s annual report show {per}{scale}?",
    "As a credit analyst I look first at the {item}. For {co} {per}, what was it{scale}?",
    "Please share the {item} of {co} {per}{scale}.",
]

CHANGE_ABS_TEMPLATES["zenith"] = [
    "{co}: difference in {item}, {y1} less {y0}{scale}?",
    "F:I'm looking at {co}'s {item} for {p0} and {p1}. What is the absolute change{scale}? (Minus if it went down.)",
    "I:From {p0} to {p1}, {co}'s {item} changed by how much in absolute terms{scale}?",
    "Audit working paper: {co} {item} -- current year {y1}, prior year {y0}. Change{scale}?",
    "L:how much did {co}'s {item} go up or down from {p0} to {p1}{scale}",
    "Hello, my English is not perfect. I want to know the change of {co}'s {item} from {p0} to {p1}, in money terms{scale}.",
    "For the earnings story: {co}'s {item} moved how much between {p0} and {p1}{scale}?",
]

CHANGE_PCT_TEMPLATES["zenith"] = [
    "F:What is the growth in percent of {co}'s {item} in {p1} compared to {p0}{fmt}?",
    "I:What is the growth in percent of {co}'s {item} at {p1} compared to {p0}{fmt}?",
    "F:{co} reported {item} for {p0} and {p1}. What's the year-on-year change as a percentage{fmt}?",
    "I:{co}'s {item} at {p1} versus at {p0} -- what percent higher or lower{fmt}?",
    "Headline number for my article: {co}'s {item} growth from {p0} to {p1}, in percent{fmt}.",
    "L:% change in {co} {item} {y0} vs {y1}{fmt}?",
    "For {co}, take {item} in {y1}, divide by {item} in {y0}, subtract 1 and multiply by 100{fmt}.",
    "I'm checking management's claim about {item}. By how much did {co}'s {item} change in percentage terms from {p0} to {p1}{fmt}?",
]

AVG_BAL_TEMPLATES["zenith"] = [
    "I want {co}'s average {item} for {p1}: opening plus closing balance, divided by two{scale}.",
    "My ratio needs the {item} of {co} on an average basis for {p1} (beginning of year and end of year){scale}.",
    "L:avg {item} {co} for {p1}, open/close{scale}?",
    "Sum {co}'s {item} at the ends of {y0} and {y1}, then halve it{scale}.",
    "Please help: I need the mean {item} of {co} in {p1}, from the two balance sheets (start and end){scale}.",
]

AVG3_TEMPLATES["zenith"] = [
    "Mean annual {item} of {co} for {span}{scale}?",
    "Average {co}'s {item} for {y2}, {y0} and {y1}, please -- simple average{scale}.",
    "Cycle-average {item} for {co} over {span}{scale}?",
    "L:{co} avg {item} over {span}{scale}",
    "In my thesis I compare averages. What is the average {item} per year of {co} in {span}{scale}?",
]

AVG3_RATIO_TEMPLATES["zenith"] = [
    "Year by year, divide {co}'s {metric} by its revenue for {span}; what is the mean of the three percentages{fmt}?",
    "Average ratio of {metric} to revenue for {co} over {span}, computed as the mean of the three yearly percentages{fmt}?",
    "L:{co} {metric} % of revenue, avg of the {y2}/{y0}/{y1} ratios{fmt}",
]

METRIC_TEMPLATES["zenith"] = {
    "plain": [
        "Hello, what is the {metric} of {co} {per}{fmt}? Thank you.",
        "Looking for the {metric} of {co} {per}{fmt}.",
        "For the screening sheet: {co}, {metric}, {per}{fmt}.",
        "I'm a retail investor trying to understand {co}. What was its {metric} {per}{fmt}?",
        "L:what {metric} did {co} have {per}{fmt}",
        "As an auditor I want to recompute {co}'s {metric} {per}{fmt}. What do you get?",
        "From the 10-K numbers, figure out {co}'s {metric} {per}{fmt}.",
    ],
    "defn": [
        "For {co} {per}, compute {metric}{fmt}. We calculate it like this: {defn}.",
        "{metric} = {defn}. {co}, {per}{fmt}?",
        "Hello, in my course {metric} is {defn}. Can you calculate it for {co} {per}{fmt}?",
        "Can you compute {co}'s {metric} {per}{fmt}? Note that we define it as {defn}.",
        "In our credit agreement model, {metric} means {defn}. Where was {co} {per}{fmt}?",
        "L:{co} {per}{fmt} -- calc {metric} as {defn}",
        "What is {co}'s {metric} {per} if I use {defn}{fmt}?",
    ],
}

COMPARE_TEMPLATES["zenith"] = [
    "Hello, please compare {A} and {B}: which company has the {adj} {metric} {per}?",
    "My portfolio holds {A} and {B}. {Per}, which one had the {adj} {metric}?",
    "L:is {A} or {B} {adj} on {metric} {per}",
    "Fact check: was {A}'s or {B}'s {metric} {adj} {per}?",
    "When you compare {A} with {B} {per}, which company comes out with the {adj} {metric}?",
    "Thinking of {B} and {A}: which posted the {adj} {metric} {per}?",
    "Hello, please compare {A} and {B}: which company had {more} {item} {per}?",
    "My portfolio holds {A} and {B}. {Per}, which one reported the {adj} {item}?",
    "L:is it {A} or {B} that had {more} {item} {per}",
    "Fact check: was {A}'s or {B}'s {item} {adj} {per}?",
    "When you compare {A} with {B} {per}, which company shows {more} {item}?",
    "Which is {adj}, {B}'s {item} or {A}'s, {per}?",
]


def compare_period_zenith(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"at the end of business year {a.fy}", f"on their fiscal {a.fy} closing balance sheets"]
            if dec31:
                opts.append(f"at the reporting date {date_ymdslash(a.F.fy_end)}")
        else:
            opts = [f"in business year {a.fy}", f"in fiscal year {a.fy} (as each company defines it)"]
            if dec31:
                opts.append(f"for the accounting year ended {date_ymdslash(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        opts = [f"on the most recent balance sheets (fiscal {a.fy} for {na}, fiscal {b.fy} for {nb})"]
        if date_ymdslash(a.F.fy_end) and date_ymdslash(b.F.fy_end):
            opts.append(f"at their latest year-ends ({na}: {date_ymdslash(a.F.fy_end)}, {nb}: {date_ymdslash(b.F.fy_end)})")
        return rng.choice(opts)
    return rng.choice([f"in their latest fiscal years ({na} ended {date_nc(a.F.fy_end)}, {nb} ended {date_nc(b.F.fy_end)})",
                       f"in the year each one just reported ({na}: fiscal {a.fy}; {nb}: fiscal {b.fy})"])

# ---------------------------------------------------------------------------------------
# Eleventh wording set ("harbor")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the ten earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. A broad mix of people (sell-side and
# buy-side analysts, credit analysts, private-equity associates, CFO-office staff, accounting
# students, journalists, retail investors, hurried terse writers, people who paste context before
# the question, non-native English writers), terse and full-sentence, some multi-sentence;
# company name and period at the start, middle or end; periods as fiscal-year words, two-digit
# years, year-end dates with the month spelled out (so they cannot be misread), month ranges and
# relative forms; unit and rounding requests in varied forms; definitions in words and as
# formulas. Template flags as for novel / vault / ledger / atlas / zenith (F:, I:, X:, L:). Like
# vault, atlas and zenith, a held-out set: not to be printed or quoted where the engine's
# builders read.

def date_tick(d):
    """short month, day and apostrophe two-digit year (month spelled, so it cannot be misread)"""
    return f"{MON3[d.month - 1]} {d.day} '{yy(d.year)}"


def date_uktick(d):
    """day, full month and apostrophe two-digit year (month spelled, so it cannot be misread)"""
    return f"{d.day} {MONTHS[d.month - 1]} '{yy(d.year)}"


def fiscal_run(co, fy):
    """'October 2023 to September 2024', only when the fiscal year starts early in a month and ends late in one"""
    s, e = start_date(co, fy), co.end_date(fy)
    if s is None or e is None or s.day > 7 or e.day < 20:
        return None
    return f"{MONTHS[s.month - 1]} {s.year} to {MONTHS[e.month - 1]} {e.year}"


def dur_phrases_harbor(co, fy):
    end = co.end_date(fy)
    out = [f"during FY{fy}", f"for the annual period ending {date_us(end)}", f"in the '{yy(fy)} fiscal year",
           f"in the fiscal year closing {date_tick(end)}"]
    if fiscal_run(co, fy):
        out += [f"for the fiscal year running {fiscal_run(co, fy)}"]
    if co.calendar:
        out += [f"in {fy} (calendar year)"]
    if fy == co.fy:
        out += [f"in the fiscal year of its current annual report ({fy})", f"for the latest year, FY{yy(fy)}"]
    if fy == co.fy - 1:
        out += [f"one year back (fiscal {fy})", f"in FY{yy(fy)}, the earlier of its two most recent fiscal years"]
    return out


def inst_phrases_harbor(co, fy):
    end = co.end_date(fy)
    out = [f"as of {date_tick(end)}", f"at {date_uktick(end)}", f"at FY{yy(fy)}'s close",
           f"on the balance sheet as of {date_us(end)}"]
    if co.calendar and end.month == 12 and end.day == 31:
        out += [f"at the close of calendar {fy}"]
    if fy == co.fy:
        out += [f"on its most current balance sheet (FY{yy(fy)})"]
    if fy == co.fy - 1:
        out += [f"in the prior-year column of its latest balance sheet (FY{yy(fy)})"]
    return out


def yr_forms_harbor(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for harbor."""
    y0, y1 = fy - 1, fy
    if instant:
        style = rng.choice(["tick", "uk", "close", "asof"])
        f = {"tick": lambda y: date_tick(co.end_date(y)), "uk": lambda y: date_uktick(co.end_date(y)),
             "close": lambda y: f"FY{yy(y)}'s close", "asof": lambda y: f"the balance sheet date {date_us(co.end_date(y))}"}[style]
    else:
        style = rng.choice(["tick", "ending", "closing", "run"])
        if style == "run" and not (fiscal_run(co, y0) and fiscal_run(co, y1)):
            style = "tick"
        f = {"tick": lambda y: f"the '{yy(y)} fiscal year", "ending": lambda y: f"the annual period ending {date_us(co.end_date(y))}",
             "closing": lambda y: f"the fiscal year closing {date_tick(co.end_date(y))}",
             "run": lambda y: f"the {fiscal_run(co, y).replace(' to ', '–')} fiscal year"}[style]
    lab = rng.choice(["FY{yy}", "fiscal {y}"])
    return f(y0), f(y1), lab.format(yy=yy(y0), y=y0), lab.format(yy=yy(y1), y=y1)


def harbor_y2(y0, fy):
    """the label of fiscal year fy-2 in the same style as y0 (FY23 -> FY22, fiscal 2023 -> fiscal 2022)"""
    if str(fy - 1) in y0:
        return y0.replace(str(fy - 1), str(fy - 2))
    return y0.replace(yy(fy - 1), yy(fy - 2))


def span_harbor(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    return rng.choice([f"the three fiscal years from {fy - 2} to {fy}", f"'{yy(fy - 2)}–'{yy(fy)} (three fiscal years)",
                       f"the three fiscal years ending FY{yy(fy)}"])


ITEM_LABELS_HARBOR = {
    "revenue": ["top-line revenue", "company-wide revenue"],
    "cogs": ["total COGS", "cost of sales as reported"],
    "gross_profit": ["absolute gross profit", "gross profit (dollar amount)"],
    "operating_income": ["operating income as booked", "operating income (GAAP basis)"],
    "net_income": ["bottom-line profit (net income attributable to the company)", "net income attributable to stockholders"],
    "eps_diluted": ["diluted net earnings per share", "net income per diluted share"],
    "total_assets": ["total book assets", "overall asset base"],
    "total_liabilities": ["total obligations (total liabilities)", "total amount owed (total liabilities)"],
    "current_assets": ["total current assets (reported)", "assets expected to turn into cash within a year (total current assets)"],
    "current_liabilities": ["total current liabilities (reported)", "obligations due within a year (total current liabilities)"],
    "inventory": ["inventory position", "net inventory value"],
    "cash": ["cash and cash equivalents as reported", "cash holdings (cash and cash equivalents only)"],
    "lt_debt": ["debt due after twelve months (non-current long-term debt)",
                "long-dated debt (long-term debt excluding current maturities)"],
    "equity": ["equity book value (stockholders' equity)", "net worth (total shareholders' equity)"],
    "total_equity_incl_nci": ["total equity inclusive of minority interest", "all equity incl. noncontrolling interests"],
    "cfo": ["cash flow from ops", "cash thrown off by operations (net operating cash flow)"],
    "cfi": ["cash flow from investing (net total)", "investing cash flows in total (net)"],
    "cff": ["cash flow from financing (net total)", "financing cash flows in total (net)"],
    "capex": ["capex paid in cash", "cash invested in property, plant and equipment (capex)"],
    "dna": ["amortization and depreciation", "D&A (depreciation and amortization) total"],
    "rnd": ["research-and-development expense", "spend on R&D"],
    "sga": ["SG&A charge", "selling/general/admin expense"],
    "interest_expense": ["total interest expense", "borrowing costs expensed (interest expense)"],
    "income_tax": ["income-tax charge", "tax bill on its income (income tax expense)"],
    "dividends": ["dividend outlay (cash paid)", "cash handed back as dividends"],
    "buybacks": ["repurchases of its own stock (cash paid)", "cash returned through buybacks"],
    "receivables": ["A/R (net of allowances)", "money owed by customers (net receivables)"],
    "ppe": ["PP&E carried net", "net PP&E (property, plant & equipment less depreciation)"],
}

AVG3_RATIO_HARBOR = {"capex": ["capex paid in cash", "capital spending on PP&E"],
                     "rnd": ["research-and-development expense", "spend on R&D"],
                     "sga": ["SG&A charge", "selling/general/admin expense"]}

# key: (names, definitions)
METRICS_HARBOR = {
    "gross_margin": (["gross margin (percent of revenue)", "gross-profit-to-revenue percentage"],
                     ["(gross profit / total revenue) in %",
                      "gross profit earned per dollar of revenue, written as a percentage"]),
    "operating_margin": (["operating income-to-revenue percentage", "operating margin on total revenue"],
                         ["(operating income / total revenue) in %",
                          "operating income earned per dollar of revenue, written as a percentage"]),
    "net_margin": (["net income-to-revenue percentage", "net margin on total revenue"],
                   ["(net income attributable to the company / total revenue) in %",
                    "attributable net income earned per dollar of revenue, written as a percentage"]),
    "roa": (["ROA (average-asset version)", "return on assets using the two-year-end average"],
            ["net income / ((total assets at the start of the year + total assets at the end of the year) / 2), in %",
             "net income as a percent of total assets, with total assets taken as the average of last year's and this year's year-end balances"]),
    "roe": (["ROE (average-equity version)", "return on equity using the two-year-end average"],
            ["net income / ((shareholders' equity at the start of the year + shareholders' equity at the end of the year) / 2), in %",
             "net income as a percent of shareholders' equity, with equity taken as the average of last year's and this year's year-end balances"]),
    "asset_turnover": (["asset turnover (average-asset version)", "revenue per dollar of averaged total assets"],
                       ["total revenue / ((opening total assets + closing total assets) / 2)",
                        "the revenue brought in per dollar of total assets, with total assets averaged over the prior and current year-ends"]),
    "fixed_asset_turnover": (["fixed-asset turnover (average-PP&E version)", "sales generated per dollar of averaged net PP&E"],
                             ["total revenue / ((opening net PP&E + closing net PP&E) / 2)",
                              "revenue divided by net property, plant and equipment averaged across the prior and current year-ends"]),
    "inventory_turnover": (["inventory turnover (average-inventory version)", "inventory turns measured on average inventory"],
                           ["cost of sales / ((opening inventory + closing inventory) / 2)",
                            "cost of goods sold divided by inventory averaged across the prior and current year-ends"]),
    "dso_avg": (["DSO (average-receivables version)", "days of revenue tied up in average receivables"],
                ["((opening receivables + closing receivables) / 2) / revenue × 365",
                 "the average of prior and current year-end accounts receivable, divided by one day of revenue (revenue / 365)"]),
    "dso_end": (["DSO (year-end-receivables version)", "days of revenue tied up in closing receivables"],
                ["closing receivables / revenue × 365",
                 "year-end accounts receivable divided by one day of revenue (revenue / 365)"]),
    "quick_ratio": (["quick ratio with inventory stripped out", "acid test (current assets minus inventory vs. current liabilities)"],
                    ["(CA minus inventory) ÷ CL", "current assets, leaving out inventory, divided by current liabilities"]),
    "current_ratio": (["current ratio expressed as a multiple", "balance-sheet liquidity (current ratio)"],
                      ["total current assets ÷ total current liabilities",
                       "the dollars of current assets held for each dollar of current liabilities"]),
    "interest_coverage": (["interest coverage on operating income", "interest-cover multiple (operating income based)"],
                          ["interest expense divided into operating income", "operating income measured in multiples of interest expense"]),
    "payout": (["cash dividend payout (% of net income)", "payout ratio on a cash-dividend basis"],
               ["dividends paid in cash ÷ net income × 100", "the percent of net income handed out as cash dividends"]),
    "ebitda": (["EBITDA built from operating income", "EBITDA (operating income + D&A, unadjusted)"],
               ["operating income with D&A added back on top", "D&A + operating income (no other adjustments)"]),
    "ebitda_margin": (["EBITDA margin on revenue (%)", "EBITDA as a share of total revenue"],
                      ["(operating income + D&A) / total revenue, in %",
                       "operating income with D&A added back, per dollar of revenue, written as a percentage"]),
    "ebitda_less_capex": (["EBITDA less cash capex", "EBITDA minus capex paid"],
                          ["operating income + D&A − capex paid in cash",
                           "operating income with D&A added back, minus purchases of PP&E"]),
    "working_capital": (["working capital ($ amount)", "working capital (CA less CL)"],
                        ["total current assets less total current liabilities, a dollar amount",
                         "the dollar gap between current assets and current liabilities (negative if the liabilities are bigger)"]),
    "cash_conversion": (["CFO-to-net-income conversion", "cash conversion of net income (times)"],
                        ["operating cash flow (net cash from operating activities) ÷ net income",
                         "the dollars of operating cash flow generated per dollar of net income"]),
    "ocf_ratio": (["OCF-to-current-liabilities multiple", "operating cash flow ÷ year-end current liabilities (times)"],
                  ["net cash from operating activities ÷ total current liabilities at year-end",
                   "operating cash flow for the year divided by current liabilities at the closing balance sheet date"]),
    "rnd_pct": (["R&D spend (% of revenue)", "R&D load on revenue (%)"],
                ["(R&D expense / total revenue) in %", "the cents of each revenue dollar that went to R&D, written as a percentage"]),
    "sga_pct": (["SG&A spend (% of revenue)", "SG&A load on revenue (%)"],
                ["(SG&A / total revenue) in %", "the cents of each revenue dollar that went to SG&A, written as a percentage"]),
    "capex_pct": (["capex spend (% of revenue)", "capex load on revenue (%)"],
                  ["(capex paid in cash / total revenue) in %",
                   "the cents of each revenue dollar that went to purchases of PP&E, written as a percentage"]),
    "fcf": (["free cash flow (plain definition)", "FCF (cash from ops less capex)"],
            ["net cash from operating activities − capex paid in cash",
             "the part of operating cash flow left after purchases of PP&E"]),
    "debt_to_equity": (["non-current long-term debt to equity", "long-term debt over book equity (times)"],
                       ["long-term debt excluding the current portion ÷ total shareholders' equity",
                        "the dollars of non-current long-term debt per dollar of shareholders' equity"]),
    "etr": (["effective tax rate (tax expense ÷ pretax income)", "income tax as a share of pretax income"],
            ["(income tax expense / income before income taxes) in %",
             "the cents of each dollar of pretax income that went to income tax expense, written as a percentage"]),
}

ITEM_TEMPLATES["harbor"] = [
    "I'm filling in a comp sheet and {co} is missing one cell -- {item} {per}{scale}. What number goes there?",
    "I:{Per}, what figure did {co} carry for {item}{scale}?",
    "PE associate here, doing a quick diligence pass on {co}. I need the {item} {per}{scale}.",
    "L:in a rush -- {co}'s {item} {per}{scale}?",
    "X:What amount did {co} book as its {item} in the income statement {per}{scale}?",
    "Writing a piece on {co}'s results. {Per}, what did it report as {item}{scale}?",
    "For my accounting class: locate {co}'s {item} {per} in the 10-K and state the amount{scale}.",
    "I'd like to know the {item} {co} disclosed {per}{scale}.",
    "Please extract from {co}'s annual report: {item}, {per}{scale}.",
    "Sorry for my English. I am searching for the {item} of {co} {per}{scale}. Could you give it to me?",
    "I:On {co}'s balance sheet {per}, what amount is shown for {item}{scale}?",
    "Credit memo draft for {co} -- I need the {item} {per}{scale}.",
    "Thinking about buying {co} shares. What did its 10-K show for {item} {per}{scale}?",
    "{co} reported what figure for {item} {per}{scale}?",
]

CHANGE_ABS_TEMPLATES["harbor"] = [
    "F:How much did {co}'s {item} rise or drop in {p1} relative to {p0}{scale}? Give a negative number for a drop.",
    "I:{co}'s {item}: what was the net increase or decrease between {p0} and {p1}{scale}?",
    "Bridge for the IC deck -- {co}'s {item} from {y0} to {y1}: dollar change{scale}?",
    "L:{item} delta for {co}, {y0} to {y1}{scale}?",
    "Class exercise -- take {co}'s {item} for {y1}, deduct the {y0} amount, and report the result{scale}.",
    "F:Compared with {p0}, how many dollars higher or lower was {co}'s {item} in {p1}{scale}? Use a minus sign if lower.",
    "I:{co}'s {item} at {p1} versus {p0}: how much higher or lower, in dollars{scale}? Negative if lower.",
    "CFO office request: year-over-year dollar variance (current minus prior) in {co}'s {item}, {p1} versus {p0}{scale}.",
    "{co} -- did {item} grow from {p0} to {p1}? Give the signed change{scale}.",
]

CHANGE_PCT_TEMPLATES["harbor"] = [
    "F:Growth in {co}'s {item} for {p1} over {p0}, as a percentage{fmt}?",
    "I:By what % was {co}'s {item} higher or lower at {p1} than at {p0}{fmt}?",
    "L:{co} {item} yoy % {y0}->{y1}{fmt}",
    "Working on a comp sheet -- {co}'s {item}, % move from {p0} to {p1}{fmt}?",
    "Journalist here: I want to write that {co}'s {item} changed by N% from {p0} to {p1}. What is N{fmt}?",
    "F:What was the rate of growth of {co}'s {item} from {p0} to {p1}{fmt}? (A decline should come out negative.)",
    "For {co}'s {item}, compute ({y1} value − {y0} value) ÷ {y0} value, in percent{fmt}.",
    "I:How much, in percentage terms, did {co}'s {item} move between {p0} and {p1}{fmt}?",
]

AVG_BAL_TEMPLATES["harbor"] = [
    "For my returns analysis I need {co}'s {item} averaged over {p1} -- i.e. the {y0} closing balance plus the {y1} closing balance, divided by two{scale}.",
    "L:{co} average {item}: ({y0} close + {y1} close) / 2{scale}?",
    "What was the average {item} on {co}'s balance sheet during {p1}, taking the mean of the opening and closing amounts{scale}?",
    "Please average {co}'s {item} from its {y0} and {y1} year-end balance sheets{scale}.",
    "Sorry if this is basic: to get {co}'s average {item} for {p1}, I add the starting and ending balances and halve the sum. What result do you get{scale}?",
]

AVG3_TEMPLATES["harbor"] = [
    "Across {span}, {co}'s {item} averaged how much a year{scale}?",
    "L:{co} {item}, 3-year mean ({y2}, {y0}, {y1}){scale}?",
    "LBO screen: what is {co}'s average yearly {item} across {span}{scale}?",
    "Please give the mean of {co}'s {item} in {y2}, {y0} and {y1}{scale}.",
    "I'm comparing {co} with its peers over several years. What was its {item} for {span}, averaged per year{scale}?",
]

AVG3_RATIO_TEMPLATES["harbor"] = [
    "For each of {y2}, {y0} and {y1}, work out {co}'s {metric} as a percent of that year's revenue; then average the three percentages{fmt}.",
    "Over {span}, what was {co}'s {metric}-to-revenue ratio on average? Average the three annual percentages (do not divide the three-year totals){fmt}.",
    "L:{co} {metric}/revenue %, each year of {span}, then the simple mean{fmt}?",
    "Student question: for {span}, find {co}'s {metric} as a share of revenue year by year and give the equal-weighted average of those shares{fmt}.",
]

METRIC_TEMPLATES["harbor"] = {
    "plain": [
        "I'm building a comp sheet and need {co}'s {metric} {per}{fmt}.",
        "{Per}, what was the {metric} for {co}{fmt}?",
        "L:{co} {metric}, {per}{fmt} -- thanks in advance",
        "Private-equity associate here, screening {co}: what was its {metric} {per}{fmt}?",
        "What {metric} does {co}'s 10-K imply {per}{fmt}?",
        "As a retail investor I keep hearing about {metric}. What was it for {co} {per}{fmt}?",
        "Could you calculate the {metric} for {co} {per}{fmt}, using the 10-K figures?",
        "Sorry for my English. I need the {metric} of {co} {per}{fmt}. Can you calculate it?",
    ],
    "defn": [
        "In our shop, {metric} means {defn}. Run it for {co} {per}{fmt}.",
        "What is {co}'s {metric} {per}{fmt}? Use this definition: {defn}.",
        "Please compute, for {co} {per}, the measure I call {metric}: {defn}{fmt}.",
        "Definition we use -- {metric}: {defn}. {co}, {per}{fmt}?",
        "L:can you do {co}'s {metric} {per}{fmt}? By {metric} I mean {defn}.",
        "I'm preparing a credit memo on {co}. The definition we use for {metric} is {defn}. What does it come to {per}{fmt}?",
        "For a case competition we define {metric} as {defn}. What is {co}'s number {per}{fmt}?",
        "I calculate {metric} as {defn}. What figure does that give for {co} {per}{fmt}?",
    ],
}

COMPARE_TEMPLATES["harbor"] = [
    "Building a two-company comp sheet: {A} and {B}. Which shows the {adj} {metric} {per}?",
    "{Per}, whose {metric} came in {adj} -- {A}'s or {B}'s?",
    "L:need a quick read: is {A} or {B} running the {adj} {metric} {per}?",
    "Credit analyst comparing two issuers ({A}, {B}): which one had the {adj} {metric} {per}?",
    "Between {B} and {A}, which company's {metric} was the {adj} {per}?",
    "I own shares of both {A} and {B}. Which of the two had the {adj} {metric} {per}?",
    "Building a two-company comp sheet: {A} and {B}. Which reported {more} {item} {per}?",
    "{Per}, whose {item} came in {adj} -- {A}'s or {B}'s?",
    "L:{more} {item} {per} -- {A} or {B}, which one?",
    "Credit analyst comparing two issuers ({A}, {B}): which one had the {adj} {item} {per}?",
    "Between {B} and {A}, which company's {item} was the {adj} {per}?",
    "For a newspaper graphic: did {A} or {B} show {more} {item} {per}?",
]


def compare_period_harbor(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"at the close of each company's fiscal {a.fy}", f"on the balance sheets ending their FY{yy(a.fy)}"]
            if dec31:
                opts.append(f"as of {date_tick(a.F.fy_end)}")
        else:
            opts = [f"during FY{a.fy}", f"in the '{yy(a.fy)} fiscal year of each company"]
            if dec31:
                opts.append(f"for the annual period ending {date_us(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        return rng.choice([f"at their respective latest year-ends ({na}: {date_uktick(a.F.fy_end)}; {nb}: {date_uktick(b.F.fy_end)})",
                           f"on the most current balance sheet of each (FY{yy(a.fy)} for {na}, FY{yy(b.fy)} for {nb})"])
    return rng.choice([f"in their most current fiscal years ({na}: closing {date_tick(a.F.fy_end)}; {nb}: closing {date_tick(b.F.fy_end)})",
                       f"for FY{yy(a.fy)} at {na} and FY{yy(b.fy)} at {nb}"])


# ---------------------------------------------------------------------------------------
# Twelfth wording set ("quarry")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the eleven earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. A broad mix of people (sell-side and
# buy-side analysts, credit analysts, bankers, auditors, accounting students, journalists, retail
# investors, terse chat-box typists, non-native English writers, people who paste context before
# the question), questions, imperatives, statements of need and multi-sentence requests, with the
# company and period at the start, middle or end; periods as fiscal-year words, hyphenated
# two-digit years, year-end dates with the month spelled out (so they cannot be misread), month
# ranges and relative forms; unit and rounding requests in varied forms; metrics named by the
# abbreviations and synonyms analysts use or defined in words, as formulas with their variables
# spelled out, or as step-by-step procedures. Template flags as for novel / vault / ledger / atlas /
# zenith / harbor (F:, I:, X:, L:). Like vault, atlas, zenith and harbor, a held-out set: not to be
# printed or quoted where the engine's builders read.

def month_run(co, fy):
    """'October 2023 through September 2024', only when the fiscal year starts early in a month and ends late in one"""
    s, e = start_date(co, fy), co.end_date(fy)
    if s is None or e is None or s.day > 7 or e.day < 20:
        return None
    return f"{MONTHS[s.month - 1]} {s.year} through {MONTHS[e.month - 1]} {e.year}"


def turn_of_year(d):
    """'the turn of the year 2023/24', only for a December 31 year-end (else None)"""
    return f"the turn of the year {d.year}/{yy(d.year + 1)}" if d.month == 12 and d.day == 31 else None


def dur_phrases_quarry(co, fy):
    end = co.end_date(fy)
    out = [f"for FY-{yy(fy)}", f"for the fiscal year that finished on {date_us(end)}", f"in its {fy} reporting year",
           f"for F/Y {fy}"]
    if month_run(co, fy):
        out += [f"for the 12 months {month_run(co, fy)}"]
    if fy == co.fy:
        out += [f"in its last completed fiscal year (FY-{yy(fy)})", f"in the latest year, F/Y {fy}"]
    if fy == co.fy - 1:
        out += [f"in the year prior (FY-{yy(fy)})", f"for the previous fiscal year (F/Y {fy})"]
    return out


def inst_phrases_quarry(co, fy):
    end = co.end_date(fy)
    out = [f"as of the FY-{yy(fy)} year-end", f"at year-end ({date_eu(end)})", f"once the books closed on {date_us(end)}",
           f"at the {date_us(end)} cut-off"]
    if turn_of_year(end):
        out += [f"at {turn_of_year(end)}"]
    if fy == co.fy:
        out += [f"at the end of its most recently filed year ({date_eu(end)})"]
    if fy == co.fy - 1:
        out += [f"at the opening of FY-{yy(fy + 1)} (i.e. the {date_us(end)} year-end)"]
    return out


def yr_forms_quarry(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for quarry."""
    y0, y1 = fy - 1, fy
    if instant:
        style = rng.choice(["fye", "cut", "books", "eu"])
        f = {"fye": lambda y: f"the FY-{yy(y)} year-end", "cut": lambda y: f"the {date_us(co.end_date(y))} cut-off",
             "books": lambda y: f"the close of the books on {date_us(co.end_date(y))}",
             "eu": lambda y: f"the {date_eu(co.end_date(y))} year-end"}[style]
    else:
        style = rng.choice(["fy", "finished", "rep", "run"])
        if style == "run" and not (month_run(co, y0) and month_run(co, y1)):
            style = "fy"
        f = {"fy": lambda y: f"FY-{yy(y)}", "finished": lambda y: f"the fiscal year that finished on {date_us(co.end_date(y))}",
             "rep": lambda y: f"its {y} reporting year", "run": lambda y: f"the 12 months {month_run(co, y)}"}[style]
    lab = rng.choice(["FY-{yy}", "F/Y {y}"])
    return f(y0), f(y1), lab.format(yy=yy(y0), y=y0), lab.format(yy=yy(y1), y=y1)


def span_quarry(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    return rng.choice([f"FY-{yy(fy - 2)} through FY-{yy(fy)}", f"F/Y {fy - 2} to F/Y {fy} (three years)",
                       f"the three fiscal years up to and including FY-{yy(fy)}"])


ITEM_LABELS_QUARRY = {
    "revenue": ["consolidated sales (total revenue)", "total revenues (net sales)"],
    "cogs": ["total cost of revenues (COGS)", "cost of goods/services sold"],
    "gross_profit": ["gross profit subtotal", "gross earnings (gross profit)"],
    "operating_income": ["operating income subtotal", "reported EBIT (operating income)"],
    "net_income": ["attributable net income (the company's share)", "net income to shareholders of the company"],
    "eps_diluted": ["diluted EPS as reported", "EPS on diluted shares"],
    "total_assets": ["balance-sheet total assets", "sum of all assets (total assets)"],
    "total_liabilities": ["balance-sheet total liabilities", "sum of all liabilities (total liabilities)"],
    "current_assets": ["current assets altogether", "short-term assets in total (current assets)"],
    "current_liabilities": ["current liabilities altogether", "short-term obligations in total (current liabilities)"],
    "inventory": ["inventory stock (net)", "goods held in inventory (net)"],
    "cash": ["cash and equivalents (balance-sheet line)", "cash and cash equivalents (no marketable securities)"],
    "lt_debt": ["long-term debt net of the portion due within a year", "long-term borrowings (noncurrent)"],
    "equity": ["shareholders' equity on the balance sheet", "stockholders' equity at book"],
    "total_equity_incl_nci": ["total equity with minority stakes included", "total equity (NCI counted in)"],
    "cfo": ["operating-activities cash flow", "net CFO (cash flow from operations)"],
    "cfi": ["net CFI", "net cash from investing activities (the investing subtotal)"],
    "cff": ["net CFF", "net cash from financing activities (the financing subtotal)"],
    "capex": ["capital expenditures paid", "fixed-asset purchases (capex)"],
    "dna": ["depreciation-and-amortization charge", "amortization plus depreciation (D&A)"],
    "rnd": ["R&D costs (total)", "R&D spending (research and development)"],
    "sga": ["SG&A costs (total)", "sales, general and admin expense (SG&A)"],
    "interest_expense": ["interest expense as reported", "cost of debt expensed (interest expense)"],
    "income_tax": ["tax expense on earnings (income taxes)", "income tax provision booked"],
    "dividends": ["dividends paid out (cash)", "shareholder dividends paid in cash"],
    "buybacks": ["stock buyback outflow", "share repurchases (cash outflow)"],
    "receivables": ["accounts receivable net of allowance", "customer receivables after allowances"],
    "ppe": ["fixed assets at net book value (PP&E)", "net PP&E carrying amount"],
}

AVG3_RATIO_QUARRY = {"capex": ["capital expenditures paid", "fixed-asset purchases"],
                     "rnd": ["R&D costs", "R&D spending"],
                     "sga": ["SG&A costs", "sales, general and admin expense"]}

# key: (names, definitions)
METRICS_QUARRY = {
    "gross_margin": (["GP%", "gross-profit share of sales"],
                     ["GP / Rev × 100, where GP = gross profit and Rev = total revenue",
                      "the ratio of gross profit to total revenue, in percent"]),
    "operating_margin": (["OPM (operating profit margin)", "EBIT % (on reported operating income)"],
                         ["OI / Rev × 100, where OI = operating income and Rev = total revenue",
                          "what you get by first dividing operating income by revenue, then multiplying the result by 100"]),
    "net_margin": (["NPM (net profit margin)", "net return on revenue"],
                   ["NI / Rev × 100, where NI = net income attributable to the company and Rev = total revenue",
                    "net income attributable to the company over total revenue, with the quotient put in percent"]),
    "roa": (["two-point-average ROA", "net income yield on average assets"],
            ["NI / avgTA × 100, where avgTA = (total assets at the prior year-end + total assets at this year-end) / 2",
             "what you get by first averaging the prior and current year-end total assets, then dividing net income by that average and multiplying by 100"]),
    "roe": (["two-point-average ROE", "net income yield on average equity"],
            ["NI / avgSE × 100, where avgSE = (shareholders' equity at the prior year-end + shareholders' equity at this year-end) / 2",
             "what you get by first averaging the prior and current year-end shareholders' equity, then dividing net income by that average and multiplying by 100"]),
    "asset_turnover": (["two-point-average asset turnover", "revenue/average-assets multiple"],
                       ["Rev / avgTA, where avgTA = (prior year-end total assets + current year-end total assets) / 2",
                        "what you get by first averaging total assets at the two year-ends, then dividing revenue by that average"]),
    "fixed_asset_turnover": (["two-point-average PP&E turnover", "revenue/average-net-PP&E multiple"],
                             ["Rev / avgPPE, where avgPPE = (prior year-end net PP&E + current year-end net PP&E) / 2",
                              "what you get by first averaging net PP&E at the two year-ends, then dividing revenue by that average"]),
    "inventory_turnover": (["two-point-average inventory turnover", "COGS/average-inventory multiple"],
                           ["COGS / avgInv, where avgInv = (prior year-end inventory + current year-end inventory) / 2",
                            "what you get by first averaging inventory at the two year-ends, then dividing cost of sales by that average"]),
    "dso_avg": (["two-point-average DSO", "days' sales in receivables (A/R averaged over the two year-ends)"],
                ["avgAR / Rev × 365, where avgAR = (prior year-end receivables + current year-end receivables) / 2",
                 "what you get by first averaging accounts receivable at the two year-ends, then dividing by revenue and multiplying by 365"]),
    "dso_end": (["closing-balance DSO", "days' sales in year-end receivables"],
                ["AR / Rev × 365, where AR = accounts receivable at the current year-end",
                 "year-end accounts receivable divided by revenue, with the result multiplied by 365"]),
    "quick_ratio": (["acid-test multiple", "quick liquidity (inventory left out)"],
                    ["(CA − Inv) / CL, where CA = total current assets, Inv = inventories and CL = total current liabilities",
                     "what you get by first deducting inventories from total current assets, then dividing what remains by total current liabilities"]),
    "current_ratio": (["current ratio (x covered)", "liquidity cover (current ratio)"],
                      ["CA / CL, where CA = total current assets and CL = total current liabilities",
                       "the ratio of total current assets to total current liabilities"]),
    "interest_coverage": (["TIE multiple on operating income", "interest-servicing cover (operating income basis)"],
                          ["OI / IntExp, where OI = operating income and IntExp = interest expense",
                           "what you get by dividing operating income by interest expense"]),
    "payout": (["DPR (dividend payout ratio, cash basis)", "cash-dividend payout as a % of earnings"],
               ["Div / NI × 100, where Div = cash dividends paid and NI = net income",
                "cash dividends paid divided by net income, with the quotient put in percent"]),
    "ebitda": (["EBITDA (simple build)", "cash-earnings proxy EBITDA (operating income + D&A)"],
               ["OI + DA, where OI = operating income and DA = depreciation and amortization",
                "the amount obtained by adding depreciation and amortization back to operating income"]),
    "ebitda_margin": (["EBITDA % of revenue", "EBITDA margin (simple build)"],
                      ["(OI + DA) / Rev × 100, where OI = operating income, DA = depreciation and amortization and Rev = total revenue",
                       "what you get by first adding D&A to operating income, then dividing by revenue and multiplying by 100"]),
    "ebitda_less_capex": (["EBITDA minus capex (simple build)", "EBITDA less capital expenditures paid"],
                          ["OI + DA − Capex, where Capex = cash paid for property, plant and equipment",
                           "what you get by first adding D&A to operating income, then subtracting capital expenditures"]),
    "working_capital": (["NWC in dollars", "working-capital position (CA minus CL)"],
                        ["CA − CL, where CA = total current assets and CL = total current liabilities (can be negative)",
                         "the amount obtained by subtracting total current liabilities from total current assets"]),
    "cash_conversion": (["operating cash conversion of earnings (x)", "cash-earnings quality ratio (CFO/NI)"],
                        ["CFO / NI, where CFO = net cash from operating activities and NI = net income",
                         "the ratio of net cash provided by operating activities to net income"]),
    "ocf_ratio": (["CFO cover of current liabilities (x)", "cash-flow liquidity multiple"],
                  ["CFO / CL, where CL = total current liabilities at the current year-end",
                   "net cash from operating activities divided by year-end total current liabilities"]),
    "rnd_pct": (["R&D-to-sales %", "R&D as a percent of net revenue"],
                ["R&D / Rev × 100, where Rev = total revenue",
                 "R&D expense divided by revenue, with the quotient put in percent"]),
    "sga_pct": (["SG&A-to-sales %", "overhead (SG&A) as a percent of revenue"],
                ["SGA / Rev × 100, where SGA = selling, general and administrative expense and Rev = total revenue",
                 "SG&A expense divided by revenue, with the quotient put in percent"]),
    "capex_pct": (["capex-to-sales %", "capital expenditures as a percent of revenue"],
                  ["Capex / Rev × 100, where Capex = cash paid for property, plant and equipment and Rev = total revenue",
                   "the ratio of capital expenditures to revenue, in percent"]),
    "fcf": (["FCF (simple build)", "free cash flow (operating cash flow after capex)"],
            ["CFO − Capex, where CFO = net cash from operating activities and Capex = purchases of PP&E",
             "the amount obtained by subtracting capital expenditures from net cash from operating activities"]),
    "debt_to_equity": (["LTD/E (long-term debt to equity)", "long-term leverage multiple"],
                       ["LTD / SE, where LTD = long-term debt excluding the current portion and SE = total shareholders' equity",
                        "non-current long-term debt divided by shareholders' equity"]),
    "etr": (["ETR as reported (income tax over pretax income)", "income-tax share of pretax income"],
            ["Tax / PTI × 100, where Tax = income tax expense and PTI = income before income taxes",
             "income tax expense divided by pretax income, with the quotient put in percent"]),
}

ITEM_TEMPLATES["quarry"] = [
    "Equity research intern here -- filling in a model for {co}. Which value goes in for {item} {per}{scale}?",
    "I:What amount appears for {item} on {co}'s statement of financial condition {per}{scale}?",
    "{Per}, the {item} of {co} came in at what amount{scale}?",
    "L:lookup -- {co} / {item} / {per}{scale}",
    "X:In {co}'s income statement {per}, what amount is reported as {item}{scale}?",
    "Reporter at a trade paper. I need {co}'s {item} {per}{scale}, as printed in the annual report.",
    "Auditor tickmark: agree {co}'s {item} {per} to the 10-K. Amount{scale}?",
    "Banker prepping a pitch for {co}; can you confirm the {item} {per}{scale}?",
    "My finance homework asks for {co}'s {item} {per}{scale}. What is the figure?",
    "Hi there, new to investing. What figure did {co} give for {item} {per}{scale}?",
    "I am analyst from abroad. Please give me the {item} of {co} {per}{scale}.",
    "Context: I'm reconciling {co}'s numbers across two data vendors and they disagree. Question: {item} {per}{scale}?",
    "I:{co} balance sheet, {per}: what is shown for {item}{scale}?",
    "{item} {per} at {co}{scale} -- what number did they file?",
]

CHANGE_ABS_TEMPLATES["quarry"] = [
    "Two numbers from {co}'s filing: (a) {item} for {y1}, (b) {item} for {y0}. What is (a) minus (b){scale}?",
    "F:Did {co}'s {item} climb or slide between {p0} and {p1}? Report the change with its sign{scale}.",
    "I:How far did {co}'s {item} travel between {p0} and {p1}, in dollars and with its sign{scale}?",
    "L:{co} {item}: {y1} minus {y0}, signed{scale}",
    "Headline draft: \"{co}'s {item} moved by $X from {p0} to {p1}.\" What is X{scale}? Use a negative X if it fell.",
    "Accounting student: my classmate and I get different signs for the change in {co}'s {item} from {p0} to {p1}. What is the correct change{scale}?",
    "Sell-side model check -- change in {co}'s {item}, {p0} to {p1} (current less prior){scale}?",
    "I:Between {p0} and {p1}, did {co}'s {item} expand or shrink, and by how many dollars{scale}?",
    "F:For {co}, how big was the year-on-year shift in {item} from {p0} to {p1}, in dollars? Keep the sign{scale}.",
]

CHANGE_PCT_TEMPLATES["quarry"] = [
    "F:Relative to the {y0} base, by how many percent did {co}'s {item} grow or shrink in {p1}{fmt}?",
    "g = {y1} / {y0} − 1, shown in percent. Compute g for {co}'s {item}{fmt}.",
    "L:{co} {item} growth pct, {y0} vs {y1}{fmt}",
    "Buy-side PM here, putting {co}'s {item} next to CPI. First I need its percent change from {p0} to {p1}{fmt}.",
    "I:{co}'s {item}: from {p0} to {p1}, what percent up or down{fmt}?",
    "Please tell me how much percent the {item} of {co} changed from {p0} to {p1}{fmt}.",
    "For a bank credit review I'm tracking {co}'s {item}. % change from {p0} to {p1}{fmt}? Negative if it dropped.",
    "F:Year over year, {co}'s {item} grew (or fell) by what percentage in {p1} versus {p0}{fmt}?",
]

AVG_BAL_TEMPLATES["quarry"] = [
    "Denominator for a return ratio: {co}'s {item} averaged between the {y0} and {y1} year-ends{scale}?",
    "L:{co} {item}: midpoint of the {y0} and {y1} year-end balances{scale}?",
    "I'm an auditor building an expectation. What is {co}'s {item} averaged over the balance sheets at the start and end of {p1}{scale}?",
    "Average {item} for {co} in {p1}, where average = (balance at the end of {y0} + balance at the end of {y1}) / 2{scale}?",
    "Kindly help -- for {co} I must compute the average {item} of {p1}, meaning the {y0} year-end and {y1} year-end amounts added and divided by 2. What is the result{scale}?",
]

AVG3_TEMPLATES["quarry"] = [
    "Normalizing {co}'s {item} over a cycle: what's the per-year average across {span}{scale}?",
    "L:{co} {item} avg of {y2}, {y0}, {y1}{scale}",
    "Three data points -- {co}'s {item} in {y2}, {y0} and {y1}. Their mean{scale}?",
    "Private credit lender here. I look at average annual {item} over {span}; what is it for {co}{scale}?",
    "What did {co} average in {item} per fiscal year over {span}{scale}?",
]

AVG3_RATIO_TEMPLATES["quarry"] = [
    "I want the average of three yearly percentages for {co}: {metric} as a share of that year's revenue, over {span}{fmt}.",
    "L:{co} avg({metric} / rev) over {span}, yearly ratios averaged, in %{fmt}",
    "Industry analyst question -- across {span}, what percent of revenue did {co} put toward {metric} in a typical year? Use the mean of the three annual ratios, not cumulative totals{fmt}.",
    "Mean over {y2}, {y0} and {y1} of ({metric} ÷ that year's revenue × 100) for {co}{fmt}?",
]

METRIC_TEMPLATES["quarry"] = {
    "plain": [
        "Sell-side desk note: need {co}'s {metric} {per}{fmt}.",
        "{Per}, how did {co} do on {metric}{fmt}?",
        "L:{metric} -- {co} -- {per}{fmt}?",
        "A credit analyst asked me for {co}'s {metric} {per}. What is it{fmt}?",
        "Please compute the {metric} of {co} {per}{fmt}. I am not so good with formulas.",
        "Retail shareholder here. People online argue about {co}'s {metric} {per}. What does the 10-K actually give{fmt}?",
        "Bank coverage team, prepping a pitch on {co}: what does the {metric} come to {per}{fmt}?",
        "Audit senior here -- recalculating {co}'s {metric} {per} for our planning memo{fmt}.",
    ],
    "defn": [
        "Let {metric} be {defn}. Evaluate it for {co} {per}{fmt}.",
        "Context: our screen defines {metric} as {defn}. Question: {co}'s value {per}{fmt}?",
        "How much is {co}'s {metric} {per} if it is taken to be {defn}{fmt}?",
        "L:{co} {metric} {per}, defn = {defn}{fmt}",
        "Exam prep: {metric} is {defn}. Work it out for {co} {per}{fmt}.",
        "We're a ratings team and our {metric} is {defn}. What is {co}'s reading {per}{fmt}?",
        "Please calculate {metric} for {co} {per}{fmt}. Our definition: {defn}.",
        "Buy-side analyst, using {metric} = {defn}: what comes out for {co} {per}{fmt}?",
    ],
}

COMPARE_TEMPLATES["quarry"] = [
    "{A} and {B} both file 10-Ks. {Per}, which posted the {adj} {metric}?",
    "Pick one -- {A} or {B} -- with the {adj} {metric} {per}.",
    "L:{metric} {per}: {A} vs {B}, who's {win}?",
    "I hold bonds of both {A} and {B}. {Per}, whose {metric} was {adj}?",
    "Compare {A}'s {metric} with {B}'s {per}: which company's number is {adj}?",
    "For a market column: {per}, was {A} or {B} the one with the {adj} {metric}?",
    "{A} and {B} both file 10-Ks. {Per}, which reported {more} {item}?",
    "Pick one -- {A} or {B} -- with the {adj} {item} {per}.",
    "L:{item} {per}: {A} vs {B}, who's {win}?",
    "I hold bonds of both {A} and {B}. {Per}, whose {item} was {adj}?",
    "Which of the pair had {more} {item} {per}: {B} or {A}?",
    "For a market column: {per}, was {A} or {B} the company with {more} {item}?",
]


def compare_period_quarry(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"as of their FY-{yy(a.fy)} year-ends", f"at each company's F/Y {a.fy} balance-sheet date"]
            if dec31:
                opts.append(f"once the books closed on {date_us(a.F.fy_end)}")
        else:
            opts = [f"for FY-{yy(a.fy)}", f"in the {a.fy} reporting year of each company"]
            if dec31:
                opts.append(f"for the fiscal year that finished on {date_us(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        return rng.choice([f"at the end of each company's most recently filed year ({na}: {date_eu(a.F.fy_end)}; {nb}: {date_eu(b.F.fy_end)})",
                           f"as of the FY-{yy(a.fy)} year-end for {na} and the FY-{yy(b.fy)} year-end for {nb}"])
    return rng.choice([f"for the fiscal years that finished on {date_us(a.F.fy_end)} ({na}) and {date_us(b.F.fy_end)} ({nb})",
                       f"each in its last completed fiscal year ({na}: FY-{yy(a.fy)}; {nb}: FY-{yy(b.fy)})"])

# ---------------------------------------------------------------------------------------
# Thirteenth wording set ("summit")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the twelve earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. A broad mix of people (equity and credit
# analysts, portfolio managers, bankers, auditors, management consultants, students, podcasters and
# journalists, retirees and other retail holders, terse chat-box typists, non-native English
# writers, people who paste context before the question), questions, imperatives, statements of
# need and multi-sentence requests, with the company and period at the start, middle or end;
# periods as fiscal-year words with spaced two-digit years, year-end dates with the month spelled
# out (with the weekday, year-first with a short month, or in the DDMONYYYY banking style), the
# length of 52/53-week years, the last weekday of a month for such years, month-to-month ranges and
# relative forms anchored on the latest audited year; unit and rounding requests in varied forms;
# metrics named as analysts and other readers name them and defined as spreadsheet formulas,
# t / t-1 subscript formulas, ratio colons or short procedures. Template flags as for novel /
# vault / ledger / atlas / zenith / harbor / quarry (F:, I:, X:, L:). Like vault, atlas, zenith,
# harbor and quarry, a held-out set: not to be printed or quoted where the engine's builders read.

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def date_wd(d):
    """weekday, full month, day and year (month spelled, so it cannot be misread)"""
    return f"{WEEKDAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}, {d.year}"


def date_ymon(d):
    """year, short month and day with dashes (month spelled, so it cannot be misread)"""
    return f"{d.year}-{MON3[d.month - 1]}-{d.day:02d}"


def date_sas(d):
    """DDMONYYYY, as banking and statistics systems print dates (month spelled)"""
    return f"{d.day:02d}{MON3[d.month - 1].upper()}{d.year}"


def fy_weeks(co, fy):
    """52 or 53 when fiscal year fy is a whole number of weeks of that length (else None)"""
    s, e = start_date(co, fy), co.end_date(fy)
    if s is None or e is None:
        return None
    n = (e - s).days + 1
    return n // 7 if n % 7 == 0 and n // 7 in (52, 53) else None


def last_weekday(d):
    """'the last Saturday of September 2024', only when d is in the month's last week but not its last day"""
    ndays = calendar.monthrange(d.year, d.month)[1]
    if d.day == ndays or d.day <= ndays - 7:
        return None
    return f"the last {WEEKDAYS[d.weekday()]} of {MONTHS[d.month - 1]} {d.year}"


def month_pair(co, fy):
    """'Oct–Sep', only for a non-January start early in a month and an end late in one (else None)"""
    s, e = start_date(co, fy), co.end_date(fy)
    if s is None or e is None or s.day > 7 or e.day < 20 or s.month == 1:
        return None
    return f"{MON3[s.month - 1]}–{MON3[e.month - 1]}"


def dur_phrases_summit(co, fy):
    end = co.end_date(fy)
    out = [f"in FY {yy(fy)}", f"for the year ending {date_wd(end)}", f"for the fiscal year through {date_ymon(end)}"]
    if fy_weeks(co, fy):
        out += [f"for the {fy_weeks(co, fy)}-week fiscal year ended {date_eu(end)}"]
    if last_weekday(end):
        out += [f"for the fiscal year that ended on {last_weekday(end)}"]
    if month_pair(co, fy):
        out += [f"for the {month_pair(co, fy)} fiscal year that ended in {MONTHS[end.month - 1]} {end.year}"]
    if fy == co.fy:
        out += [f"in FY {yy(fy)}, its most recently audited fiscal year", f"in {fy}, the year its newest 10-K reports on"]
    if fy == co.fy - 1:
        out += [f"in FY {yy(fy)}, the year before its most recently audited one"]
    return out


def inst_phrases_summit(co, fy):
    end = co.end_date(fy)
    out = [f"at the close of {date_wd(end)}", f"as of {date_sas(end)}", f"on the {date_ymon(end)} balance sheet",
           f"at the FY {yy(fy)} balance-sheet date"]
    if last_weekday(end):
        out += [f"as of {last_weekday(end)}, its fiscal year-end"]
    if fy == co.fy:
        out += [f"on its most recently audited balance sheet, dated {date_ymon(end)}"]
    if fy == co.fy - 1:
        out += [f"on its prior audited balance sheet, dated {date_ymon(end)}"]
    return out


def yr_forms_summit(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for summit."""
    y0, y1 = fy - 1, fy
    if instant:
        style = rng.choice(["sas", "ymon", "bsd"])
        f = {"sas": lambda y: date_sas(co.end_date(y)), "ymon": lambda y: f"the {date_ymon(co.end_date(y))} year-end",
             "bsd": lambda y: f"the FY {yy(y)} balance-sheet date"}[style]
    else:
        style = rng.choice(["fy", "wd", "thru", "weeks", "pair"])
        if style == "weeks" and not (fy_weeks(co, y0) and fy_weeks(co, y1)):
            style = "fy"
        if style == "pair" and not (month_pair(co, y0) and month_pair(co, y1)):
            style = "wd"
        f = {"fy": lambda y: f"FY {yy(y)}", "wd": lambda y: f"the year ending {date_wd(co.end_date(y))}",
             "thru": lambda y: f"the fiscal year through {date_ymon(co.end_date(y))}",
             "weeks": lambda y: f"the {fy_weeks(co, y)}-week fiscal year ended {date_eu(co.end_date(y))}",
             "pair": lambda y: (f"the {month_pair(co, y)} fiscal year that ended in "
                                f"{MONTHS[co.end_date(y).month - 1]} {co.end_date(y).year}")}[style]
    lab = rng.choice(["FY {yy}", "FYE {y}"])
    return f(y0), f(y1), lab.format(yy=yy(y0), y=y0), lab.format(yy=yy(y1), y=y1)


def span_summit(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    return rng.choice([f"FY {yy(fy - 2)}, FY {yy(fy - 1)} and FY {yy(fy)}",
                       f"its three most recently audited fiscal years ({fy - 2}–{fy})",
                       f"the {fy - 2}/{yy(fy - 1)}/{yy(fy)} fiscal years"])


ITEM_LABELS_SUMMIT = {
    "revenue": ["consolidated top line", "sales (total revenues)"],
    "cogs": ["COGS (total cost of sales)", "overall cost of sales"],
    "gross_profit": ["GP (sales minus cost of sales)", "gross profit in USD"],
    "operating_income": ["earnings from operations (operating income)", "operating income after all operating costs"],
    "net_income": ["company-attributable net income", "net income excluding the noncontrolling-interest share"],
    "eps_diluted": ["earnings per share assuming dilution", "per-share earnings on a diluted count"],
    "total_assets": ["total consolidated assets", "summed assets (total assets)"],
    "total_liabilities": ["total consolidated liabilities", "summed liabilities (total liabilities)"],
    "current_assets": ["current assets in full", "aggregate current assets"],
    "current_liabilities": ["current liabilities in full", "aggregate current liabilities"],
    "inventory": ["inventories as stated", "inventory book value"],
    "cash": ["ready cash (cash and cash equivalents)", "cash plus equivalents held"],
    "lt_debt": ["long-term debt (noncurrent portion only)", "long-term debt shown outside current liabilities"],
    "equity": ["stockholders' equity in the accounts", "shareholders' equity at book value"],
    "total_equity_incl_nci": ["equity total counting minority holders", "NCI-inclusive total equity"],
    "cfo": ["net operating-activities cash", "CFO (net operating cash)"],
    "cfi": ["net investing-activities cash", "CFI (net investing cash)"],
    "cff": ["net financing-activities cash", "CFF (net financing cash)"],
    "capex": ["PP&E acquired for cash (capex)", "fixed-asset capex"],
    "dna": ["all-in D&A", "total depreciation-plus-amortization"],
    "rnd": ["R&D investment (expensed)", "expensed R&D"],
    "sga": ["SG&A (selling, general and administrative)", "selling plus general-and-administrative expense"],
    "interest_expense": ["interest expense booked in the P&L", "expense for interest"],
    "income_tax": ["income taxes charged against earnings", "tax expense (income taxes)"],
    "dividends": ["cash paid to shareholders as dividends", "dividend outflow per the cash flow statement"],
    "buybacks": ["cash paid to buy back stock", "cash-basis stock repurchases"],
    "receivables": ["net amounts due from customers", "A/R net of doubtful accounts"],
    "ppe": ["net plant and equipment (PP&E)", "net PP&E on the books"],
}

AVG3_RATIO_SUMMIT = {"capex": ["fixed-asset capex", "PP&E acquired for cash"],
                     "rnd": ["expensed R&D", "R&D expenditure"],
                     "sga": ["selling plus G&A expense", "SG&A (selling, general and administrative)"]}

# key: (names, definitions)
METRICS_SUMMIT = {
    "gross_margin": (["gross profit ratio", "GM (gross profit as % of sales)"],
                     ["=100*GrossProfit/TotalRevenue (spreadsheet notation)",
                      "gross profit for the year divided by total revenue for the year, times one hundred"]),
    "operating_margin": (["operating income ratio", "operating ROS (return on sales)"],
                         ["100 · OI_t / Rev_t, with OI = operating income and Rev = total revenue",
                          "take operating income, divide it by total revenue, and state the result in percent"]),
    "net_margin": (["net income ratio", "net ROS (net income on sales)"],
                   ["=100*NetIncomeAttributable/TotalRevenue (Excel)",
                    "net income attributable to the company out of total revenue, as a percent"]),
    "roa": (["ROA (average-balance denominator)", "net return on averaged total assets"],
            ["=100*NetIncome/AVERAGE(TotalAssets_PriorYE,TotalAssets_CurrentYE) (spreadsheet notation)",
             "add the prior and current year-end total assets, halve the sum, divide net income by the result, and multiply by 100"]),
    "roe": (["ROE (average-balance denominator)", "net return on averaged shareholders' equity"],
            ["100 · NI_t / ((SE_{t-1} + SE_t) / 2), with NI = net income and SE = shareholders' equity at each year-end",
             "add the prior and current year-end shareholders' equity, halve the sum, divide net income by the result, and multiply by 100"]),
    "asset_turnover": (["average-asset turnover", "total asset turnover (averaged denominator)"],
                       ["Rev_t / ((TA_{t-1} + TA_t) / 2), with Rev = total revenue and TA = total assets at each year-end",
                        "=TotalRevenue/AVERAGE(TotalAssets_PriorYE,TotalAssets_CurrentYE) (Excel)"]),
    "fixed_asset_turnover": (["average net fixed-asset turnover", "PP&E turnover (averaged denominator)"],
                             ["Rev_t / ((PPE_{t-1} + PPE_t) / 2), with PPE = net property, plant and equipment at each year-end",
                              "average the prior and current year-end net PP&E, then divide total revenue by that average"]),
    "inventory_turnover": (["average-inventory turnover", "inventory turnover (COGS over averaged stock)"],
                           ["COGS_t / ((Inv_{t-1} + Inv_t) / 2), with Inv = inventories at each year-end",
                            "=CostOfSales/AVERAGE(Inventory_PriorYE,Inventory_CurrentYE) (spreadsheet notation)"]),
    "dso_avg": (["A/R days (averaged balance)", "receivables turnover in days (average A/R)"],
                ["365 · ((AR_{t-1} + AR_t) / 2) / Rev_t, with AR = accounts receivable at each year-end and Rev = total revenue",
                 "average the prior and current year-end receivables, divide by total revenue, then multiply by 365"]),
    "dso_end": (["A/R days (ending balance)", "receivables turnover in days (closing A/R)"],
                ["365 · AR_t / Rev_t, with AR_t = accounts receivable at the current year-end and Rev_t = total revenue",
                 "=365*Receivables_CurrentYE/TotalRevenue (Excel)"]),
    "quick_ratio": (["acid-test cover (current assets less stock)", "quick ratio on a CA-minus-inventories basis"],
                    ["=(CurrentAssets-Inventories)/CurrentLiabilities (spreadsheet notation)",
                     "(current assets − inventories) : current liabilities, read as a multiple"]),
    "current_ratio": (["current ratio in times", "short-term solvency ratio (current ratio)"],
                      ["=CurrentAssets/CurrentLiabilities (Excel)", "current assets : current liabilities, read as a multiple"]),
    "interest_coverage": (["operating income-to-interest multiple", "EBIT interest coverage (x)"],
                          ["OI_t / IntExp_t, with OI = operating income and IntExp = interest expense",
                           "take operating income and divide it by interest expense"]),
    "payout": (["dividends-to-net-income ratio (%)", "earnings payout in cash dividends (%)"],
               ["=100*DividendsPaid/NetIncome (spreadsheet notation)",
                "100 · Div_t / NI_t, with Div = cash dividends paid and NI = net income"]),
    "ebitda": (["EBITDA (EBIT-plus-D&A build)", "reported-basis EBITDA (operating income + D&A)"],
               ["=OperatingIncome+DepreciationAndAmortization (Excel)",
                "OI_t + DA_t, i.e. operating income plus depreciation and amortization with no other add-backs"]),
    "ebitda_margin": (["EBITDA margin (EBIT-plus-D&A build)", "EBITDA as a percent of sales"],
                      ["100 · (OI_t + DA_t) / Rev_t, with OI = operating income, DA = depreciation and amortization and Rev = total revenue",
                       "add D&A to operating income, divide by total revenue, and multiply by 100"]),
    "ebitda_less_capex": (["EBITDA minus capex (EBIT-plus-D&A build)", "pre-tax cash proxy (EBITDA less capex)"],
                          ["=OperatingIncome+DepreciationAndAmortization-Capex (spreadsheet notation)",
                           "OI_t + DA_t − Capex_t, with OI = operating income, DA = depreciation and amortization and Capex = cash paid for property, plant and equipment"]),
    "working_capital": (["balance-sheet working capital", "reported working capital (CA less CL)"],
                        ["=CurrentAssets-CurrentLiabilities (Excel)",
                         "current assets with current liabilities netted against them (a negative result is possible)"]),
    "cash_conversion": (["quality-of-earnings ratio (CFO ÷ net income)", "OCF-to-earnings cover"],
                        ["CFO_t / NI_t, with CFO = net cash provided by operating activities and NI = net income",
                         "=OperatingCashFlow/NetIncome (spreadsheet notation)"]),
    "ocf_ratio": (["cash coverage of current liabilities (CFO basis)", "CFO-to-CL ratio"],
                  ["CFO_t / CL_t, with CFO = net cash from operating activities and CL_t = total current liabilities at the current year-end",
                   "=OperatingCashFlow/CurrentLiabilities_CurrentYE (Excel)"]),
    "rnd_pct": (["R&D share of sales (%)", "R&D spending as a percent of the top line"],
                ["=100*ResearchAndDevelopment/TotalRevenue (spreadsheet notation)",
                 "100 · RD_t / Rev_t, with RD = research and development expense and Rev = total revenue"]),
    "sga_pct": (["SG&A share of sales (%)", "SG&A as a percent of the top line"],
                ["100 · SGA_t / Rev_t, with SGA = selling, general and administrative expense and Rev = total revenue",
                 "=100*SGandA/TotalRevenue (Excel)"]),
    "capex_pct": (["capex share of sales (%)", "capex as a percent of the top line"],
                  ["100 · Capex_t / Rev_t, with Capex = purchases of property, plant and equipment and Rev = total revenue",
                   "divide capital expenditures by total revenue and express the answer in percent"]),
    "fcf": (["FCF (basic build: CFO − capex)", "operating cash left after capex"],
            ["=OperatingCashFlow-Capex (spreadsheet notation)",
             "CFO_t − Capex_t, with CFO = net cash from operating activities and Capex = purchases of property, plant and equipment"]),
    "debt_to_equity": (["long-term D/E (x)", "noncurrent-debt-to-equity multiple"],
                       ["LTD_t / SE_t, with LTD = long-term debt excluding current maturities and SE = shareholders' equity",
                        "=LongTermDebtNoncurrent/ShareholdersEquity (Excel)"]),
    "etr": (["book tax rate (%)", "tax provision as a share of pretax profit"],
            ["=100*IncomeTaxExpense/PretaxIncome (spreadsheet notation)",
             "take income tax expense, divide it by income before income taxes, and express the answer in percent"]),
}

ITEM_TEMPLATES["summit"] = [
    "On the face of {co}'s financial statements, which figure goes with {item} {per}{scale}?",
    "L:{item} @ {co}, {per}{scale}?",
    "Please can you inform me {co}'s {item} {per}{scale}?",
    "Before adding {co}'s notes to our fixed-income book I want to see its {item} {per}{scale}. What was it?",
    "Management consultant, first week on the {co} engagement: what {item} did the company disclose {per}{scale}?",
    "Podcast prep -- we're discussing {co} tomorrow. Can you give me its {item} {per}{scale}?",
    "X:P&L question on {co}: {item} {per}{scale}?",
    "I:Snapshot question: {co}'s {item} {per}{scale}?",
    "Wire-service style: {co}'s {item} stood at $____ {per}. Fill in the blank{scale}.",
    "{co}, {per} -- {item}{scale}: just the number.",
    "Retiree with a few {co} shares here. What did the company report as its {item} {per}{scale}?",
    "Building a covenant test for {co}: I need the {item} {per}{scale}.",
    "{Per}, what {item} did {co} put in its annual report{scale}?",
    "I:Balance-sheet figure needed: {co}'s {item} {per}{scale}.",
]

CHANGE_ABS_TEMPLATES["summit"] = [
    "Spreadsheet check: cell A1 holds {co}'s {item} for {y0} and B1 holds it for {y1}. What does =B1-A1 return{scale}?",
    "F:How many dollars separate {co}'s {item} in {p1} from its level in {p0}? Positive if it grew, negative if it fell{scale}.",
    "I:Compare {co}'s {item} at {p1} with the amount at {p0}: what is the later figure less the earlier one{scale}?",
    "L:{item} change @ {co}, {y0} to {y1}{scale}?",
    "Management consultant here, sizing how {co}'s {item} developed from {p0} to {p1}. Net dollar increase or decrease{scale}?",
    "Covenant monitoring for {co}: {item}, {y1} against {y0}. Report the difference, current year minus prior year{scale}.",
    "I'm new to reading 10-Ks. Going from {p0} to {p1}, did {co}'s {item} gain or lose dollars, and how many{scale}? A loss should be negative.",
    "Can you calculate for me the increment in {co}'s {item} from {p0} to {p1}{scale}? If it is decrement, put minus sign.",
    "Audit flux review -- {co}'s {item}, {p1} compared with {p0}: dollar flux, current less prior{scale}?",
]

CHANGE_PCT_TEMPLATES["summit"] = [
    "In spreadsheet terms: A1 = {co}'s {item} for {y0}, B1 = the same line for {y1}. What is =B1/A1-1, shown as a percentage{fmt}?",
    "F:At what percentage rate did {co}'s {item} move in {p1} against {p0}{fmt}? Show a decline as negative.",
    "I:Between {p0} and {p1}, {co}'s {item} changed by what percent of the opening value{fmt}?",
    "L:{item} @ {co}: % diff, {y1} over {y0}{fmt}",
    "Consultant's slide needs a growth figure: how much, in percent, did {co}'s {item} change from {p0} to {p1}, taking the {y0} amount as the base{fmt}?",
    "I want to ask by how many percent {co}'s {item} increased from {p0} to {p1}{fmt}. If it decreased, give a minus number.",
    "Our audit team follows up on any move above 10%. By what percent did {co}'s {item} go up or down from {p0} to {p1}{fmt}?",
    "F:Portfolio manager asking: did {co} grow its {item} in {p1}? Give the change versus {p0} in percent{fmt}.",
]

AVG_BAL_TEMPLATES["summit"] = [
    "For {co}, what does =AVERAGE(closing {item} {y0}, closing {item} {y1}) give{scale}?",
    "I need a two-date average of {co}'s {item}: the {y0} closing balance and the {y1} closing balance, averaged{scale}.",
    "L:{item} @ {co}: mean of closing bal. {y0} & {y1}{scale}",
    "Can you tell me please the average {item} of {co} for {p1}? Average means the balance at the beginning of the year plus the balance at the end, divided by two{scale}.",
    "Consultant building a returns benchmark: {co}'s mean {item} across {p1}, based on the balance sheets that open and close the year{scale}?",
]

AVG3_TEMPLATES["summit"] = [
    "For {co}'s {item}, what does =AVERAGE({y2}, {y0}, {y1}) return{scale}?",
    "For a base-rate estimate I need {co}'s per-year mean {item} over {span}{scale}.",
    "L:{item} @ {co}, avg per yr over {span}{scale}",
    "I want to ask the average yearly {item} of {co} for {y2}, {y0} and {y1}{scale}: the sum of the three years divided by three.",
    "Podcast fact sheet: {co}'s {item} in a typical year over {span}, measured as the simple average{scale}?",
]

AVG3_RATIO_TEMPLATES["summit"] = [
    "Make three percentages -- {co}'s {metric} over revenue in {y2}, in {y0} and in {y1} -- then average them{fmt}.",
    "L:{metric}/sales @ {co}, yearly %, averaged over {span}{fmt}",
    "Consultant benchmark: on average across {span}, what percent of {co}'s revenue went to {metric}? The answer should be the mean of the three one-year figures, not a ratio of three-year sums{fmt}.",
    "Can you compute for {co} the average of the yearly percentages of {metric} to revenue for {y2}, {y0} and {y1}{fmt}?",
]

METRIC_TEMPLATES["summit"] = {
    "plain": [
        "L:{metric} @ {co}, {per}{fmt}",
        "Management consultant on the {co} project: I need its {metric} {per}{fmt}.",
        "Podcast prep: what was {co}'s {metric} {per}{fmt}?",
        "{Per}, {co}'s {metric} -- number only{fmt}.",
        "Retiree holding {co} here. My broker mentioned {metric}; what was it {per}{fmt}?",
        "Covenant package review: {metric} for {co} {per}{fmt}?",
        "Please can you calculate {co}'s {metric} {per}{fmt}? I need it for my report.",
        "Wire-service style: {co}'s {metric} came to ____ {per}. Fill in the blank{fmt}.",
    ],
    "defn": [
        "{co}, {per}: compute {metric}{fmt}. Formula on file -- {defn}.",
        "Covenant definition for {metric}: {defn}. Test it on {co} {per}{fmt}.",
        "L:{co} {per}, {metric}{fmt}. formula: {defn}",
        "Management consultant here. Our toolkit's recipe for {metric}: {defn}. Apply it to {co} {per}{fmt}.",
        "My teacher gave this formula for {metric}: {defn}. Can you do it for {co} {per}{fmt}?",
        "Step by step, please -- {co}'s {metric} {per}{fmt}. How to get it: {defn}.",
        "A podcast guest quoted {co}'s {metric} {per}. Check the number for me{fmt}. Definition I'd use: {defn}.",
        "Retiree here, learning ratios from a book. Its formula for {metric}: {defn}. What does {co} score {per}{fmt}?",
    ],
}

COMPARE_TEMPLATES["summit"] = [
    "My hunch is {A} had the {adj} {metric} {per}, but it might be {B}. Which was it?",
    "L:{metric} {per}, {A} vs {B}: the {win} one is?",
    "Management consultant benchmarking {A} against {B}: {per}, which of them shows a {win} {metric}?",
    "Can you say whose {metric} is {adj} {per} -- {A} or {B}?",
    "Podcast debate: {A} vs {B} on {metric} {per}. Which company's figure was {adj}?",
    "Covenant-style peer test, {per}: does {A} or {B} show the {adj} {metric}?",
    "Someone told me {B} had {more} {item} than {A} {per}. Which of the two actually did?",
    "L:{item} {per}: who had {more}, {A} or {B}?",
    "Retiree with shares in both {A} and {B}: {per}, which of my two companies had {more} {item}?",
    "For the podcast: {per}, was there {more} {item} at {A} or at {B}?",
    "Of {B} and {A}, I need the one with the {adj} {item} {per}. Which is it?",
    "Consultant's two-company benchmark, {per}: {item} -- which firm is {win}?",
]


def compare_period_summit(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"at their FY {yy(a.fy)} balance-sheet dates", f"on each one's most recently audited balance sheet (FY {yy(a.fy)})"]
            if dec31:
                opts.append(f"on {date_wd(a.F.fy_end)}")
        else:
            opts = [f"in FY {yy(a.fy)}", f"across each company's fiscal {a.fy}"]
            if dec31:
                opts.append(f"for the year ending {date_wd(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        return rng.choice([f"on their most recently audited balance sheets ({na}: {date_ymon(a.F.fy_end)}; {nb}: {date_ymon(b.F.fy_end)})",
                           f"as of {date_sas(a.F.fy_end)} for {na} and {date_sas(b.F.fy_end)} for {nb}"])
    return rng.choice([f"in each one's most recently audited fiscal year ({na}: FY {yy(a.fy)}; {nb}: FY {yy(b.fy)})",
                       f"for the years ending {date_wd(a.F.fy_end)} ({na}) and {date_wd(b.F.fy_end)} ({nb})"])


# ---------------------------------------------------------------------------------------
# Fourteenth wording set ("tundra")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the thirteen earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. The people who write about 10-Ks in
# their working formats: investor-relations e-mails and replies, sell-side model-update and
# estimate-versus-actual notes, credit committee memos and pre-reads, terse terminal-style queries,
# CFA-exam-style items (some multiple choice between two companies), questions placed after a
# paragraph of background, questions with a hedge or a typo; periods named by the fiscal year-end
# month and year (numeric month/year only when the year-end falls on or after the 20th, so the
# month is the one the year closes in), year-first dotted dates (only when the day is after the
# 12th), spoken dates, and relative forms anchored on the latest 10-K (the year just ended, the
# comparative year, the beginning of the latest fiscal year, two years back); unit and rounding
# requests in varied forms; metrics named by acronyms written with dots or in lower case (each
# with its basis spelled out) and defined as spreadsheet formulas over cell references with a
# legend, or in prose; comparisons asking in varied ways which company leads or trails the other,
# always pinned to the higher or lower figure.
# Template flags as for novel / vault / ledger / atlas / zenith / harbor / quarry / summit (F:, I:,
# X:, L:). Like vault, atlas, zenith, harbor, quarry and summit, a held-out set: not to be printed
# or quoted where the engine's builders read.

def date_spoken(d):
    """month, 'the', ordinal day and year, as people say it (month spelled, so it cannot be misread)"""
    return f"{MONTHS[d.month - 1]} the {ordinal(d.day)}, {d.year}"


def date_ydot(d):
    """year.month.day, only when the day cannot be read as a month (day > 12; else None)"""
    return f"{d.year}.{d.month:02d}.{d.day:02d}" if d.day > 12 else None


def fye_my(d):
    """month/year of a fiscal year-end, only when it falls late in its month (so the month is the closing one; else None)"""
    return f"{d.month:02d}/{d.year}" if d is not None and d.day >= 20 else None


def dur_phrases_tundra(co, fy):
    end = co.end_date(fy)
    out = [f"for the year ended {date_spoken(end)}", f"for fiscal-year {fy} as filed"]
    if fye_my(end):
        out += [f"for FYE {fye_my(end)}", f"in the fiscal year ended {fye_my(end)}"]
    if date_ydot(end):
        out += [f"in the year to {date_ydot(end)}"]
    if fy == co.fy:
        out += ["in the year just ended", f"in the fiscal year just ended ({fy})"]
    if fy == co.fy - 1:
        out += [f"in the comparative year (FY{fy})", f"in the year before the one just ended (FY{fy})"]
    return out


def inst_phrases_tundra(co, fy):
    end = co.end_date(fy)
    out = [f"as of {date_spoken(end)}", f"on the fiscal-year {fy} balance sheet as filed"]
    if fye_my(end):
        out += [f"at FYE {fye_my(end)}"]
    if date_ydot(end):
        out += [f"at {date_ydot(end)}"]
    if fy == co.fy:
        out += ["on the balance sheet for the year just ended", f"at the close of the year just ended ({fy})"]
    if fy == co.fy - 1:
        out += [f"at the beginning of fiscal {fy + 1}", f"on the comparative balance sheet (FY{fy} year-end)"]
    return out


def yr_forms_tundra(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for tundra."""
    y0, y1 = fy - 1, fy
    e0, e1 = co.end_date(y0), co.end_date(y1)
    if instant:
        style = rng.choice(["fye", "ydot", "spoken", "rel"])
        if style == "fye" and not (fye_my(e0) and fye_my(e1)):
            style = "spoken"
        if style == "ydot" and not (date_ydot(e0) and date_ydot(e1)):
            style = "rel"
        f = {"fye": lambda y: f"FYE {fye_my(co.end_date(y))}", "ydot": lambda y: date_ydot(co.end_date(y)),
             "spoken": lambda y: date_spoken(co.end_date(y)),
             "rel": lambda y: f"the end of fiscal {y1}" if y == y1 else f"the beginning of fiscal {y1}"}[style]
    else:
        style = rng.choice(["fye", "ydot", "spoken", "rel"])
        if style == "fye" and not (fye_my(e0) and fye_my(e1)):
            style = "rel"
        if style == "ydot" and not (date_ydot(e0) and date_ydot(e1)):
            style = "spoken"
        f = {"fye": lambda y: f"the fiscal year ended {fye_my(co.end_date(y))}",
             "ydot": lambda y: f"the year to {date_ydot(co.end_date(y))}",
             "spoken": lambda y: f"the year ended {date_spoken(co.end_date(y))}",
             "rel": lambda y: f"the year just ended (FY{y})" if y == co.fy else f"the comparative year (FY{y})"}[style]
    lab = rng.choice(["FY{y}", "FY'{yy}"])
    return f(y0), f(y1), lab.format(yy=yy(y0), y=y0), lab.format(yy=yy(y1), y=y1)


def span_tundra(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    opts = [f"two years back through the year just ended (FY{fy - 2}–FY{fy})",
            f"the year just ended and the two before it ({fy - 2}, {fy - 1} and {fy})"]
    e2, e0 = co.end_date(fy - 2), co.end_date(fy)
    if fye_my(e2) and fye_my(e0) and fye_my(co.end_date(fy - 1)):
        opts.append(f"FYE {fye_my(e2)} through FYE {fye_my(e0)} (three fiscal years)")
    return rng.choice(opts)


ITEM_LABELS_TUNDRA = {
    "revenue": ["aggregate revenue", "revenue (the consolidated total)"],
    "cogs": ["C.O.G.S.", "cost-of-revenue total"],
    "gross_profit": ["gross profit in absolute dollars", "gross profit, pre-opex"],
    "operating_income": ["op inc", "profit at the operating line (operating income)"],
    "net_income": ["attributable earnings (net income)", "n.i. attributable to the parent"],
    "eps_diluted": ["diluted e.p.s.", "per-share profit on a diluted basis"],
    "total_assets": ["total assets (the asset-side total)", "total assets (every category)"],
    "total_liabilities": ["total liabilities (equity excluded)", "liabilities in sum (total liabilities)"],
    "current_assets": ["t.c.a. (total current assets)", "current assets (all lines combined)"],
    "current_liabilities": ["t.c.l. (total current liabilities)", "current liabilities (all lines combined)"],
    "inventory": ["net book inventory", "inventories shown net"],
    "cash": ["cash and cash equivalents (excluding any investments)", "c&e (cash and cash equivalents only)"],
    "lt_debt": ["non-current debt (long-term debt, current portion stripped out)", "LTD excluding the current piece"],
    "equity": ["equity per the balance sheet (stockholders')", "s/h equity (total)"],
    "total_equity_incl_nci": ["total equity with the non-controlling share added in", "group equity incl. NCI"],
    "cfo": ["c.f.o. (net)", "net cash flow, operating section"],
    "cfi": ["c.f.i. (net)", "net cash flow, investing section"],
    "cff": ["c.f.f. (net)", "net cash flow, financing section"],
    "capex": ["cap-ex (purchases of PP&E)", "cash spent on PP&E"],
    "dna": ["d&a (total)", "depreciation together with amortization"],
    "rnd": ["r&d charged to expense", "R&D (expensed in the year)"],
    "sga": ["s.g.&a.", "selling, general and administrative (SG&A) line"],
    "interest_expense": ["annual interest expense", "interest expense charged against earnings"],
    "income_tax": ["income tax expense (current + deferred)", "provision for income taxes, all components"],
    "dividends": ["dividends paid (financing outflow)", "dividends to shareholders, cash basis"],
    "buybacks": ["share repurchases paid in cash", "common stock bought back (cash paid)"],
    "receivables": ["a/r (net)", "accounts receivable (net of the credit-loss allowance)"],
    "ppe": ["p.p.&e. (net)", "plant, property & equipment after depreciation"],
}

AVG3_RATIO_TUNDRA = {"capex": ["cap-ex", "cash spent on PP&E"],
                     "rnd": ["r&d charged to expense", "R&D (expensed in the year)"],
                     "sga": ["s.g.&a.", "selling, general and administrative outlays"]}

# key: (names, definitions); spreadsheet definitions use column C for the current year and B for
# the prior year-end, with a legend naming every cell.
METRICS_TUNDRA = {
    "gross_margin": (["g.p. margin (%)", "gross margin, % of revenue"],
                     ["=D7/D5*100, where D5 is revenue and D7 is gross profit",
                      "the profit left after cost of sales but before operating expenses (gross profit), as a percent of revenue"]),
    "operating_margin": (["o.p.m. (op inc as % of revenue)", "operating margin, % of revenue"],
                         ["=E9/E5*100, where E5 is revenue and E9 is operating income",
                          "operating income -- the profit after operating expenses but before interest and taxes -- as a percent of revenue"]),
    "net_margin": (["n.p.m. (attributable NI as % of revenue)", "net margin, % of revenue (attributable net income)"],
                   ["=F14/F5*100, where F5 is revenue and F14 is net income attributable to the company",
                    "net income attributable to the company, after tax and excluding the noncontrolling interests' share, as a percent of revenue"]),
    "roa": (["r.o.a. (average-assets basis)", "r.o.a.a. (return on average assets, %)"],
            ["=100*C14/AVERAGE(B20,C20), where C14 is net income and B20 and C20 are total assets at the prior and current year-ends",
             "net income as a percent of total assets, the latter averaged across the opening and closing balance sheets"]),
    "roe": (["r.o.e. (average-equity basis)", "r.o.a.e. (return on average equity, %)"],
            ["=100*C14/AVERAGE(B35,C35), where C14 is net income and B35 and C35 are shareholders' equity at the prior and current year-ends",
             "net income as a percent of shareholders' equity, the latter averaged across the opening and closing balance sheets"]),
    "asset_turnover": (["a.t.o. (asset turnover on average assets)", "revenue-to-average-total-assets turns"],
                       ["=C5/AVERAGE(B20,C20), where C5 is revenue and B20 and C20 are total assets at the prior and current year-ends",
                        "revenue for the year over total assets averaged across the opening and closing balance sheets"]),
    "fixed_asset_turnover": (["f.a.t.o. (revenue over average net PP&E)", "revenue-to-average-net-PP&E turns"],
                             ["=C5/AVERAGE(B18,C18), where C5 is revenue and B18 and C18 are net PP&E at the prior and current year-ends",
                              "revenue for the year over net PP&E (after accumulated depreciation) averaged across the opening and closing balance sheets"]),
    "inventory_turnover": (["inventory turns, c.o.g.s. over average inventory", "cost-of-sales-to-average-inventory turns"],
                           ["=C6/AVERAGE(B12,C12), where C6 is cost of sales and B12 and C12 are inventories at the prior and current year-ends",
                            "cost of sales for the year over inventories averaged across the opening and closing balance sheets"]),
    "dso_avg": (["d.s.o. (average receivables)", "collection days on average a/r (365-day basis)"],
                ["=AVERAGE(B10,C10)/C5*365, where C5 is revenue and B10 and C10 are accounts receivable at the prior and current year-ends",
                 "accounts receivable averaged across the opening and closing balance sheets, divided by revenue and multiplied by 365"]),
    "dso_end": (["d.s.o. (closing receivables)", "collection days on closing a/r (365-day basis)"],
                ["=C10/C5*365, where C5 is revenue and C10 is accounts receivable at the current year-end",
                 "the number of days of revenue (at revenue ÷ 365 per day) that closing accounts receivable represent"]),
    "quick_ratio": (["q.r. (inventories excluded from current assets)", "inventory-excluded liquidity ratio"],
                    ["=(C15-C12)/C25, where C15 is total current assets, C12 is inventories and C25 is total current liabilities",
                     "everything in current assets except inventories, over current liabilities"]),
    "current_ratio": (["c.r. (current ratio)", "times current liabilities are covered by current assets"],
                      ["=C15/C25, where C15 is total current assets and C25 is total current liabilities",
                       "how many times total current liabilities go into total current assets"]),
    "interest_coverage": (["i.c.r. (op-inc cover of interest expense)", "interest cover, op-inc basis (x)"],
                          ["=C9/C11, where C9 is operating income and C11 is interest expense",
                           "operating income -- which is stated before interest and taxes -- divided by interest expense"]),
    "payout": (["d.p.r. (cash dividends ÷ net income)", "cash distributions as % of net income (dividends only)"],
               ["=100*C40/C14, where C40 is cash dividends paid and C14 is net income",
                "cash dividends paid in the year as a percent of the year's net income"]),
    "ebitda": (["ebitda, op-inc-plus-d&a version", "EBITDA built as operating income plus D&A"],
               ["=C9+C30, where C9 is operating income and C30 is depreciation and amortization",
                "operating income before depreciation and amortization are deducted, i.e. operating income with D&A added back"]),
    "ebitda_margin": (["ebitda margin (op inc + d&a, % of revenue)", "EBITDA-to-revenue (%), op-inc-plus-D&A build"],
                      ["=100*(C9+C30)/C5, where C5 is revenue, C9 is operating income and C30 is depreciation and amortization",
                       "operating income before depreciation and amortization, as a percent of revenue"]),
    "ebitda_less_capex": (["ebitda − capex (op inc + d&a − capex)", "EBITDA after capex, built from operating income"],
                          ["=C9+C30-C45, where C9 is operating income, C30 is depreciation and amortization and C45 is purchases of property, plant and equipment",
                           "operating income before D&A, net of cash paid for property, plant and equipment"]),
    "working_capital": (["n.w.c. ($, may be negative)", "working-capital dollars (net)"],
                        ["=C15-C25, where C15 is total current assets and C25 is total current liabilities",
                         "total current assets net of total current liabilities (the result can be negative)"]),
    "cash_conversion": (["c.f.o./n.i. (cash conversion)", "cash backing of earnings (CFO ÷ net income)"],
                        ["=C50/C14, where C50 is net cash from operating activities and C14 is net income",
                         "the multiple of net income that came in as net operating cash (net cash provided by operating activities)"]),
    "ocf_ratio": (["c.f.o./c.l. (cash flow to current liabilities)", "current-liability cover from operating cash (x)"],
                  ["=C50/C25, where C50 is net cash from operating activities and C25 is total current liabilities at the year-end",
                   "the year's operating cash flow divided by current liabilities at the year-end"]),
    "rnd_pct": (["r&d-to-revenue, %", "R&D as a slice of revenue (%)"],
                ["=100*C7/C5, where C5 is revenue and C7 is research and development expense",
                 "the percent of revenue consumed by research and development expense"]),
    "sga_pct": (["s.g.&a./revenue (%)", "SG&A as a slice of revenue (%)"],
                ["=100*C8/C5, where C5 is revenue and C8 is selling, general and administrative expense",
                 "the percent of revenue consumed by selling, general and administrative expense"]),
    "capex_pct": (["cap-ex-to-revenue, %", "capex as a slice of revenue (%)"],
                  ["=100*C45/C5, where C5 is revenue and C45 is purchases of property, plant and equipment",
                   "the percent of revenue spent on purchases of property, plant and equipment"]),
    "fcf": (["f.c.f. (c.f.o. less capex)", "FCF before dividends (operating cash flow net of capex)"],
            ["=C50-C45, where C50 is net cash from operating activities and C45 is purchases of property, plant and equipment",
             "operating cash flow net of capital expenditures, before dividends and buybacks"]),
    "debt_to_equity": (["l.t.d.-to-book-equity (x)", "non-current debt to stockholders' equity (x)"],
                       ["=C28/C35, where C28 is long-term debt excluding the current portion and C35 is shareholders' equity",
                        "long-term debt, excluding the portion due within a year, divided by shareholders' equity"]),
    "etr": (["e.t.r. (%)", "GAAP tax rate (income tax expense ÷ pretax income)"],
            ["=100*C13/C12, where C12 is income before income taxes and C13 is income tax expense",
             "the percent of income before income taxes taken by income tax expense"]),
}

ITEM_TEMPLATES["tundra"] = [
    "Hi team -- following up on the IR call. Could you confirm the {item} {co} reported {per}{scale}? Thanks in advance.",
    "Model update note ({co}): rolling the {item} line forward. What was the reported figure {per}{scale}?",
    "FA screen> {co}: {item}, {per}{scale} <GO>",
    "Credit committee memo, financial profile of the borrower ({co}): {item} {per}{scale}?",
    "CFA-style item set: refer to {co}'s annual report. What amount is shown for {item} {per}{scale}?",
    "Background: we're reviewing {co} ahead of its next earnings date and our consensus file looks stale, so I want to anchor on audited numbers. Question: {item} {per}{scale}?",
    "I believe {co}'s {item} {per} is roughly what I have in my notes, but I'd rather not guess. What's the exact figure{scale}?",
    "Quick qustion -- what did {co} report as {item} {per}{scale}?",
    "X:Reading down {co}'s income statement {per}, at what amount does the {item} line come in{scale}?",
    "I:Balance sheet as printed in {co}'s 10-K, {per}: what does the {item} line read{scale}?",
    "Re: your note on {co} -- can you send me the {item} {per}{scale}? I want to tie it to our model before the morning call.",
    "F:Summing the whole year, what was {co}'s {item} {per}{scale}?",
    "Estimate-vs-actual check: our number for {co}'s {item} {per} looks off. What did the company actually report{scale}?",
    "Analyst-training exercise: open {co}'s annual report and find the {item} {per}. Amount{scale}?",
    "I:{Per}, what {item} did {co} show? Balance sheet figure, please{scale}.",
]

CHANGE_ABS_TEMPLATES["tundra"] = [
    "Model update note: {co}'s {item} moved from the {y0} print to the {y1} print by how much{scale}? Signed, negative if down.",
    "CFA-style question: what is the change in {co}'s {item} from {p0} to {p1}, later figure minus earlier figure{scale}?",
    "F:Credit memo, trend section -- {co}'s {item}: {p1} versus {p0}. Dollar change, with a minus sign for a decline{scale}?",
    "I:Credit memo, balance sheet trend -- {co}'s {item} at {p1} versus {p0}: signed dollar change{scale}?",
    "{y0}->{y1} chg, {item}, {co}{scale}?",
    "Background: {co} described its {item} as broadly stable on the last call, and I'd like to test that. How much did it actually change from {p0} to {p1}{scale}? Negative if it fell.",
    "Not sure I'm reading the filing right. Between {p0} and {p1}, what's the net dollar difference in {co}'s {item} (later year less earlier year){scale}?",
    "Dear {co} IR team, for our records could you confirm the change in {item}, {y1} less {y0}{scale}?",
    "F:L:how much did {co}'s {item} incrase in {p1} vs {p0}{scale}? (if it dropped, give a negative)",
]

CHANGE_PCT_TEMPLATES["tundra"] = [
    "Model update note: by what % did {co}'s {item} move from {y0} to {y1}{fmt}?",
    "CFA-style question: compute the percentage change in {co}'s {item} from {p0} to {p1}, using {y0} as the base{fmt}.",
    "F:Credit memo, trend section -- {co}'s {item} grew (or contracted) by what percent in {p1} relative to {p0}{fmt}?",
    "I:Credit memo, balance sheet trend -- {co}'s {item}: percent change from {p0} to {p1}{fmt}?",
    "L:pct chg {item} {co} {y0}->{y1}{fmt}",
    "Background: {co}'s shareholder letter calls {item} a highlight of the year. Testing that claim -- what was the % change from {p0} to {p1}{fmt}? Negative if it shrank.",
    "I may be misreading the filing, so please check: by what percent did {co}'s {item} change between {p0} and {p1}{fmt}? (Negative if it fell.)",
    "Hello {co} IR -- quick one for our model: {item} growth, {y1} over {y0}, in %{fmt}?",
]

AVG_BAL_TEMPLATES["tundra"] = [
    "Credit memo needs an average-balance figure: {co}'s {item} at the {y0} year-end and at the {y1} year-end, summed and halved{scale}.",
    "CFA-style: an analyst computes {co}'s average {item} for {p1} as the mean of the opening and closing balances. What result should she get{scale}?",
    "L:{co} {item} -- mean of the beginning-of-{y1} and end-of-{y1} balances{scale}",
    "Background: I'm computing a return ratio for {co} and want a denominator that isn't distorted by a single year-end. What is the average of the {item} balance at the start of {p1} and at its end{scale}?",
    "I think the standard approach is to average the two year-end balances. Doing that for {co}'s {item} ({y0} and {y1} year-ends), what comes out{scale}?",
]

AVG3_TEMPLATES["tundra"] = [
    "Credit memo, three-year lookback: {co}'s average annual {item} across {span}{scale}?",
    "CFA-style: {co} reported {item} for {y2}, {y0} and {y1}. What is the three-year arithmetic mean{scale}?",
    "L:3-yr simple avg of {item}, {co}, {span}{scale}",
    "Model update: I'm replacing a single-year {item} assumption for {co} with the average over {span}. What number do I plug in{scale}?",
    "Some years are lumpy for {co}, so rather than one year: what's the mean {item} from two years back through the year just ended ({y2}–{y1}){scale}?",
]

AVG3_RATIO_TEMPLATES["tundra"] = [
    "Model update: for {co}, compute {metric} ÷ revenue separately for {y2}, {y0} and {y1}, then take the plain mean of those three percentages{fmt}.",
    "Credit memo: across {span}, average {co}'s yearly {metric}-to-revenue percentage (the mean of the three annual ratios -- not three-year totals divided){fmt}.",
    "L:avg of yearly {metric}/revenue %, {co}, {span}{fmt}",
    "CFA-style: an analyst measures {co}'s {metric} as a percent of revenue in each of {y2}, {y0} and {y1} and averages the three results. What does she get{fmt}?",
]

METRIC_TEMPLATES["tundra"] = {
    "plain": [
        "Model update note: {co} {metric} {per}{fmt}?",
        "Credit committee memo, key ratios: what was {co}'s {metric} {per}{fmt}?",
        "Terminal query> {co}, {metric}, {per}{fmt} <GO>",
        "CFA-style: based on {co}'s 10-K, its {metric} {per} is closest to what value{fmt}?",
        "Hi, IR here at a peer company -- we're benchmarking. What {metric} did {co} post {per}{fmt}?",
        "Background: our screen flagged {co} on {metric}, and I want to confirm it against the filing. What was the figure {per}{fmt}?",
        "Probably a simple one, but what was {co}'s {metric} {per}{fmt}? I keep geting different answers.",
        "{Per}, {co} printed what {metric}{fmt}?",
    ],
    "defn": [
        "Model update note -- our template computes {metric} as {defn}. What does {co} show {per}{fmt}?",
        "Credit memo footnote 4 defines {metric} as {defn}. Plug in {co}'s numbers {per}{fmt}.",
        "CFA-style: {metric} is calculated as {defn}. What is it for {co} {per}{fmt}?",
        "{co}, {metric} {per}{fmt} -- formula in our sheet: {defn}",
        "Background: the sell-side and our internal sheet disagree on {co}'s {metric} {per}, likely a definition issue. Using {defn}, what do you get{fmt}?",
        "I'm fairly sure the right formula for {metric} is {defn}. On that basis, what is {co}'s number {per}{fmt}?",
        "Dear IR team, our analyst calculates {co}'s {metric} as {defn}. Could you confirm the resulting figure {per}{fmt}?",
        "Sell-side note: we define {metric} as {defn}. {co}'s print {per}{fmt}?",
    ],
}

# compare: {lead} = "edges out" / "trails" and {pos} = "ahead" / "behind" (the stated direction),
# always pinned to the {adj} (higher / lower) figure in the same question
COMPARE_TEMPLATES["tundra"] = [
    "Credit committee pre-read: on {metric} {per}, does {A} or {B} come out {adj}?",
    "{A} v. {B} on {metric} {per} -- which one {lead} the other? I mean the {adj} number, whether or not that's good.",
    "CFA-style: based on their 10-Ks, which company reports the {adj} {metric} {per}? A. {A} B. {B}",
    "Our IR team benchmarks {A} against {B}. {Per}, which of the two is {pos} on {metric}, i.e. shows the {adj} value?",
    "My sense is the two are close, but {per} which of {A} and {B} has the {adj} {metric}?",
    "Model update, peer tab: {A} and {B} {per} -- flag whichever posts the {adj} {metric}.",
    "Credit committee pre-read: {per}, who shows {more} {item}, {B} or {A}?",
    "{A} v. {B}, {item} {per}: which name {lead} the other (the {adj} amount)?",
    "CFA-style: which company reports {more} {item} {per}? A. {A} B. {B}",
    "RV screen, {A}/{B}: {item} {per} -- which one is {pos}, meaning the {adj} figure?",
    "Context first: we're choosing between {A} and {B} for a sector write-up and want to lead with {item}. {Per}, which company recorded {more} of it?",
    "Im tryng to settle a bet: {per}, did {A} or {B} have {more} {item}?",
]


def compare_period_tundra(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"at their FY{a.fy} year-ends", f"on each one's balance sheet for the year just ended (FY{a.fy})"]
            if dec31:
                opts.append(f"as of {date_spoken(a.F.fy_end)}")
        else:
            opts = [f"in fiscal-year {a.fy}", f"in the year each of them just ended (FY{a.fy})"]
            if dec31:
                opts.append(f"for FYE 12/{a.F.fy_end.year}")
        return rng.choice(opts)
    if instant:
        opts = [f"on their latest balance sheets ({na} as of {date_spoken(a.F.fy_end)}; {nb} as of {date_spoken(b.F.fy_end)})"]
        if fye_my(a.F.fy_end) and fye_my(b.F.fy_end):
            opts.append(f"at FYE {fye_my(a.F.fy_end)} for {na} and FYE {fye_my(b.F.fy_end)} for {nb}")
        return rng.choice(opts)
    opts = [f"in each one's year just ended ({na}: FY{a.fy}; {nb}: FY{b.fy})"]
    if fye_my(a.F.fy_end) and fye_my(b.F.fy_end):
        opts.append(f"for their latest fiscal years ({na}: FYE {fye_my(a.F.fy_end)}; {nb}: FYE {fye_my(b.F.fy_end)})")
    return rng.choice(opts)


# ---------------------------------------------------------------------------------------
# Fifteenth wording set ("ridge")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the fourteen earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. People outside the usual analyst desk who
# still read 10-Ks, each in their own register; periods anchored on the fiscal year's start date,
# on its closing quarter count, on the company's own name for the year, on spoken years, on
# month-end year-ends (only where the year really ends on the month's last day) and on relative
# forms with the year in brackets; unit and rounding requests in school-style place values;
# metrics named in plain words or as code identifiers and defined as code expressions or as
# fractions described aloud; comparisons asking in varied ways for the company with the higher or
# the lower figure. Template flags as for novel / vault / ledger / atlas / zenith / harbor / quarry /
# summit / tundra (F:, I:, X:, L:). Like vault, atlas, zenith, harbor, quarry, summit and tundra, a
# held-out set: not to be printed or quoted where the engine's builders read.

_ONES = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def spoken_year(y):
    """a year as people say it aloud (2024 -> 'twenty twenty-four'; 2005 -> 'two thousand five')"""
    n = y % 100
    if 2000 <= y <= 2009:
        return "two thousand" + (f" {_ONES[n]}" if n else "")
    head = spoken_year_head(y)
    if n == 0:
        return f"{head} hundred"
    if n < 10:
        return f"{head} oh {_ONES[n]}"
    if n < 20:
        return f"{head} {_ONES[n]}"
    return f"{head} {_TENS[n // 10]}" + (f"-{_ONES[n % 10]}" if n % 10 else "")


def spoken_year_head(y):
    """the first spoken half of a year: 20 -> 'twenty', 19 -> 'nineteen'"""
    h = y // 100
    return _ONES[h] if h < 20 else _TENS[h // 10] + (f"-{_ONES[h % 10]}" if h % 10 else "")


def date_monord(d):
    """short month, ordinal day and year (month spelled, so it cannot be misread)"""
    return f"{MON3[d.month - 1]} {ordinal(d.day)}, {d.year}"


def month_last(d):
    """'December 2023' when d is the last day of its month (else None)"""
    if d is None or d.day != calendar.monthrange(d.year, d.month)[1]:
        return None
    return f"{MONTHS[d.month - 1]} {d.year}"


def dur_phrases_ridge(co, fy):
    end = co.end_date(fy)
    start = start_date(co, fy)
    nm = co.names[0]
    out = [f"in what {nm} calls fiscal {fy}", f"over the four fiscal quarters ended {date_monord(end)}",
           f"in fiscal year {spoken_year(fy)}"]
    if start:
        out += [f"in the fiscal year that began on {date_monord(start)}"]
    if month_last(end):
        out += [f"for the year ended on the final day of {month_last(end)}"]
    if fy == co.fy:
        out += [f"last fiscal year (FY{fy})", f"in its last fiscal year, {fy}"]
    if fy == co.fy - 1:
        out += [f"in the fiscal year before last (FY{fy})"]
    return out


def inst_phrases_ridge(co, fy):
    end = co.end_date(fy)
    start = start_date(co, fy)
    nm = co.names[0]
    out = [f"at the close of what {nm} calls fiscal {fy}", f"on {date_monord(end)}",
           f"at the end of fiscal year {spoken_year(fy)}"]
    if start:
        out += [f"at the end of the fiscal year that began on {date_monord(start)}"]
    if month_last(end):
        out += [f"on the final day of {month_last(end)}"]
    if fy == co.fy:
        out += [f"at the end of its last fiscal year (FY{fy})"]
    if fy == co.fy - 1:
        out += [f"at the end of the fiscal year before last (FY{fy})"]
    return out


def yr_forms_ridge(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for ridge."""
    y0, y1 = fy - 1, fy
    e0, e1 = co.end_date(y0), co.end_date(y1)
    s0, s1 = start_date(co, y0), start_date(co, y1)
    nm = co.names[0]

    def rel(y, pre):
        return f"{pre}its last fiscal year (FY{y})" if y == co.fy else f"{pre}the fiscal year before last (FY{y})"
    if instant:
        style = rng.choice(["calls", "monord", "final", "began", "rel"])
        if style == "final" and not (month_last(e0) and month_last(e1)):
            style = "monord"
        if style == "began" and not (s0 and s1):
            style = "calls"
        f = {"calls": lambda y: f"the close of what {nm} calls fiscal {y}", "monord": lambda y: date_monord(co.end_date(y)),
             "final": lambda y: f"the final day of {month_last(co.end_date(y))}",
             "began": lambda y: f"the end of the fiscal year that began on {date_monord(start_date(co, y))}",
             "rel": lambda y: rel(y, "the end of ")}[style]
    else:
        style = rng.choice(["calls", "quarters", "began", "spoken", "rel"])
        if style == "began" and not (s0 and s1):
            style = "quarters"
        f = {"calls": lambda y: f"what {nm} calls fiscal {y}",
             "quarters": lambda y: f"the four fiscal quarters ended {date_monord(co.end_date(y))}",
             "began": lambda y: f"the fiscal year that began on {date_monord(start_date(co, y))}",
             "spoken": lambda y: f"fiscal year {spoken_year(y)}", "rel": lambda y: rel(y, "")}[style]
    lab = rng.choice(["fiscal year {y}", "FY{y}"])
    return f(y0), f(y1), lab.format(y=y0), lab.format(y=y1)


def span_ridge(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    nm = co.names[0]
    opts = [f"what {nm} calls fiscal {fy - 2}, {fy - 1} and {fy}",
            f"the three fiscal years ending with its last fiscal year (FY{fy - 2} to FY{fy})"]
    s2 = start_date(co, fy - 2)
    if s2:
        opts.append(f"the three fiscal years from the one that began on {date_monord(s2)} "
                    f"to the one that ended on {date_monord(co.end_date(fy))}")
    return rng.choice(opts)


ITEM_LABELS_RIDGE = {
    "revenue": ["full-year revenue", "revenue from all lines of business"],
    "cogs": ["all-in cost of sales", "cost of revenue (what it cost to deliver its sales)"],
    "gross_profit": ["dollars of gross profit", "gross profit (revenue net of cost of sales)"],
    "operating_income": ["income from running the business (operating income)", "operating income as the income statement shows it"],
    "net_income": ["net income after the minority holders' share (attributable to the company)",
                   "net income left for the company after noncontrolling interests"],
    "eps_diluted": ["diluted EPS number", "earnings for each diluted share"],
    "total_assets": ["total assets as stated", "total assets (every asset line added up)"],
    "total_liabilities": ["total liabilities as stated", "total liabilities (every liability line added up)"],
    "current_assets": ["total current assets as stated", "current assets (every current line added up)"],
    "current_liabilities": ["total current liabilities as stated", "current liabilities (every current line added up)"],
    "inventory": ["net inventory balance", "net inventories on the balance sheet"],
    "cash": ["cash and cash equivalents (securities excluded)", "cash plus cash equivalents as stated"],
    "lt_debt": ["long-term debt excluding the part due within twelve months", "non-current long-term debt as stated"],
    "equity": ["total shareholders' equity as stated", "stockholders' equity (balance-sheet total)"],
    "total_equity_incl_nci": ["total equity with noncontrolling interests counted", "equity including the minority holders' share"],
    "cfo": ["operating cash flow (net, whole year)", "net cash from operating activities as stated"],
    "cfi": ["investing cash flow (net, whole year)", "net cash from investing activities as stated"],
    "cff": ["financing cash flow (net, whole year)", "net cash from financing activities as stated"],
    "capex": ["property, plant and equipment purchases (capex)", "capital expenditures (cash paid)"],
    "dna": ["total D&A charged", "depreciation and amortization taken together"],
    "rnd": ["expensed research and development spending", "R&D expense as stated"],
    "sga": ["SG&A expense as stated", "selling, general and administrative costs combined"],
    "interest_expense": ["interest expense as stated", "interest charged to expense"],
    "income_tax": ["income tax expense as stated", "provision for income taxes in total"],
    "dividends": ["dividend payments (cash)", "cash dividends distributed to stockholders"],
    "buybacks": ["cash paid for share repurchases", "stock buybacks (cash paid)"],
    "receivables": ["net accounts receivable balance", "net trade receivables as stated"],
    "ppe": ["net property, plant and equipment balance", "net PP&E as stated"],
}

AVG3_RATIO_RIDGE = {"capex": ["property, plant and equipment purchases", "capital expenditures"],
                    "rnd": ["research and development spending", "R&D expense"],
                    "sga": ["selling, general and administrative costs", "SG&A expense"]}

# key: (names, definitions); names in plain words or as code identifiers, definitions as code
# expressions (snake_case names) or as a fraction described aloud ("X on top, Y on the bottom").
METRICS_RIDGE = {
    "gross_margin": (["gross margin percent", "gross_margin_pct"],
                     ["100 * gross_profit / revenue",
                      "a fraction with gross profit on top and revenue on the bottom, times 100"]),
    "operating_margin": (["operating margin percent", "operating_margin_pct"],
                         ["100 * operating_income / revenue",
                          "a fraction with operating income on top and revenue on the bottom, times 100"]),
    "net_margin": (["net margin percent (attributable net income)", "net_margin_pct"],
                   ["100 * net_income_attributable_to_company / revenue",
                    "a fraction with net income attributable to the company on top and revenue on the bottom, times 100"]),
    "roa": (["return on mean total assets (%)", "roa_avg_assets_pct"],
            ["100 * net_income / ((total_assets_prior_ye + total_assets_current_ye) / 2)",
             "a fraction with net income on top and, on the bottom, the average of total assets at the prior and at the current year-end; times 100"]),
    "roe": (["return on mean shareholders' equity (%)", "roe_avg_equity_pct"],
            ["100 * net_income / ((shareholders_equity_prior_ye + shareholders_equity_current_ye) / 2)",
             "a fraction with net income on top and, on the bottom, the average of shareholders' equity at the prior and at the current year-end; times 100"]),
    "asset_turnover": (["turnover of mean total assets (times)", "asset_turnover_avg_x"],
                       ["revenue / ((total_assets_prior_ye + total_assets_current_ye) / 2)",
                        "a fraction with revenue on top and, on the bottom, the average of total assets at the prior and at the current year-end"]),
    "fixed_asset_turnover": (["turnover of mean net PP&E (times)", "ppe_turnover_avg_x"],
                             ["revenue / ((net_ppe_prior_ye + net_ppe_current_ye) / 2)",
                              "a fraction with revenue on top and, on the bottom, the average of net property, plant and equipment at the prior and at the current year-end"]),
    "inventory_turnover": (["turnover of mean inventory (times, cost-of-sales basis)", "inventory_turnover_avg_x"],
                           ["cost_of_sales / ((inventory_prior_ye + inventory_current_ye) / 2)",
                            "a fraction with cost of sales on top and, on the bottom, the average of inventories at the prior and at the current year-end"]),
    "dso_avg": (["days of revenue held in receivables (mean of opening and closing A/R)", "dso_avg_ar_days"],
                ["365 * ((receivables_prior_ye + receivables_current_ye) / 2) / revenue",
                 "a fraction with the average of prior and current year-end accounts receivable on top and revenue on the bottom, times 365"]),
    "dso_end": (["days of revenue held in receivables (closing A/R)", "dso_closing_ar_days"],
                ["365 * receivables_current_ye / revenue",
                 "a fraction with year-end accounts receivable on top and revenue on the bottom, times 365"]),
    "quick_ratio": (["quick ratio with inventories left out", "quick_ratio_ex_inventory_x"],
                    ["(current_assets - inventories) / current_liabilities",
                     "a fraction with current assets minus inventories on top and current liabilities on the bottom"]),
    "current_ratio": (["current ratio in times", "current_ratio_x"],
                      ["current_assets / current_liabilities",
                       "a fraction with total current assets on top and total current liabilities on the bottom"]),
    "interest_coverage": (["interest cover from operating income (times)", "interest_coverage_oi_x"],
                          ["operating_income / interest_expense",
                           "a fraction with operating income on top and interest expense on the bottom"]),
    "payout": (["cash dividend payout as a percent of net income", "payout_ratio_cash_pct"],
               ["100 * dividends_paid / net_income",
                "a fraction with cash dividends paid on top and net income on the bottom, times 100"]),
    "ebitda": (["EBITDA built up from operating income", "ebitda_usd"],
               ["operating_income + depreciation_and_amortization",
                "start from operating income and add back depreciation and amortization, nothing else"]),
    "ebitda_margin": (["EBITDA margin percent (operating income + D&A basis)", "ebitda_margin_pct"],
                      ["100 * (operating_income + depreciation_and_amortization) / revenue",
                       "a fraction with operating income plus D&A on top and revenue on the bottom, times 100"]),
    "ebitda_less_capex": (["EBITDA less capex (built up from operating income)", "ebitda_minus_capex_usd"],
                          ["operating_income + depreciation_and_amortization - capital_expenditures",
                           "start from operating income, add back D&A, then take away purchases of property, plant and equipment"]),
    "working_capital": (["working capital in dollars (current assets less current liabilities)", "working_capital_usd"],
                        ["current_assets - current_liabilities",
                         "start from total current assets and take away total current liabilities (the result may be negative)"]),
    "cash_conversion": (["cash conversion (operating cash flow per dollar of net income)", "cash_conversion_x"],
                        ["net_cash_from_operating_activities / net_income",
                         "a fraction with net cash from operating activities on top and net income on the bottom"]),
    "ocf_ratio": (["operating cash flow to year-end current liabilities (times)", "ocf_to_current_liabilities_x"],
                  ["net_cash_from_operating_activities / current_liabilities_current_ye",
                   "a fraction with the year's operating cash flow on top and year-end current liabilities on the bottom"]),
    "rnd_pct": (["R&D spending as a percent of revenue", "rnd_to_revenue_pct"],
                ["100 * research_and_development_expense / revenue",
                 "a fraction with R&D expense on top and revenue on the bottom, times 100"]),
    "sga_pct": (["SG&A as a percent of revenue", "sga_to_revenue_pct"],
                ["100 * selling_general_and_administrative_expense / revenue",
                 "a fraction with selling, general and administrative expense on top and revenue on the bottom, times 100"]),
    "capex_pct": (["capital spending as a percent of revenue", "capex_to_revenue_pct"],
                  ["100 * capital_expenditures / revenue",
                   "a fraction with purchases of property, plant and equipment on top and revenue on the bottom, times 100"]),
    "fcf": (["free cash flow (operating cash flow less capex)", "fcf_usd"],
            ["net_cash_from_operating_activities - capital_expenditures",
             "start from net cash from operating activities and take away purchases of property, plant and equipment"]),
    "debt_to_equity": (["long-term debt to shareholders' equity (times)", "lt_debt_to_equity_x"],
                       ["long_term_debt_noncurrent / shareholders_equity",
                        "a fraction with long-term debt (current portion excluded) on top and shareholders' equity on the bottom"]),
    "etr": (["effective tax rate on pretax income (%)", "effective_tax_rate_pct"],
            ["100 * income_tax_expense / income_before_income_taxes",
             "a fraction with income tax expense on top and income before income taxes on the bottom, times 100"]),
}

ITEM_TEMPLATES["ridge"] = [
    "L:okay so what did {co} report for {item} {per}{scale}",
    "Ahead of Thursday's board meeting I'd like to have {co}'s {item} {per} in front of me{scale}. What was it?",
    "For a litigation exhibit: state {co}'s {item} {per}, as set forth in its Form 10-K{scale}.",
    "Coding a firm-year panel dataset -- {co}, {item}, {per}. Value{scale}?",
    "We supply {co} on open credit terms and are reviewing the account limit. What {item} did it report {per}{scale}?",
    "Our union is preparing for bargaining with {co}. What was the company's {item} {per}{scale}?",
    "I work for {co} and hold some stock through the employee plan. What {item} did the company report {per}{scale}?",
    "Writing the answer key for an intro accounting quiz: {co}'s {item} {per}{scale}?",
    "Request -- entity: {co}; line item: {item}; period: {per}{scale}. Value?",
    "Someone on a stock forum asked about {co}'s {item} {per} and nobody had the real number. What does the 10-K show{scale}?",
    "I'm translating {co}'s annual report and want to be sure I have the right figure for {item} {per}{scale}. What is it?",
    "I:We're a landlord vetting {co} as a tenant. What {item} did its balance sheet show {per}{scale}?",
    "X:Which amount does {co}'s statement of income carry for {item} {per}{scale}?",
    "Stewardship team drafting an engagement letter to {co}: what was its {item} {per}{scale}?",
    "Data QA: our vendor feed flags {co}'s {item} {per} as an outlier. What's the figure in the filing{scale}?",
]

CHANGE_ABS_TEMPLATES["ridge"] = [
    "L:okay so how much did {co}'s {item} change from {p0} to {p1}{scale} and make it negative if it went down",
    "Board pre-read: by how much did {co}'s {item} move between {p0} and {p1}{scale}? Show a fall as a negative number.",
    "For the expert report, state the change in {co}'s {item} from {p0} to {p1}, computed as the later amount minus the earlier amount{scale}.",
    "Panel-data coding: first difference of {co}'s {item}, {y1} minus {y0}{scale}?",
    "F:Supplier credit review of {co}: {item} in {p1} versus {p0} -- how many dollars more or fewer{scale}? Negative if fewer.",
    "I:Landlord's check on {co}: did its {item} grow or shrink between {p0} and {p1}, and by how much{scale}? Give a decline as a negative number.",
    "Union research: {co}'s {item} went from the {y0} figure to the {y1} figure. What is the signed difference{scale}?",
    "Quiz key: {co}'s {item}, {y1} less {y0}{scale} = ?",
    "Employee-shareholder question: how many dollars did {co}'s {item} rise or fall from {p0} to {p1}{scale}? (A fall is negative.)",
]

CHANGE_PCT_TEMPLATES["ridge"] = [
    "L:okay what was the percent change in {co}'s {item} from {p0} to {p1}{fmt}",
    "Board pre-read: {co}'s {item}, percent change from {p0} to {p1}{fmt}? Negative if it declined.",
    "Panel-data coding: growth rate of {co}'s {item} from {y0} to {y1}, as (later − earlier) / earlier × 100{fmt}?",
    "For the expert report, express the change in {co}'s {item} from {p0} to {p1} as a percentage of the {y0} amount{fmt}.",
    "F:Supplier credit review: did {co}'s {item} expand or contract in {p1} relative to {p0}, and by what percent{fmt}?",
    "I:Landlord's check: percent change in {co}'s {item} between {p0} and {p1}{fmt}? (Negative if it fell.)",
    "Quiz key: percentage change in {co}'s {item}, {y0} to {y1}{fmt} = ?",
    "Union research note -- by what percentage did {co}'s {item} grow or shrink from {p0} to {p1}{fmt}?",
]

AVG_BAL_TEMPLATES["ridge"] = [
    "Panel-data coding: {co}'s {item}, mean of the {y0} and {y1} year-end values{scale}?",
    "For the expert report, compute {co}'s average {item} for {p1} as the sum of the opening and closing balances divided by two{scale}.",
    "L:okay so average {co}'s {item} at the start and at the end of {p1}{scale}, just those two balances",
    "Board pre-read needs an average-balance figure: {co}'s {item}, averaging the balance that opened {p1} with the one that closed it{scale}.",
    "Quiz key: average {item} for {co} over {p1}, i.e. (opening balance + closing balance) / 2{scale}?",
]

AVG3_TEMPLATES["ridge"] = [
    "Panel-data coding: {co}'s {item}, averaged over {span}{scale}?",
    "L:okay what was {co}'s average yearly {item} over {span}{scale}",
    "Board pre-read: {co}'s mean annual {item} across {y2}, {y0} and {y1}{scale}?",
    "For the expert report, state {co}'s {item} averaged per fiscal year over {span} (the three years summed, divided by three){scale}.",
    "Union research: in a typical year across {span}, how much {item} did {co} record, taking the simple three-year mean{scale}?",
]

AVG3_RATIO_TEMPLATES["ridge"] = [
    "Panel-data coding: for {co}, take {metric} over revenue in each of {y2}, {y0} and {y1}, in percent, and give the mean of the three ratios{fmt}.",
    "L:okay so for {co} what's the average of the yearly {metric}-to-revenue percentages over {span}{fmt}",
    "Board pre-read: {co}'s {metric} as a share of revenue, averaged across {span} -- average the three annual percentages, don't pool the totals{fmt}.",
    "Quiz key: compute {co}'s {metric} divided by revenue for {y2}, {y0} and {y1} separately, then average the three percentages{fmt}.",
]

METRIC_TEMPLATES["ridge"] = {
    "plain": [
        "L:okay what was {co}'s {metric} {per}{fmt}",
        "Board pre-read on {co}: {metric} {per}{fmt}?",
        "For the expert report, what was {co}'s {metric} {per}{fmt}?",
        "Panel-data coding: {co}, {metric}, {per}{fmt}. Value?",
        "Supplier credit review of {co}: what {metric} did it show {per}{fmt}?",
        "Our union's researcher wants {co}'s {metric} {per}{fmt}. Can you work it out?",
        "Someone on a stock forum says {co}'s {metric} {per} was unusual. What was it really{fmt}?",
        "Employee-shareholder at {co} here: what was the company's {metric} {per}{fmt}?",
    ],
    "defn": [
        "L:okay so {metric} is {defn} -- what was it for {co} {per}{fmt}",
        "Board pre-read: the committee defines {metric} as {defn}. What is {co}'s figure {per}{fmt}?",
        "For the expert report, {metric} means {defn}. Compute it for {co} {per}{fmt}.",
        "Panel-data coding: {metric} := {defn}. {co}, {per}{fmt}?",
        "Supplier credit review of {co}. Our credit policy computes {metric} as {defn}. Result {per}{fmt}?",
        "Quiz key: with {metric} defined as {defn}, what does {co} show {per}{fmt}?",
        "Stewardship team note: we use {metric} = {defn}. Where did {co} come out {per}{fmt}?",
        "Data QA: our pipeline derives {metric} as {defn}. What should the value be for {co} {per}{fmt}?",
    ],
}

# compare: {desc} = "DESC" / "ASC" (the stated direction: highest first / lowest first)
COMPARE_TEMPLATES["ridge"] = [
    "L:okay between {A} and {B} which one had the {adj} {metric} {per}",
    "In pseudo-SQL: SELECT company WHERE company IN ({A}, {B}) ORDER BY \"{metric}\" {desc} LIMIT 1 -- {per}. Which name comes back?",
    "Board pre-read: {per}, which is numerically {adj}, {A}'s {metric} or {B}'s?",
    "Union research note: we're comparing {A} with {B}. {Per}, which of the two reported the {adj} {metric}?",
    "Supplier credit review -- two customers, {A} and {B}. Whose {metric} was {adj} {per}?",
    "Settle a forum argument: {A} or {B}, which had the {adj} {metric} {per}?",
    "L:okay who had {more} {item} {per}, {A} or {B}",
    "In pseudo-SQL: SELECT company WHERE company IN ({A}, {B}) ORDER BY \"{item}\" {desc} LIMIT 1 -- {per}. Which name comes back?",
    "For the expert report I need to say which of {A} and {B} reported {more} {item} {per}. Which one was it?",
    "Our economics seminar is comparing {B} and {A}. {Per}, which firm's {item} was the {adj} number?",
    "We're a landlord choosing between two tenants, {A} and {B}. {Per}, which had {more} {item}?",
    "Quiz key: {per}, did {A} or {B} report {more} {item}?",
]


def compare_period_ridge(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"at the close of what each of them calls fiscal {a.fy}", f"at the end of the last fiscal year of both (FY{a.fy})"]
            if dec31:
                opts.append(f"on the final day of {month_last(a.F.fy_end)}")
        else:
            opts = [f"in what each of them calls fiscal {a.fy}", f"in the last fiscal year of both companies (FY{a.fy})"]
            if dec31:
                opts.append(f"over the four quarters ended {date_monord(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        opts = [f"each at the end of its last fiscal year ({na}: {date_monord(a.F.fy_end)}; {nb}: {date_monord(b.F.fy_end)})"]
        if month_last(a.F.fy_end) and month_last(b.F.fy_end):
            opts.append(f"on the final day of each one's last fiscal year ({na}: {month_last(a.F.fy_end)}; {nb}: {month_last(b.F.fy_end)})")
        return rng.choice(opts)
    return rng.choice([f"in what {na} calls fiscal {a.fy} and what {nb} calls fiscal {b.fy}",
                       f"over each one's last four fiscal quarters ({na}: ended {date_monord(a.F.fy_end)}; {nb}: ended {date_monord(b.F.fy_end)})"])


# ---------------------------------------------------------------------------------------
# Sixteenth wording set ("canyon")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the fifteen earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. The everyday channels of the people who
# ask about 10-Ks (sell-side initiation tables, buy-side risk meetings and position sizing, bank
# facility reviews of an obligor, newsroom copy desks and chart captions, numbered problem sets,
# audit lead schedules, FP&A and treasury requests, e-mails with a subject line, semicolon-separated
# terminal shorthand, chat-room asks, formal written requests); periods as "<Month> <day> of <year>"
# dates, years that "ran to" a date, fiscal years as a whole or spanning their first and last day,
# the company's annual results, the current-year and comparative columns of the latest 10-K, the
# fiscal close and the balance going into the next fiscal year; unit and rounding requests as
# format masks; metrics named as rates, turns and covers with their basis in brackets, defined as
# arrow chains of steps or in prose ("all over", "backed out", "put back"); comparisons asking for
# the company with the higher or the lower figure. Template flags as for novel / vault / ledger /
# atlas / zenith / harbor / quarry / summit / tundra / ridge (F:, I:, X:, L:). Like vault, atlas,
# zenith, harbor, quarry, summit, tundra and ridge, a held-out set: not to be printed or quoted where
# the engine's builders read.

def date_mof(d):
    """'September 28 of 2024' (month spelled, so it cannot be misread)"""
    return f"{MONTHS[d.month - 1]} {d.day} of {d.year}"


def dur_phrases_canyon(co, fy):
    end = co.end_date(fy)
    start = start_date(co, fy)
    out = [f"across fiscal {fy} as a whole", f"in the year that ran to {date_mof(end)}",
           f"in its fiscal {fy} annual results"]
    if start:
        out += [f"over the fiscal year spanning {date_us(start)} to {date_us(end)}"]
    if fy == co.fy:
        out += [f"in the current-year column of its latest 10-K (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"in the comparative column of its latest 10-K (fiscal {fy})",
                f"in the year covered by the previous year's 10-K (fiscal {fy})"]
    return out


def inst_phrases_canyon(co, fy):
    end = co.end_date(fy)
    out = [f"as of {date_mof(end)}", f"as fiscal {fy} ended", f"at the fiscal {fy} close",
           f"going into fiscal {fy + 1}"]
    if fy == co.fy:
        out += [f"at the latest year-end on record (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"as the prior fiscal year closed (fiscal {fy})"]
    return out


def yr_forms_canyon(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for canyon."""
    y0, y1 = fy - 1, fy
    s0, s1 = start_date(co, y0), start_date(co, y1)
    if instant:
        style = rng.choice(["mof", "close"])
        f = {"mof": lambda y: date_mof(co.end_date(y)), "close": lambda y: f"the fiscal {y} close"}[style]
    else:
        style = rng.choice(["full", "ranto", "spanning"])
        if style == "spanning" and not (s0 and s1):
            style = "ranto"
        f = {"full": lambda y: f"fiscal {y} (full year)", "ranto": lambda y: f"the year that ran to {date_mof(co.end_date(y))}",
             "spanning": lambda y: f"the fiscal year spanning {date_us(start_date(co, y))} to {date_us(co.end_date(y))}"}[style]
    lab = rng.choice(["FY{y}", "fiscal {y}"])
    return f(y0), f(y1), lab.format(y=y0), lab.format(y=y1)


def span_canyon(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    opts = [f"the three years presented in its latest 10-K (fiscal {fy - 2} to fiscal {fy})",
            f"a three-year window ending with fiscal {fy}"]
    s2 = start_date(co, fy - 2)
    if s2:
        opts.append(f"the period from {date_mof(s2)} to {date_mof(co.end_date(fy))} (fiscal {fy - 2} to fiscal {fy})")
    return rng.choice(opts)


ITEM_LABELS_CANYON = {
    "revenue": ["total revenue booked", "all revenue combined (total revenues)"],
    "cogs": ["cost of sales (the direct cost of what it sold)", "cost-of-revenue expense"],
    "gross_profit": ["gross profit generated on its sales", "gross-profit dollars earned"],
    "operating_income": ["operating result (operating income)", "operating profit line (operating income)"],
    "net_income": ["after-tax profit attributable to the company", "net income to the company (noncontrolling share stripped out)"],
    "eps_diluted": ["earnings per common share (diluted)", "diluted per-share earnings"],
    "total_assets": ["grand total of assets", "asset total on the balance sheet"],
    "total_liabilities": ["grand total of liabilities", "liabilities total on the balance sheet"],
    "current_assets": ["current assets added together", "total for current assets"],
    "current_liabilities": ["current liabilities added together", "total for current liabilities"],
    "inventory": ["inventories at carrying value", "inventory carried at the balance-sheet date"],
    "cash": ["cash & cash equivalents (not counting marketable securities)", "cash and equivalents (the balance-sheet line itself)"],
    "lt_debt": ["noncurrent long-term debt (current maturities excluded)", "long-term debt sitting in noncurrent liabilities"],
    "equity": ["stockholders' equity carried on the balance sheet", "total shareholders' equity reported"],
    "total_equity_incl_nci": ["total equity (parent and noncontrolling holders together)", "all equity on the balance sheet, NCI included"],
    "cfo": ["net cash produced by operating activities", "cash flow from operating activities on a net basis"],
    "cfi": ["net investing cash flow (sign as reported)", "investing-activities net cash figure"],
    "cff": ["net financing cash flow (sign as reported)", "financing-activities net cash figure"],
    "capex": ["cash outlay for new property, plant and equipment (capex)", "capex per the cash flow statement"],
    "dna": ["D&A (depreciation and amortization) charged", "depreciation and amortization charges"],
    "rnd": ["R&D booked as expense", "research and development expensed"],
    "sga": ["SG&A expense booked", "selling and G&A expense (SG&A)"],
    "interest_expense": ["interest expense booked", "interest charges on its borrowings (interest expense)"],
    "income_tax": ["income tax provision charged", "income taxes provided for (tax expense)"],
    "dividends": ["dividend cash paid to stockholders", "cash dividend bill"],
    "buybacks": ["cash spent buying back its own stock", "cash put into share buybacks"],
    "receivables": ["trade receivables after allowances", "net A/R on the balance sheet"],
    "ppe": ["depreciated book value of PP&E", "PP&E carried at cost less accumulated depreciation"],
}

AVG3_RATIO_CANYON = {"capex": ["capex (cash outlay for PP&E)", "capital spending on plant and equipment"],
                     "rnd": ["R&D dollars", "expensed research and development"],
                     "sga": ["SG&A dollars", "selling and G&A costs"]}

# key: (names, definitions); names as rates, turns and covers with the basis in brackets; definitions
# as arrow chains of steps or in prose ("all over", "backed out", "put back").
METRICS_CANYON = {
    "gross_margin": (["percentage gross margin", "GM% (gross profit over revenue)"],
                     ["gross profit → ÷ revenue → ×100",
                      "revenue less cost of sales, all over revenue, in percent"]),
    "operating_margin": (["percentage operating margin", "OM% (operating income over revenue)"],
                         ["operating income → ÷ revenue → ×100",
                          "operating income all over revenue, in percent"]),
    "net_margin": (["percentage net margin (attributable net income over revenue)", "NM% (company-share net income over revenue)"],
                   ["net income attributable to the company → ÷ revenue → ×100",
                    "the company's share of net income all over total revenue, in percent"]),
    "roa": (["asset return on the opening/closing average (%)", "average-balance ROA (%)"],
            ["total assets at the prior and current year-ends → average them → divide net income by the result → ×100",
             "net income all over the opening/closing average of total assets, in percent"]),
    "roe": (["equity return on the opening/closing average (%)", "average-balance ROE (%)"],
            ["shareholders' equity at the prior and current year-ends → average them → divide net income by the result → ×100",
             "net income all over the opening/closing average of shareholders' equity, in percent"]),
    "asset_turnover": (["asset turnover on the opening/closing average (x)", "revenue turns of average total assets"],
                       ["total assets at the prior and current year-ends → average them → divide revenue by the result",
                        "revenue all over the opening/closing average of total assets"]),
    "fixed_asset_turnover": (["net PP&E turnover on the opening/closing average (x)", "revenue turns of average net PP&E"],
                             ["net PP&E at the prior and current year-ends → average them → divide revenue by the result",
                              "revenue all over the opening/closing average of net property, plant and equipment"]),
    "inventory_turnover": (["inventory turnover on the opening/closing average (x, cost-of-sales basis)",
                            "cost-of-sales turns of average inventory"],
                           ["inventories at the prior and current year-ends → average them → divide cost of sales by the result",
                            "cost of sales all over the opening/closing average of inventories"]),
    "dso_avg": (["DSO (average-receivables method)", "days to collect on average receivables"],
                ["accounts receivable at the prior and current year-ends → average them → ÷ revenue → ×365",
                 "the opening/closing average of accounts receivable, all over revenue, times 365"]),
    "dso_end": (["DSO (year-end-receivables method)", "days to collect on closing receivables"],
                ["accounts receivable at the year-end → ÷ revenue → ×365",
                 "closing accounts receivable all over revenue, times 365"]),
    "quick_ratio": (["quick ratio (inventories backed out)", "acid ratio (current assets excluding inventories, over current liabilities)"],
                    ["total current assets → minus inventories → ÷ total current liabilities",
                     "current assets with inventories backed out, all over current liabilities"]),
    "current_ratio": (["short-term liquidity ratio (current assets to current liabilities)", "current ratio (times covered)"],
                      ["total current assets → ÷ total current liabilities",
                       "current assets all over current liabilities"]),
    "interest_coverage": (["EBIT-to-interest cover (EBIT = operating income)", "interest service cover from operating income (x)"],
                          ["operating income → ÷ interest expense",
                           "operating income all over interest expense"]),
    "payout": (["cash payout of earnings (%)", "dividend payout on a cash-paid basis (%)"],
               ["cash dividends paid → ÷ net income → ×100",
                "dividends paid in cash all over net income, in percent"]),
    "ebitda": (["EBITDA (no adjustments: operating income plus D&A)", "operating income before D&A (EBITDA)"],
               ["operating income → + depreciation and amortization",
                "operating income with depreciation and amortization put back"]),
    "ebitda_margin": (["EBITDA margin rate (operating income plus D&A over revenue)", "OIBDA margin (%)"],
                      ["operating income → + D&A → ÷ revenue → ×100",
                       "operating income with D&A put back, all over revenue, in percent"]),
    "ebitda_less_capex": (["EBITDA less capex (operating income + D&A − capex)", "OIBDA minus capital spending"],
                          ["operating income → + D&A → − capital expenditures",
                           "operating income with D&A put back, then capex taken away"]),
    "working_capital": (["working-capital balance (current assets less current liabilities)", "WC dollars (CA minus CL)"],
                        ["total current assets → − total current liabilities (it can go negative)",
                         "current assets with current liabilities backed out"]),
    "cash_conversion": (["operating-cash-to-net-income multiple", "cash realization of earnings (CFO over net income)"],
                        ["net cash from operating activities → ÷ net income",
                         "operating cash flow all over net income"]),
    "ocf_ratio": (["CFO-to-current-liabilities multiple", "operating cash flow ratio (year-end current liabilities basis)"],
                  ["net cash from operating activities → ÷ total current liabilities at the year-end",
                   "operating cash flow for the year, all over year-end current liabilities"]),
    "rnd_pct": (["R&D-to-revenue ratio (%)", "research spend rate (R&D over revenue)"],
                ["R&D expense → ÷ revenue → ×100",
                 "research and development expense all over revenue, in percent"]),
    "sga_pct": (["SG&A-to-revenue ratio (%)", "overhead rate (SG&A over revenue)"],
                ["SG&A expense → ÷ revenue → ×100",
                 "selling, general and administrative expense all over revenue, in percent"]),
    "capex_pct": (["capex-to-revenue ratio (%)", "reinvestment rate (capex over revenue)"],
                  ["capital expenditures → ÷ revenue → ×100",
                   "purchases of property, plant and equipment all over revenue, in percent"]),
    "fcf": (["free cash flow (operating-cash-minus-capex version)", "cash left after capex (FCF)"],
            ["net cash from operating activities → − capital expenditures",
             "operating cash flow with capex backed out"]),
    "debt_to_equity": (["LT-debt-to-equity multiple (noncurrent debt only)", "long-term debt gearing against shareholders' equity (x)"],
                       ["long-term debt excluding current maturities → ÷ shareholders' equity",
                        "noncurrent long-term debt all over shareholders' equity"]),
    "etr": (["ETR (tax provision over pre-tax income, %)", "all-in effective tax rate on pre-tax income"],
            ["income tax expense → ÷ income before income taxes → ×100",
             "the income tax provision all over pre-tax income, in percent"]),
}

ITEM_TEMPLATES["canyon"] = [
    "Subject: {co} -- {item} {per}. Hi, could you send me the number{scale}? Thanks.",
    "Risk meeting starts in five minutes and I need {co}'s {item} {per}{scale}.",
    "For the initiation's financial summary table: {co}, {item}, {per}{scale}?",
    "Annual review of {co}'s credit facility: what {item} did the obligor report {per}{scale}?",
    "The copy desk wants a source for a figure: {co}'s {item} {per}{scale}. Where does the 10-K put it?",
    "L:anyone have {co}'s {item} {per} handy{scale}?",
    "I:Lead schedule tie-out -- {co}'s {item} {per}{scale}: what's the audited balance?",
    "FP&A here, benchmarking against {co}: what {item} did it report {per}{scale}?",
    "Case write-up for my corporate finance seminar: I need {co}'s {item} {per}{scale}.",
    "{co}; {item}; {per}{scale}?",
    "To whom it may concern: please provide {co}'s {item} {per}{scale}, as stated in its annual report on Form 10-K.",
    "X:Thesis check on {co} -- what did the income statement show for {item} {per}{scale}?",
    "Treasury asked me for {co}'s {item} {per}{scale} -- what was it?",
    "Before I size up a position in {co}: what was its {item} {per}{scale}?",
    "Drafting a chart caption on {co}. Its {item} {per} was how much{scale}?",
    "Problem 2(a): From {co}'s 10-K, report the {item} {per}{scale}.",
]

CHANGE_ABS_TEMPLATES["canyon"] = [
    "Subject: {co} {item}, {y0} vs {y1}. Could you send the increase or decrease in dollars{scale}? A decrease should be negative.",
    "Risk meeting prep: {co}'s {item}, {p0} to {p1} -- net dollar move{scale}? Give a drop as a negative number.",
    "Obligor trend check ({co}): {item}, {p1} compared to {p0} -- signed dollar difference{scale}?",
    "I:Lead schedule roll for {co}: {item} at {p0} versus {p1}. What's the difference, closing less opening{scale}?",
    "L:{co}'s {item} {y0} to {y1}, did it go up or come down? need the $ amount{scale}, minus sign if down",
    "Problem 3(b): Using {co}'s 10-K, compute {item} for {y1} minus {item} for {y0}{scale}.",
    "F:For the copy desk: {co}'s {item} in {p1} was how many dollars above or below {p0}{scale}? (Below = negative.)",
    "FP&A question: take {co}'s {y1} {item} and back out the {y0} amount -- what's left{scale}?",
    "{co}; {item}; {y1} minus {y0}{scale}?",
]

CHANGE_PCT_TEMPLATES["canyon"] = [
    "Subject: {co} -- {item} growth. Could you tell me the percent change from {p0} to {p1}{fmt}? Thanks.",
    "Risk meeting prep: {co}'s {item} -- percent expansion or contraction from {p0} to {p1}{fmt}?",
    "F:Initiation draft, growth table: {co}'s {item} growth in {p1} over {p0}{fmt}? A decline comes out negative.",
    "I:Obligor trend check ({co}): percent change in {item} from {p0} to {p1}{fmt}, negative for a decline?",
    "L:{co} {item} -- up or down by what percent, {y0} to {y1}{fmt}?",
    "Problem 3(c): By what percentage did {co}'s {item} change from {y0} to {y1}? Divide the change by the {y0} figure{fmt}.",
    "For a chart caption I need the annual percentage change in {co}'s {item} between {p0} and {p1}{fmt}.",
    "{co}; {item}; growth {y0} to {y1}, %{fmt}?",
]

AVG_BAL_TEMPLATES["canyon"] = [
    "Subject: {co} average {item}. For {p1}, could you take the mean of the opening and closing balances{scale}?",
    "I need {co}'s average {item} for {p1} as the denominator of a return calculation -- simply the {y0} and {y1} year-end balances added together and halved{scale}.",
    "L:{co} avg {item} for {p1}? just (start + end)/2{scale}",
    "Problem 4: Given {co}'s {item} at the end of {y0} and at the end of {y1}, find the average balance{scale}.",
    "Obligor review: {co}'s average {item} over {p1}, from its beginning and ending balance sheets{scale}?",
]

AVG3_TEMPLATES["canyon"] = [
    "Subject: {co} three-year average. What was the average annual {item} over {span}{scale}?",
    "PM asked for a smoothed number: {co}'s {item} averaged over {span}{scale}.",
    "L:{co} {item} avg per year across {span}{scale}?",
    "Problem 5: {co} reported {item} for {y2}, {y0} and {y1}. Average the three figures{scale}.",
    "For the initiation's history section: the typical annual {item} at {co} over {span}, as a plain average of the three years{scale}?",
]

AVG3_RATIO_TEMPLATES["canyon"] = [
    "Problem 6: For each of {y2}, {y0} and {y1}, divide {co}'s {metric} by revenue (in %); then average those three ratios{fmt}.",
    "L:{co} {metric} as % of revenue, each year of {span}, then averaged{fmt}?",
    "For the initiation's margin history: {co}'s {metric} relative to revenue over {span}, averaged year by year -- compute each year's percentage first and then average those three{fmt}.",
    "Subject: {co}, {metric} vs revenue. Over {span}, take {metric} as a percent of revenue year by year -- what's the average of the three{fmt}?",
]

METRIC_TEMPLATES["canyon"] = {
    "plain": [
        "Subject: {co} {metric}. Could you work out the figure {per}{fmt}?",
        "Risk meeting in five minutes: {co}'s {metric} {per}{fmt}?",
        "For the initiation's ratio table: {co}, {metric}, {per}{fmt}.",
        "Obligor review ({co}): what {metric} did it run at {per}{fmt}?",
        "L:anyone worked out {co}'s {metric} {per}{fmt}?",
        "{co}; {metric}; {per}{fmt}?",
        "The copy desk wants to quote {co}'s {metric} {per}{fmt}. What is it?",
        "Problem 7: Compute {co}'s {metric} {per}{fmt}.",
        "FP&A benchmarking: {metric} at {co} {per}{fmt}?",
    ],
    "defn": [
        "Subject: {co} {metric}. We compute it as {defn}. What's the result {per}{fmt}?",
        "Risk meeting prep -- {co}'s {metric} {per}{fmt}? Compute it as {defn}.",
        "For the initiation's ratio table we use {metric} = {defn}. {co}'s figure {per}{fmt}?",
        "Obligor review: the facility agreement's definition of {metric} is {defn}. Where did {co} stand {per}{fmt}?",
        "L:{co} {metric} {per}{fmt}? we do it as {defn}",
        "Problem 8: {metric} is defined as {defn}. Find it for {co} {per}{fmt}.",
        "{co}; {metric}; {per}; basis: {defn}{fmt}?",
        "For the article's methodology box, {metric} is {defn}. What number comes out for {co} {per}{fmt}?",
    ],
}

COMPARE_TEMPLATES["canyon"] = [
    "Subject: {A} vs {B}. {Per}, which of the two had the {adj} {metric}?",
    "Risk meeting question: {per}, {A} or {B} -- whose {metric} was {adj}?",
    "Two obligors, {A} and {B}: which one is {adj} on {metric} {per}?",
    "L:who's got the {adj} {metric} {per}, {A} or {B}?",
    "Problem 9: Of {A} and {B}, which reported the {adj} {metric} {per}?",
    "{A}; {B}; {metric}; {per} -- which is {adj}?",
    "Subject: {A} vs {B}. {Per}, which company had {more} {item}?",
    "Risk meeting question: {per}, which name reported {more} {item}, {A} or {B}?",
    "Two obligors, {A} and {B}: whose {item} was {adj} {per}?",
    "L:{item} {per}: {adj} at {A} or at {B}?",
    "For a chart comparing {A} with {B}, {per}: which company's {item} was {adj}?",
    "{A}; {B}; {item}; {per} -- which is {adj}?",
]


def compare_period_canyon(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"as their fiscal {a.fy} years ended", f"at each one's fiscal {a.fy} close"]
            if dec31:
                opts.append(f"as of {date_mof(a.F.fy_end)}")
        else:
            opts = [f"across fiscal {a.fy} as a whole", f"in their fiscal {a.fy} annual results"]
            if dec31:
                opts.append(f"in the year that ran to {date_mof(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        return rng.choice([f"as each one's latest fiscal year ended ({na}: {date_mof(a.F.fy_end)}; {nb}: {date_mof(b.F.fy_end)})",
                           f"at their latest fiscal closes ({na}: fiscal {a.fy}; {nb}: fiscal {b.fy})"])
    return rng.choice([f"in each one's latest annual results ({na}: fiscal {a.fy}; {nb}: fiscal {b.fy})",
                       f"for the years that ran to {date_mof(a.F.fy_end)} ({na}) and {date_mof(b.F.fy_end)} ({nb})"])


def compare_period_new(a, b, instant, split, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if split == "summit":
        return compare_period_summit(a, b, instant, rng)
    if split == "tundra":
        return compare_period_tundra(a, b, instant, rng)
    if split == "ridge":
        return compare_period_ridge(a, b, instant, rng)
    if split == "canyon":
        return compare_period_canyon(a, b, instant, rng)
    if split == "mesa":
        return compare_period_mesa(a, b, instant, rng)
    if split == "quarry":
        return compare_period_quarry(a, b, instant, rng)
    if split == "harbor":
        return compare_period_harbor(a, b, instant, rng)
    if split == "zenith":
        return compare_period_zenith(a, b, instant, rng)
    if split == "atlas":
        return compare_period_atlas(a, b, instant, rng)
    if split == "ledger":
        return compare_period_ledger(a, b, instant, rng)
    if split == "novel":
        if same:
            if instant:
                opts = [f"exiting FY{yy(a.fy)}", f"per their FY{yy(a.fy)} B/S"]
                if a.calendar and b.calendar and a.F.fy_end.month == 12 and b.F.fy_end.month == 12:
                    opts.append(f"at YE{yy(a.fy)}")
            else:
                opts = [f"for FY{yy(a.fy)}", f"on FY{yy(a.fy)} numbers"]
                if a.calendar and b.calendar:
                    opts.append(f"in '{yy(a.fy)}")
            return rng.choice(opts)
        if instant:
            return rng.choice([f"on each one's latest B/S ({na} {date_mdyy(a.F.fy_end)}, {nb} {date_mdyy(b.F.fy_end)})",
                               f"exiting their latest FYs ({na} FY{yy(a.fy)}, {nb} FY{yy(b.fy)})"])
        return rng.choice([f"on latest-FY numbers ({na} FY{yy(a.fy)}, {nb} FY{yy(b.fy)})",
                           f"using each one's latest FY ({na}: FY ended {date_num(a.F.fy_end)}; {nb}: FY ended {date_num(b.F.fy_end)})"])
    if same:
        if instant:
            opts = [f"when fiscal {a.fy} closed", f"at year-end fiscal {a.fy}"]
            if dec31:
                opts.append(f"at the Dec. 31, {a.F.fy_end.year} balance sheet date")
        else:
            opts = [f"for full-year fiscal {a.fy}", f"in fiscal '{yy(a.fy)}"]
            if a.calendar and b.calendar:
                opts.append(f"for full-year {a.fy}")
        return rng.choice(opts)
    if instant:
        return rng.choice([f"at their latest fiscal year-ends ({date_ap(a.F.fy_end)} for {na}, {date_ap(b.F.fy_end)} for {nb})",
                           f"when their latest fiscal years closed ({na}: fiscal '{yy(a.fy)}; {nb}: fiscal '{yy(b.fy)})"])
    return rng.choice([f"in the fiscal years ending {date_ap(a.F.fy_end)} ({na}) and {date_ap(b.F.fy_end)} ({nb}) respectively",
                       f"in each company's newest reported fiscal year ({na}: fiscal '{yy(a.fy)}; {nb}: fiscal '{yy(b.fy)})"])


def metric_names(m, split):
    if split == "summit":
        return METRICS_SUMMIT[m][0]
    if split == "tundra":
        return METRICS_TUNDRA[m][0]
    if split == "ridge":
        return METRICS_RIDGE[m][0]
    if split == "canyon":
        return METRICS_CANYON[m][0]
    if split == "mesa":
        return METRICS_MESA[m][0]
    if split == "quarry":
        return METRICS_QUARRY[m][0]
    if split == "harbor":
        return METRICS_HARBOR[m][0]
    if split == "zenith":
        return METRICS_ZENITH[m][0]
    if split == "atlas":
        return METRICS_ATLAS[m][0]
    if split == "ledger":
        return METRICS_LEDGER[m][0]
    if split == "novel":
        return METRICS_NOVEL[m][0]
    if split == "vault":
        return METRICS_VAULT[m][0]
    if split == "sealed":
        return METRICS_SEALED[m][0]
    if split == "final":
        return METRICS_FINAL[m][0]
    return METRICS_FRESH[m][0] if split == "fresh" else METRICS[m][1] if split == "dev" else METRICS[m][2]


def metric_defs(m, split):
    if split == "summit":
        return METRICS_SUMMIT[m][1]
    if split == "tundra":
        return METRICS_TUNDRA[m][1]
    if split == "ridge":
        return METRICS_RIDGE[m][1]
    if split == "canyon":
        return METRICS_CANYON[m][1]
    if split == "mesa":
        return METRICS_MESA[m][1]
    if split == "quarry":
        return METRICS_QUARRY[m][1]
    if split == "harbor":
        return METRICS_HARBOR[m][1]
    if split == "zenith":
        return METRICS_ZENITH[m][1]
    if split == "atlas":
        return METRICS_ATLAS[m][1]
    if split == "ledger":
        return METRICS_LEDGER[m][1]
    if split == "novel":
        return METRICS_NOVEL[m][1]
    if split == "vault":
        return METRICS_VAULT[m][1]
    if split == "sealed":
        return METRICS_SEALED[m][1]
    if split == "final":
        return METRICS_FINAL[m][1]
    return METRICS_FRESH[m][1] if split == "fresh" else METRICS[m][3] if split == "dev" else METRICS[m][4]


INSTANT_METRICS = {"quick_ratio", "current_ratio", "working_capital", "debt_to_equity"}
AVG_METRICS = {"roa", "roe", "asset_turnover", "fixed_asset_turnover", "inventory_turnover", "dso_avg"}


def compute_metric(co, m, fy):
    """(value, evidence list, formula) or None."""
    V = co.val

    def need(*pairs):
        got = []
        for k, y in pairs:
            v = V(k, y)
            if v is None:
                return None
            got.append(v)
        return got

    def div(a, b, mult=1.0):
        if b == 0:
            return None
        return a / b * mult

    if m in ("gross_margin", "operating_margin", "net_margin", "rnd_pct", "sga_pct", "capex_pct"):
        num = {"gross_margin": "gross_profit", "operating_margin": "operating_income", "net_margin": "net_income",
               "rnd_pct": "rnd", "sga_pct": "sga", "capex_pct": "capex"}[m]
        g = need((num, fy), ("revenue", fy))
        if not g:
            return None
        return div(g[0][0], g[1][0], 100), g[0][1] + g[1][1], f"{num} / revenue * 100 = {fmt_num(g[0][0])} / {fmt_num(g[1][0])} * 100"
    if m in ("roa", "roe"):
        bal = "total_assets" if m == "roa" else "equity"
        ni = V("net_income", fy)
        a = co.avg(bal, fy)
        if not ni or not a or a[0] <= 0:
            return None
        return div(ni[0], a[0], 100), ni[1] + a[1], f"net_income / avg({bal} {fy - 1}, {fy}) * 100 = {fmt_num(ni[0])} / {fmt_num(a[0])} * 100"
    if m in ("asset_turnover", "fixed_asset_turnover", "inventory_turnover", "dso_avg"):
        bal = {"asset_turnover": "total_assets", "fixed_asset_turnover": "ppe", "inventory_turnover": "inventory",
               "dso_avg": "receivables"}[m]
        flow = "cogs" if m == "inventory_turnover" else "revenue"
        f = V(flow, fy)
        a = co.avg(bal, fy)
        if not f or not a or a[0] <= 0:
            return None
        if m == "dso_avg":
            return div(a[0], f[0], 365), f[1] + a[1], f"avg(receivables {fy - 1}, {fy}) / revenue * 365 = {fmt_num(a[0])} / {fmt_num(f[0])} * 365"
        return div(f[0], a[0]), f[1] + a[1], f"{flow} / avg({bal} {fy - 1}, {fy}) = {fmt_num(f[0])} / {fmt_num(a[0])}"
    if m == "dso_end":
        g = need(("receivables", fy), ("revenue", fy))
        if not g:
            return None
        return div(g[0][0], g[1][0], 365), g[0][1] + g[1][1], f"receivables / revenue * 365 = {fmt_num(g[0][0])} / {fmt_num(g[1][0])} * 365"
    if m == "quick_ratio":
        g = need(("current_assets", fy), ("inventory", fy), ("current_liabilities", fy))
        if not g:
            return None
        return div(g[0][0] - g[1][0], g[2][0]), g[0][1] + g[1][1] + g[2][1], \
            f"(current_assets - inventory) / current_liabilities = ({fmt_num(g[0][0])} - {fmt_num(g[1][0])}) / {fmt_num(g[2][0])}"
    if m == "current_ratio":
        g = need(("current_assets", fy), ("current_liabilities", fy))
        if not g:
            return None
        return div(g[0][0], g[1][0]), g[0][1] + g[1][1], f"current_assets / current_liabilities = {fmt_num(g[0][0])} / {fmt_num(g[1][0])}"
    if m == "working_capital":
        g = need(("current_assets", fy), ("current_liabilities", fy))
        if not g:
            return None
        return g[0][0] - g[1][0], g[0][1] + g[1][1], f"current_assets - current_liabilities = {fmt_num(g[0][0])} - {fmt_num(g[1][0])}"
    if m == "interest_coverage":
        g = need(("operating_income", fy), ("interest_expense", fy))
        if not g or g[1][0] <= 0:
            return None
        return div(g[0][0], g[1][0]), g[0][1] + g[1][1], f"operating_income / interest_expense = {fmt_num(g[0][0])} / {fmt_num(g[1][0])}"
    if m == "payout":
        g = need(("dividends", fy), ("net_income", fy))
        if not g or g[1][0] <= 0:
            return None
        return div(g[0][0], g[1][0], 100), g[0][1] + g[1][1], f"dividends_paid / net_income * 100 = {fmt_num(g[0][0])} / {fmt_num(g[1][0])} * 100"
    if m in ("ebitda", "ebitda_margin", "ebitda_less_capex"):
        g = need(("operating_income", fy), ("dna", fy))
        if not g:
            return None
        e = g[0][0] + g[1][0]
        evid = g[0][1] + g[1][1]
        if m == "ebitda":
            return e, evid, f"operating_income + dna = {fmt_num(g[0][0])} + {fmt_num(g[1][0])}"
        if m == "ebitda_margin":
            r = V("revenue", fy)
            if not r:
                return None
            return div(e, r[0], 100), evid + r[1], f"(operating_income + dna) / revenue * 100 = ({fmt_num(g[0][0])} + {fmt_num(g[1][0])}) / {fmt_num(r[0])} * 100"
        c = V("capex", fy)
        if not c:
            return None
        return e - c[0], evid + c[1], f"operating_income + dna - capex = {fmt_num(g[0][0])} + {fmt_num(g[1][0])} - {fmt_num(c[0])}"
    if m == "cash_conversion":
        g = need(("cfo", fy), ("net_income", fy))
        if not g or g[1][0] <= 0:
            return None
        return div(g[0][0], g[1][0]), g[0][1] + g[1][1], f"cfo / net_income = {fmt_num(g[0][0])} / {fmt_num(g[1][0])}"
    if m == "ocf_ratio":
        g = need(("cfo", fy), ("current_liabilities", fy))
        if not g:
            return None
        return div(g[0][0], g[1][0]), g[0][1] + g[1][1], f"cfo / current_liabilities = {fmt_num(g[0][0])} / {fmt_num(g[1][0])}"
    if m == "fcf":
        g = need(("cfo", fy), ("capex", fy))
        if not g:
            return None
        return g[0][0] - g[1][0], g[0][1] + g[1][1], f"cfo - capex = {fmt_num(g[0][0])} - {fmt_num(g[1][0])}"
    if m == "debt_to_equity":
        g = need(("lt_debt", fy), ("equity", fy))
        if not g or g[1][0] <= 0:
            return None
        return div(g[0][0], g[1][0]), g[0][1] + g[1][1], f"lt_debt / equity = {fmt_num(g[0][0])} / {fmt_num(g[1][0])}"
    if m == "etr":
        g = need(("income_tax", fy), ("pretax_income", fy))
        if not g or g[1][0] <= 0:
            return None
        return div(g[0][0], g[1][0], 100), g[0][1] + g[1][1], f"income_tax / pretax_income * 100 = {fmt_num(g[0][0])} / {fmt_num(g[1][0])} * 100"
    raise KeyError(m)


# ---------------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------------

def rnd_gold(x):
    return float(round(x, 6))


def record(co, question, family, concept, fy, kind, gold, decimals, scale, evidence, formula):
    return {"doc": co.doc, "question": " ".join(question.split()), "family": family, "concept": concept,
            "fiscal_year": int(fy), "kind": kind, "gold": rnd_gold(gold), "decimals": decimals,
            "asked_scale": scale, "evidence": "; ".join(evidence), "formula": formula}


def fill(tpl, **kw):
    kw.setdefault("Per", cap(kw.get("per", "")))
    s = tpl.format(**kw)
    if not s.startswith("pls "):             # chat-style "pls ..." stays lower case
        s = s[:1].upper() + s[1:]
    if s.endswith("d.p.."):
        s = s[:-1]
    s = re.sub(r"(\w)s's\b", r"\1s'", s)        # "General Motors's" -> "General Motors'"
    return s.replace(" ,", ",")


def pick_label(rng, key, split):
    if split == "summit":
        return rng.choice(ITEM_LABELS_SUMMIT[key])
    if split == "tundra":
        return rng.choice(ITEM_LABELS_TUNDRA[key])
    if split == "ridge":
        return rng.choice(ITEM_LABELS_RIDGE[key])
    if split == "canyon":
        return rng.choice(ITEM_LABELS_CANYON[key])
    if split == "mesa":
        return rng.choice(ITEM_LABELS_MESA[key])
    if split == "quarry":
        return rng.choice(ITEM_LABELS_QUARRY[key])
    if split == "harbor":
        return rng.choice(ITEM_LABELS_HARBOR[key])
    if split == "zenith":
        return rng.choice(ITEM_LABELS_ZENITH[key])
    if split == "atlas":
        return rng.choice(ITEM_LABELS_ATLAS[key])
    if split == "ledger":
        return rng.choice(ITEM_LABELS_LEDGER[key])
    if split == "novel":
        return rng.choice(ITEM_LABELS_NOVEL[key])
    if split == "vault":
        return rng.choice(ITEM_LABELS_VAULT[key])
    if split == "sealed":
        return rng.choice(ITEM_LABELS_SEALED[key])
    if split == "final":
        return rng.choice(ITEM_LABELS_FINAL[key])
    labels = ITEM_LABELS_FRESH[key] if split == "fresh" else ITEM_LABELS[key][0 if split == "dev" else 1]
    return rng.choice(labels)


def gen_items(co, rng, split, n=8):
    cands = []
    for k in ITEM_KEYS:
        for fy in (co.fy, co.fy - 1):
            if co.val(k, fy) is not None:
                cands.append((k, fy))
    rng.shuffle(cands)
    # mostly the latest year, one or two prior-year ones; no item twice
    n_prior = rng.choice([1, 2, 2])
    prior = [c for c in cands if c[1] != co.fy]
    cur = [c for c in cands if c[1] == co.fy]
    cands = prior[:n_prior] + cur + prior[n_prior:]
    out, used = [], set()
    tpls = ITEM_TEMPLATES[split]
    for k, fy in cands:
        if k in used or len(out) >= n:
            continue
        used.add(k)
        v, evid = co.val(k, fy)
        per = rng.choice(inst_phrases(co, fy, split) if k in INSTANT_KEYS else dur_phrases(co, fy, split))
        if k == "eps_diluted" and split == "summit":
            scale = rng.choice([("", None, None), (" (round to the penny)", None, 2)])
        elif k == "eps_diluted" and split == "tundra":
            scale = rng.choice([("", None, None), (" (two decimals, $ per diluted share)", None, 2)])
        elif k == "eps_diluted" and split == "ridge":
            scale = rng.choice([("", None, None), (" (dollars per diluted share, hundredths place)", None, 2)])
        elif k == "eps_diluted" and split == "canyon":
            scale = rng.choice([("", None, None), (" (per diluted share, $X.XX format)", None, 2)])
        elif k == "eps_diluted" and split == "mesa":
            scale = rng.choice(EPS_SCALE_MESA)
        elif k == "eps_diluted" and split == "quarry":
            scale = rng.choice([("", None, None), (" (per share, precision $0.01)", None, 2)])
        elif k == "eps_diluted" and split == "harbor":
            scale = rng.choice([("", None, None), (" (dollars per share, 2 places)", None, 2)])
        elif k == "eps_diluted" and split == "zenith":
            scale = rng.choice([("", None, None), (" (per share, round to cents)", None, 2)])
        elif k == "eps_diluted" and split == "atlas":
            scale = rng.choice([("", None, None), (" ($ per share, x.xx)", None, 2)])
        elif k == "eps_diluted" and split == "ledger":
            scale = rng.choice([("", None, None), (" ($/share, two decimals)", None, 2)])
        elif k == "eps_diluted" and split == "novel":
            scale = rng.choice([("", None, None), (" ($/sh, 2 decimals)", None, 2)])
        elif k == "eps_diluted" and split == "vault":
            scale = rng.choice([("", None, None), (", to the nearest cent", None, 2)])
        elif k == "eps_diluted" and split == "sealed":
            scale = rng.choice([("", None, None), (", in dollars and cents", None, 2)])
        elif k == "eps_diluted" and split == "final":
            scale = rng.choice([("", None, None), (" (US$ per share, two decimal places)", None, 2)])
        elif k == "eps_diluted":
            scale = rng.choice([("", None, None), (", to the cent", None, 2)] if split == "dev" else
                               [("", None, None), (" (USD/share, 2 d.p.)", None, 2)] if split == "fresh" else
                               [("", None, None), (" (USD per share, 2 dp)", None, 2)])
        else:
            scale = usd_scale(rng, split, v, co.small)
        if split in NEW_SPLITS:
            q = fill2(pick_new(rng, tpls, inst=k in INSTANT_KEYS, pnl=k in PNL_KEYS), co=rng.choice(co.names),
                      item=pick_label(rng, k, split), per=per, scale=scale[0])
        elif split in ("final", "sealed"):
            ok = [t for t in tpls if not (t.startswith("F:") and k in INSTANT_KEYS)
                  and not (t.startswith("I:") and k not in INSTANT_KEYS)
                  and not (t.startswith("X:") and k not in PNL_KEYS)]
            q = fill(re.sub(r"^[FIX]:", "", rng.choice(ok)), co=rng.choice(co.names), item=pick_label(rng, k, split),
                     per=per, scale=scale[0])
        else:
            q = fill(rng.choice(tpls), co=rng.choice(co.names), item=pick_label(rng, k, split), per=per, scale=scale[0])
        out.append(record(co, q, "items", k, fy, KIND[k], v, scale[2], scale[1], evid, f"{k} as tagged"))
    return out


def yr_forms(co, fy, split, rng, instant=False):
    """(p0, p1, y0, y1) labels for a pair of consecutive fiscal years ending fy (year-ends if instant)."""
    y0, y1 = fy - 1, fy
    if split in NEW_SPLITS:
        return yr_forms_new(co, fy, split, rng, instant)
    if split == "sealed":
        if instant:
            style = rng.choice(["ordus", "ofuk", "endfy"])
            f = {"ordus": lambda y: date_ordus(co.end_date(y)), "ofuk": lambda y: date_ofuk(co.end_date(y)),
                 "endfy": lambda y: f"end-FY{y}"}[style]
        else:
            style = rng.choice(["ukfy", "ended", "endmon"])
            if style == "endmon" and not end_month(co.end_date(fy)):
                style = "ukfy"
            f = {"ukfy": lambda y: f"the {y} financial year", "ended": lambda y: f"the year ended {date_ordus(co.end_date(y))}",
                 "endmon": lambda y: f"the year to {end_month(co.end_date(y))}"}[style]
        return f(y0), f(y1), f"FY{y0}", f"FY{y1}"
    if split == "final":
        if instant:
            style = rng.choice(["ord", "mdy", "rep"])
            f = {"ord": lambda y: date_ord(co.end_date(y)), "mdy": lambda y: date_mdy(co.end_date(y)),
                 "rep": lambda y: f"the fiscal year {y} reporting date"}[style]
        else:
            style = rng.choice(["fy", "ended", "to"])
            f = {"fy": lambda y: f"fiscal year {y}", "ended": lambda y: f"the year that ended {date_mdy(co.end_date(y))}",
                 "to": lambda y: f"the year to {date_ord(co.end_date(y))}"}[style]
        return f(y0), f(y1), f"FY{y0}", f"FY{y1}"
    if split == "fresh":
        if instant:
            style = rng.choice(["fye", "iso", "fin"])
            f = {"fye": lambda y: f"FYE {date_dmy(co.end_date(y))}", "iso": lambda y: date_iso(co.end_date(y)),
                 "fin": lambda y: f"the end of financial year {y}"}[style]
        else:
            style = rng.choice(["fin", "ending", "twelve"])
            f = {"fin": lambda y: f"financial year {y}", "ending": lambda y: f"the year ending {date_dmon(co.end_date(y))}",
                 "twelve": lambda y: f"the twelve months to {date_dmy(co.end_date(y))}"}[style]
        return f(y0), f(y1), f"FY{y0}", f"FY{y1}"
    if instant:
        if split == "dev":
            style = rng.choice(["end", "fye", "date"])
            f = {"end": lambda y: f"the end of FY{y}", "fye": lambda y: f"fiscal year-end {y}",
                 "date": lambda y: date_us(co.end_date(y))}[style]
            return f(y0), f(y1), f"FY{y0}", f"FY{y1}"
        style = rng.choice(["date", "close", "tick"])
        f = {"date": lambda y: date_eu(co.end_date(y)), "close": lambda y: f"the fiscal {y} year-end",
             "tick": lambda y: f"the close of FY '{y % 100:02d}"}[style]
        return f(y0), f(y1), f"fiscal {y0}", f"fiscal {y1}"
    if split == "dev":
        style = rng.choice(["FY", "fiscal", "FYyy"])
        f = {"FY": lambda y: f"FY{y}", "fiscal": lambda y: f"fiscal {y}", "FYyy": lambda y: f"FY{y % 100:02d}"}[style]
    else:
        style = rng.choice(["fy_word", "tick", "endeu"])
        if style == "endeu":
            f = lambda y: f"the year ended {date_eu(co.end_date(y))}"  # noqa: E731
        else:
            f = {"fy_word": lambda y: f"fiscal year {y}", "tick": lambda y: f"FY '{y % 100:02d}"}[style]
    short = (lambda y: f"FY{y}") if split == "dev" else (lambda y: f"fiscal {y}")
    return f(y0), f(y1), short(y0), short(y1)


CHANGE_KEYS = ["revenue", "gross_profit", "operating_income", "net_income", "eps_diluted", "cfo", "capex", "rnd",
               "sga", "total_assets", "equity", "cash", "inventory", "lt_debt", "dividends", "buybacks",
               "current_liabilities", "receivables", "dna", "income_tax"]


def gen_changes(co, rng, split, n=3):
    cands = [k for k in CHANGE_KEYS if co.val(k, co.fy) and co.val(k, co.fy - 1)]
    rng.shuffle(cands)
    out = []
    for i, k in enumerate(cands[:n]):
        fy = co.fy
        a, b = co.val(k, fy - 1), co.val(k, fy)
        pct_ok = a[0] > 0 and abs(b[0] / a[0] - 1) <= 5     # skip sign flips and >500% moves
        mode = "pct" if (pct_ok and (i % 2 == 0) != (rng.random() < 0.3)) else "abs"
        inst = k in INSTANT_KEYS
        p0, p1, y0, y1 = yr_forms(co, fy, split, rng, instant=inst)
        item = pick_label(rng, k, split)
        nm = rng.choice(co.names)
        evid = a[1] + b[1]

        def tpl(lst):
            if split in NEW_SPLITS:
                return pick_new(rng, lst, inst=inst)
            ok = [t for t in lst if not (inst and t.startswith("F:")) and not (not inst and t.startswith("I:"))]
            return re.sub(r"^[FI]:", "", rng.choice(ok))
        if mode == "pct":
            f = pct_fmt(rng, split)
            q = (fill2 if split in NEW_SPLITS else fill)(tpl(CHANGE_PCT_TEMPLATES[split]), co=nm, item=item, p0=p0, p1=p1, y0=y0, y1=y1, fmt=f[0])
            g = (b[0] - a[0]) / abs(a[0]) * 100
            out.append(record(co, q, "changes", f"{k}_growth_pct", fy, "percent", g, f[1], None, evid,
                              f"({k} {fy} - {k} {fy - 1}) / |{k} {fy - 1}| * 100 = ({fmt_num(b[0])} - {fmt_num(a[0])}) / {fmt_num(abs(a[0]))} * 100"))
        else:
            kind = KIND[k]
            if kind == "usd":
                s = usd_scale(rng, split, b[0] - a[0], co.small)
            else:
                s = ("", None, None)
            q = (fill2 if split in NEW_SPLITS else fill)(tpl(CHANGE_ABS_TEMPLATES[split]), co=nm, item=item, p0=p0, p1=p1, y0=y0, y1=y1, scale=s[0])
            out.append(record(co, q, "changes", f"{k}_change", fy, kind, b[0] - a[0], s[2], s[1], evid,
                              f"{k} {fy} - {k} {fy - 1} = {fmt_num(b[0])} - {fmt_num(a[0])}"))
    return out


AVG_BAL_KEYS = ["total_assets", "equity", "inventory", "receivables", "ppe"]
AVG3_KEYS = ["net_income", "revenue", "capex", "cfo", "rnd", "operating_income"]
AVG3_RATIO = {"capex": ("capex", ["capex", "capital expenditure"], ["capital spending", "capex"]),
              "rnd": ("rnd", ["R&D", "R&D spend"], ["research & development", "R&D"]),
              "sga": ("sga", ["SG&A"], ["SG&A expense"])}


AVG3_RATIO_FRESH = {"capex": ["capital investment (capex)", "PP&E purchases"],
                    "rnd": ["research and development", "R&D expense"], "sga": ["SG&A costs"]}


def gen_averages(co, rng, split, n=2):
    fy = co.fy
    out = []
    bal = [k for k in AVG_BAL_KEYS if co.avg(k, fy)]
    three = [k for k in AVG3_KEYS if all(co.val(k, y) for y in (fy, fy - 1, fy - 2))]
    ratio3 = [k for k in AVG3_RATIO if all(co.val(k, y) and co.val("revenue", y) for y in (fy, fy - 1, fy - 2))]
    choices = []
    if bal:
        choices.append(("bal", rng.choice(bal)))
    pool3 = [("avg3", k) for k in three] + [("ratio3", k) for k in ratio3]
    if pool3:
        choices.append(rng.choice(pool3))
    if len(choices) < n and len(bal) > 1:
        choices.append(("bal", rng.choice([k for k in bal if k != choices[0][1]])))
    p0, p1, y0, y1 = yr_forms(co, fy, split, rng)
    if split in NEW_SPLITS:
        y2 = {"novel": f"FY{yy(fy - 2)}", "vault": f"fiscal '{yy(fy - 2)}", "ledger": f"FY{fy - 2}", "atlas": f"FY {fy - 2}",
              "zenith": y0.replace(str(fy - 1), str(fy - 2)), "harbor": harbor_y2(y0, fy),
              "quarry": harbor_y2(y0, fy),   # quarry's FY-23 / F/Y 2023 labels step back the same way
              "summit": harbor_y2(y0, fy),   # and so do summit's FY 23 / FYE 2023 labels
              "tundra": harbor_y2(y0, fy),   # and tundra's FY2023 / FY'23 labels
              "ridge": harbor_y2(y0, fy),   # and ridge's FY2023 / fiscal year 2023 labels
              "canyon": harbor_y2(y0, fy),   # and canyon's FY2023 / fiscal 2023 labels
              "mesa": harbor_y2(y0, fy)}[split]   # and mesa's two labels (see yr_forms_mesa)
    else:
        y2 = f"FY{fy - 2}" if split in ("dev", "fresh", "final", "sealed") else f"fiscal {fy - 2}"
    yl = f"fiscal years {fy - 2}, {fy - 1} and {fy}"          # (final only)
    for typ, k in choices[:n]:
        nm = rng.choice(co.names)
        if typ == "bal":
            v, evid = co.avg(k, fy)
            s = usd_scale(rng, split, v, co.small)
            q = (fill2 if split in NEW_SPLITS else fill)(rng.choice(AVG_BAL_TEMPLATES[split]), co=nm, item=pick_label(rng, k, split), p0=p0, p1=p1, y0=y0, y1=y1, scale=s[0])
            a, b = co.val(k, fy - 1)[0], co.val(k, fy)[0]
            out.append(record(co, q, "averages", f"avg_{k}", fy, "usd", v, s[2], s[1], evid,
                              f"({k} end FY{fy - 1} + {k} end FY{fy}) / 2 = ({fmt_num(a)} + {fmt_num(b)}) / 2"))
        elif typ == "avg3":
            vals = [co.val(k, y) for y in (fy - 2, fy - 1, fy)]
            v = sum(x[0] for x in vals) / 3.0
            evid = [e for x in vals for e in x[1]]
            s = usd_scale(rng, split, v, co.small) if KIND[k] == "usd" else ("", None, None)
            end = (date_us(co.end_date(fy)) if split == "dev" else date_dmon(co.end_date(fy)) if split == "fresh"
                   else date_ord(co.end_date(fy)) if split == "final" else date_eu(co.end_date(fy)))
            if split in NEW_SPLITS:
                span = span_new(co, fy, split, rng)
                q = fill2(rng.choice(AVG3_TEMPLATES[split]), co=nm, item=pick_label(rng, k, split), y0=y0, y1=y1, y2=y2,
                          scale=s[0], span=span)
            elif split == "sealed":
                span = rng.choice([f"FY{fy - 2} to FY{fy} inclusive", f"the three fiscal years to {date_ordus(co.end_date(fy))}"])
                q = fill(rng.choice(AVG3_TEMPLATES[split]), co=nm, item=pick_label(rng, k, split), y0=y0, y1=y1, y2=y2,
                         scale=s[0], span=span)
            elif split == "final":
                yr = rng.choice([f"fiscal years {fy - 2} through {fy}", f"fiscal years {fy - 2} to {fy}"])
                q = fill(rng.choice(AVG3_TEMPLATES[split]), co=nm, item=pick_label(rng, k, split), y0=y0, y1=y1, y2=y2,
                         end=end, scale=s[0], yl=yl, yr=yr)
            else:
                q = fill(rng.choice(AVG3_TEMPLATES[split]), co=nm, item=pick_label(rng, k, split), y0=y0, y1=y1, y2=y2,
                         end=end, scale=s[0])
            out.append(record(co, q, "averages", f"avg3_{k}", fy, KIND[k], v, s[2], s[1], evid,
                              f"({' + '.join(fmt_num(x[0]) for x in vals)}) / 3"))
        else:
            ratios, evid = [], []
            for y in (fy - 2, fy - 1, fy):
                a, r = co.val(k, y), co.val("revenue", y)
                ratios.append(a[0] / r[0] * 100)
                evid += a[1] + r[1]
            v = sum(ratios) / 3.0
            f = pct_fmt(rng, split)
            if split in NEW_SPLITS:
                lab = rng.choice({"novel": AVG3_RATIO_NOVEL, "vault": AVG3_RATIO_VAULT, "ledger": AVG3_RATIO_LEDGER,
                                  "atlas": AVG3_RATIO_ATLAS, "zenith": AVG3_RATIO_ZENITH, "harbor": AVG3_RATIO_HARBOR,
                                  "quarry": AVG3_RATIO_QUARRY, "summit": AVG3_RATIO_SUMMIT,
                                  "tundra": AVG3_RATIO_TUNDRA, "ridge": AVG3_RATIO_RIDGE,
                                  "canyon": AVG3_RATIO_CANYON, "mesa": AVG3_RATIO_MESA}[split][k])
                span = span_new(co, fy, split, rng)
                q = fill2(rng.choice(AVG3_RATIO_TEMPLATES[split]), co=nm, metric=lab, y0=y0, y1=y1, y2=y2, fmt=f[0], span=span)
            elif split == "sealed":
                lab = rng.choice(AVG3_RATIO_SEALED[k])
                span = rng.choice([f"FY{fy - 2} to FY{fy} inclusive", f"the three fiscal years to {date_ordus(co.end_date(fy))}"])
                q = fill(rng.choice(AVG3_RATIO_TEMPLATES[split]), co=nm, metric=lab, y0=y0, y1=y1, y2=y2, fmt=f[0], span=span)
            elif split == "final":
                lab = rng.choice(AVG3_RATIO_FINAL[k])
                yr = rng.choice([f"fiscal years {fy - 2} through {fy}", f"fiscal years {fy - 2} to {fy}"])
                q = fill(rng.choice(AVG3_RATIO_TEMPLATES[split]), co=nm, metric=lab, y0=y0, y1=y1, y2=y2, fmt=f[0],
                         yl=yl, yr=yr)
            else:
                lab = rng.choice(AVG3_RATIO_FRESH[k] if split == "fresh" else AVG3_RATIO[k][1 if split == "dev" else 2])
                q = fill(rng.choice(AVG3_RATIO_TEMPLATES[split]), co=nm, metric=lab, y0=y0, y1=y1, y2=y2, fmt=f[0])
            out.append(record(co, q, "averages", f"avg3_{k}_pct_revenue", fy, "percent", v, f[1], None, evid,
                              "mean of annual " + k + "/revenue*100 = mean(" + ", ".join(f"{x:.4f}" for x in ratios) + ")"))
    return out


def metric_fmt(rng, split, m, value, co):
    kind = METRICS[m][0]
    if kind == "percent":
        f = pct_fmt(rng, split)
        return f[0], f[1], None
    if kind == "usd":
        s = usd_scale(rng, split, value, co.small)
        return s[0], s[2], s[1]
    f = ratio_fmt(rng, split, days=m.startswith("dso"))
    return f[0], f[1], None


def gen_metrics(co, rng, split, n=6):
    cands = []
    for m in METRICS:
        years = [co.fy] if (m in AVG_METRICS or m in INSTANT_METRICS) else [co.fy]
        if m in INSTANT_METRICS or m in ("gross_margin", "operating_margin", "net_margin", "rnd_pct", "ebitda_margin", "fcf"):
            years = [co.fy, co.fy - 1]
        for fy in years:
            r = compute_metric(co, m, fy)
            if r is not None and r[0] is not None:
                cands.append((m, fy, r))
    rng.shuffle(cands)
    core = {"gross_margin", "operating_margin", "net_margin", "roa", "roe", "current_ratio", "quick_ratio", "fcf"}
    cands.sort(key=lambda c: (c[1] != co.fy) + rng.random() * (0.8 if c[0] in core else 1.4))
    out, used = [], set()
    # roughly a third of metric questions state the definition (quick ratio more often)
    for m, fy, (v, evid, formula) in cands:
        base = "dso" if m.startswith("dso") else m
        if base in used or len(out) >= n:
            continue
        used.add(base)
        kind = METRICS[m][0]
        names = metric_names(m, split)
        defs = metric_defs(m, split)
        with_def = rng.random() < (0.6 if m == "quick_ratio" else 0.33)
        per = rng.choice(inst_phrases(co, fy, split) if m in INSTANT_METRICS else dur_phrases(co, fy, split))
        ftxt, dec, scale = metric_fmt(rng, split, m, v, co)
        if split == "fresh":
            div = METRICS_FRESH[m][2]
            tpls = [t for t in METRIC_TEMPLATES[split]["defn" if with_def else "plain"] if div or not t.startswith("D:")]
            tpl = re.sub(r"^D:", "", rng.choice(tpls))
            q = fill(tpl, co=rng.choice(co.names), metric=rng.choice(names), per=per, defn=rng.choice(defs), fmt=ftxt,
                     num=div[0] if div else "", den=div[1] if div else "")
        else:
            tpl = rng.choice(METRIC_TEMPLATES[split]["defn" if with_def else "plain"])
            q = (fill2 if split in NEW_SPLITS else fill)(tpl, co=rng.choice(co.names), metric=rng.choice(names), per=per, defn=rng.choice(defs), fmt=ftxt)
        out.append(record(co, q, "metrics", m, fy, kind, v, dec, scale, evid, formula))
    return out


# compare: line items and metrics (name used in the question, noun for "more/less" items)
COMPARE_ITEMS = ["revenue", "net_income", "operating_income", "total_assets", "cash", "inventory", "rnd", "capex",
                 "cfo", "lt_debt", "dividends", "buybacks", "equity"]
COMPARE_METRICS = ["gross_margin", "operating_margin", "net_margin", "roa", "roe", "current_ratio", "quick_ratio",
                   "rnd_pct", "capex_pct", "asset_turnover", "inventory_turnover", "dso_end", "fcf", "ebitda_margin",
                   "debt_to_equity", "payout", "sga_pct", "etr", "cash_conversion"]
DIR_WORDS = {  # (adjective for metrics, quantity word for items)
    "dev": {"higher": [("higher", "more"), ("greater", "more"), ("stronger", "more")],
            "lower": [("lower", "less"), ("smaller", "less")]},
    "heldout": {"higher": [("higher", "more"), ("larger", "a larger amount of"), ("bigger", "more")],
                "lower": [("lower", "less"), ("weaker", "a smaller amount of")]},
}
DIR_WORDS["final"] = {"higher": [("higher", "more"), ("larger", "more")],
                      "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["sealed"] = {"higher": [("higher", "more"), ("greater", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["fresh"] = {"higher": [("higher", "more"), ("bigger", "more"), ("larger", "more")],
                      "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["novel"] = {"higher": [("higher", "more"), ("bigger", "more")],
                      "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["vault"] = {"higher": [("higher", "more"), ("greater", "a greater amount of")],
                      "lower": [("lower", "less"), ("lesser", "a lesser amount of")]}
DIR_WORDS["ledger"] = {"higher": [("higher", "more"), ("larger", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["atlas"] = {"higher": [("higher", "more"), ("bigger", "more")],
                      "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["zenith"] = {"higher": [("higher", "more"), ("larger", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["harbor"] = {"higher": [("higher", "more"), ("greater", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["quarry"] = {"higher": [("higher", "more"), ("bigger", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["summit"] = {"higher": [("higher", "more"), ("greater", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["tundra"] = {"higher": [("higher", "more"), ("larger", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["ridge"] = {"higher": [("higher", "more"), ("bigger", "more")],
                      "lower": [("lower", "less"), ("smaller", "less")]}
DIR_WORDS["canyon"] = {"higher": [("higher", "more"), ("larger", "more")],
                       "lower": [("lower", "less"), ("smaller", "less")]}
ADJ_BAD = {"stronger", "weaker"}   # only for margins / returns
# "who comes out ahead on ..." (fresh) is asked only for figures where more is plainly better
GOOD_HIGH = {"revenue", "net_income", "operating_income", "cfo", "cash", "equity", "total_assets",
             "gross_margin", "operating_margin", "net_margin", "roa", "roe", "ebitda_margin", "fcf",
             "asset_turnover", "inventory_turnover", "current_ratio", "quick_ratio", "cash_conversion"}


def compare_period_fresh(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
    if same:
        if instant:
            opts = [f"as at their FY{a.fy} year-ends", f"per their FY{a.fy} 10-K balance sheets"]
            if dec31 and a.F.fy_end.year == b.F.fy_end.year:
                opts.append(f"as at 31 December {a.F.fy_end.year}")
        else:
            opts = [f"in their FY{a.fy} 10-Ks", f"for financial year {a.fy} at both companies"]
            if a.calendar and b.calendar:
                opts.append(f"for the twelve months ended 31 Dec {a.fy}" if dec31 else f"in calendar year {a.fy}")
        return rng.choice(opts)
    na, nb = a.names[0], b.names[0]
    if instant:
        return rng.choice([f"using {na}'s FY{a.fy} and {nb}'s FY{b.fy} year-end balance sheets",
                           f"at FYE {date_iso(a.F.fy_end)} for {na} and FYE {date_iso(b.F.fy_end)} for {nb}"])
    return rng.choice([f"for {na}'s FY{a.fy} and {nb}'s FY{b.fy}",
                       f"each on its own latest fiscal year (FYE {date_dmon(a.F.fy_end)} for {na}, {date_dmon(b.F.fy_end)} for {nb})"])


def compare_period(a, b, instant, split, rng):
    """Phrase naming the period for both companies."""
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    if same:
        if instant:
            opts = ([f"at fiscal year-end {a.fy}", f"as of their FY{a.fy} balance sheets"] if split == "dev" else
                    [f"at the close of fiscal {a.fy}", f"on their fiscal {a.fy} year-end balance sheets"])
            if a.calendar and b.calendar:
                opts.append(f"at year-end {a.fy}" if split == "dev" else f"as of December 31, {a.fy}" if a.F.fy_end.day == 31 == b.F.fy_end.day else f"at calendar year-end {a.fy}")
        else:
            opts = ([f"in fiscal {a.fy}", f"for FY{a.fy}"] if split == "dev" else
                    [f"during fiscal year {a.fy}", f"in FY '{a.fy % 100:02d}"])
            if a.calendar and b.calendar:
                opts.append(f"in {a.fy}" if split == "dev" else f"over calendar {a.fy}")
        return rng.choice(opts)
    na, nb = a.names[0], b.names[0]
    if instant:
        if split == "dev":
            return rng.choice([f"at their latest fiscal year-ends ({na}: FY{a.fy}; {nb}: FY{b.fy})",
                               f"on their most recent balance sheets ({na} as of {date_us(a.F.fy_end)}, {nb} as of {date_us(b.F.fy_end)})"])
        return rng.choice([f"at each one's most recent year-end ({na} fiscal {a.fy}, {nb} fiscal {b.fy})",
                           f"as of their latest reported balance-sheet dates ({date_eu(a.F.fy_end)} for {na}, {date_eu(b.F.fy_end)} for {nb})"])
    if split == "dev":
        return rng.choice([f"in their most recent fiscal years ({na} FY{a.fy}, {nb} FY{b.fy})",
                           f"for the latest fiscal year of each ({na}: fiscal {a.fy}; {nb}: fiscal {b.fy})"])
    return rng.choice([f"over each company's latest fiscal year ({na} fiscal {a.fy} vs. {nb} fiscal {b.fy})",
                       f"in the most recent fiscal year each has reported ({na}: year ended {date_eu(a.F.fy_end)}; {nb}: year ended {date_eu(b.F.fy_end)})"])


def compare_value(co, key):
    if key in METRICS:
        r = compute_metric(co, key, co.fy)
        if r is None or r[0] is None:
            return None
        return r[0], r[1], r[2], METRICS[key][0]
    v = co.val(key, co.fy)
    if v is None:
        return None
    return v[0], v[1], f"{key} as tagged", KIND[key]


def gen_compare(cos, rng, split, n=30):
    pairs = [(a, b) for i, a in enumerate(cos) for b in cos[i + 1:]]
    rng.shuffle(pairs)
    # about two thirds of the pairs have fiscal years that line up; the others name each one's year
    aligned = [p for p in pairs if p[0].fy == p[1].fy and abs((p[0].F.fy_end - p[1].F.fy_end).days) <= 20]
    other = [p for p in pairs if p not in aligned]
    pairs = []
    while aligned or other:
        src = other if (other and (not aligned or rng.random() < 0.35)) else aligned
        pairs.append(src.pop())
    out, seen_pairs, per_co, per_key = [], set(), {}, {}
    keys = COMPARE_ITEMS + COMPARE_METRICS
    for a, b in pairs:
        if len(out) >= n:
            break
        if per_co.get(a.doc, 0) >= 5 or per_co.get(b.doc, 0) >= 5:
            continue
        ks = [k for k in keys if per_key.get(k, 0) < 3]
        rng.shuffle(ks)
        for k in ks:
            va, vb = compare_value(a, k), compare_value(b, k)
            if not va or not vb or va[0] <= 0 or vb[0] <= 0:
                continue
            hi, lo = max(va[0], vb[0]), min(va[0], vb[0])
            if (hi - lo) / hi < 0.03:          # too close to call after rounding
                continue
            break
        else:
            continue
        key = frozenset((a.doc, b.doc))
        if key in seen_pairs:
            continue
        seen_pairs.add(key)
        per_co[a.doc] = per_co.get(a.doc, 0) + 1
        per_co[b.doc] = per_co.get(b.doc, 0) + 1
        per_key[k] = per_key.get(k, 0) + 1
        is_item = k in COMPARE_ITEMS
        if split in NEW_SPLITS:
            instant = (k in INSTANT_KEYS) or (k in INSTANT_METRICS) or k == "current_ratio" or k == "quick_ratio"
            A, B = (a, b) if rng.random() < 0.5 else (b, a)
            per = compare_period_new(A, B, instant, split, rng)
            tpl = rng.choice([t for t in COMPARE_TEMPLATES[split] if ("{item}" in t) == is_item])
            direction = rng.choice(["higher", "lower"])
            adj, more = rng.choice(DIR_WORDS[split][direction])
            label = pick_label(rng, k, split) if is_item else rng.choice(metric_names(k, split))
            q = fill2(tpl, A=rng.choice(A.names), B=rng.choice(B.names), adj=adj, more=more, metric=label, item=label,
                      per=per, win=direction, gt="greater than" if direction == "higher" else "less than",
                      sortdir="largest to smallest" if direction == "higher" else "smallest to largest",
                      lead="edges out" if direction == "higher" else "trails",
                      pos="ahead" if direction == "higher" else "behind",
                      desc="DESC" if direction == "higher" else "ASC",
                      outdo="exceeded" if direction == "higher" else "fell short of")
        elif split == "sealed":
            instant = (k in INSTANT_KEYS) or (k in INSTANT_METRICS) or k == "current_ratio" or k == "quick_ratio"
            A, B = (a, b) if rng.random() < 0.5 else (b, a)
            per = compare_period_sealed(A, B, instant, rng)
            tpl = rng.choice([t for t in COMPARE_TEMPLATES[split] if ("{item}" in t) == is_item])
            direction = rng.choice(["higher", "lower"])
            adj, more = rng.choice(DIR_WORDS[split][direction])
            label = pick_label(rng, k, split) if is_item else rng.choice(metric_names(k, split))
            q = fill(tpl, A=rng.choice(A.names), B=rng.choice(B.names), adj=adj, more=more, metric=label, item=label, per=per)
        elif split == "final":
            instant = (k in INSTANT_KEYS) or (k in INSTANT_METRICS) or k == "current_ratio" or k == "quick_ratio"
            A, B = (a, b) if rng.random() < 0.5 else (b, a)
            per = compare_period_final(A, B, instant, rng)
            tpl = rng.choice([t for t in COMPARE_TEMPLATES[split] if ("{item}" in t) == is_item])
            direction = rng.choice(["higher", "lower"])
            adj, more = rng.choice(DIR_WORDS[split][direction])
            label = pick_label(rng, k, split) if is_item else rng.choice(metric_names(k, split))
            q = fill(tpl, A=rng.choice(A.names), B=rng.choice(B.names), adj=adj, more=more, metric=label, item=label, per=per)
        elif split == "fresh":
            instant = (k in INSTANT_KEYS) or (k in INSTANT_METRICS) or k == "current_ratio" or k == "quick_ratio"
            A, B = (a, b) if rng.random() < 0.5 else (b, a)
            per = compare_period_fresh(A, B, instant, rng)
            tpls = [t for t in COMPARE_TEMPLATES[split] if ("{item}" in t) == is_item
                    and not (t.startswith("G:") and k not in GOOD_HIGH)]
            tpl = rng.choice(tpls)
            direction = "higher" if tpl[:2] in ("G:", "H:") else rng.choice(["higher", "lower"])
            tpl = re.sub(r"^[GH]:", "", tpl)
            adj, more = rng.choice(DIR_WORDS[split][direction])
            label = pick_label(rng, k, split) if is_item else rng.choice(metric_names(k, split))
            q = fill(tpl, A=rng.choice(A.names), B=rng.choice(B.names), adj=adj, more=more, metric=label, item=label,
                     per=per, above="above" if direction == "higher" else "below",
                     rank="highest first" if direction == "higher" else "lowest first")
        else:
            direction = rng.choice(["higher", "lower"])
            words = [w for w in DIR_WORDS[split][direction]
                     if not (w[0] in ADJ_BAD and k not in ("gross_margin", "operating_margin", "net_margin", "roa", "roe", "ebitda_margin"))]
            adj, more = rng.choice(words)
            instant = (k in INSTANT_KEYS) or (k in INSTANT_METRICS) or k == "current_ratio" or k == "quick_ratio"
            A, B = (a, b) if rng.random() < 0.5 else (b, a)
            per = compare_period(A, B, instant, split, rng)
            tpls = [t for t in COMPARE_TEMPLATES[split] if ("{item}" in t) == is_item]
            tpl = rng.choice(tpls)
            if is_item:
                label = pick_label(rng, k, split)
            else:
                label = rng.choice(metric_names(k, split))
            q = fill(tpl, A=rng.choice(A.names), B=rng.choice(B.names), adj=adj, more=more, metric=label, item=label, per=per)
        vA, vB = compare_value(A, k), compare_value(B, k)
        win_is_A = (vA[0] > vB[0]) == (direction == "higher")
        W, L = (A, B) if win_is_A else (B, A)
        vW, vL = (vA, vB) if win_is_A else (vB, vA)
        rec = record(W, q, "compare", k, W.fy, vW[3], vW[0], None, None,
                     [f"{W.ticker}: " + "; ".join(vW[1]), f"{L.ticker}: " + "; ".join(vL[1])],
                     f"{W.ticker}: {vW[2]} = {vW[0]:.6g}; {L.ticker}: {vL[2]} = {vL[0]:.6g}; {direction} wins")
        rec["evidence"] = " | ".join([f"{W.ticker}: " + "; ".join(vW[1]), f"{L.ticker}: " + "; ".join(vL[1])])
        rec.update({"doc_b": L.doc, "gold_company": W.company, "gold_other": L.company,
                    "gold_b": rnd_gold(vL[0]), "direction": direction})
        out.append(rec)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--split", choices=["dev", "heldout", "fresh", "final", "sealed", "novel", "vault", "ledger", "atlas", "zenith", "harbor", "quarry", "summit", "tundra", "ridge", "canyon", "mesa"], required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--compare", type=int, default=30, help="number of compare questions")
    ap.add_argument("--show", type=int, default=0, help="print N random questions to stderr")
    ap.add_argument("--dump", action="store_true", help="print resolved line items per filing to stderr")
    args = ap.parse_args()

    cos = []
    for path in sorted(args.files, key=os.path.basename):
        try:
            co = Co(path)
        except Exception as e:  # not inline XBRL, or no fiscal year
            print(f"skip {os.path.basename(path)}: {e}", file=sys.stderr)
            continue
        if not co.F.groups:
            print(f"skip {co.doc}: no inline XBRL facts", file=sys.stderr)
            continue
        cos.append(co)

    if args.dump:
        for co in cos:
            print(f"== {co.doc} {co.company} ({co.ticker}) FY{co.fy} ends {co.F.fy_end}", file=sys.stderr)
            for k in ITEM_KEYS + ["receivables", "ppe", "pretax_income"]:
                row = [co.val(k, y) for y in (co.fy, co.fy - 1, co.fy - 2)]
                print(f"   {k:22s}", [fmt_num(r[0]) if r else None for r in row],
                      (row[0] or row[1] or [None, [""]])[1][0].split("@")[0] if (row[0] or row[1]) else "", file=sys.stderr)

    out = []
    for co in cos:
        # per-filing stream: deterministic and independent of the other files given
        rng = random.Random(f"{args.seed}:{args.split}:{co.doc}")
        out += gen_items(co, rng, args.split)
        out += gen_changes(co, rng, args.split)
        out += gen_averages(co, rng, args.split)
        out += gen_metrics(co, rng, args.split)
    out += gen_compare(cos, random.Random(f"{args.seed}:{args.split}:compare"), args.split, args.compare)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(out, fh, indent=1)
    fams = ["items", "changes", "averages", "metrics", "compare"]
    counts = {f: sum(1 for q in out if q["family"] == f) for f in fams}
    print(f"[{args.split} seed {args.seed}] {len(out)} questions from {len(cos)} filings: " +
          ", ".join(f"{f} {counts[f]}" for f in fams), file=sys.stderr)
    if args.show:
        r = random.Random(args.seed * 7919)
        for q in r.sample(out, min(args.show, len(out))):
            extra = f" [winner {q['gold_company']} vs {q['gold_other']} {q['gold_b']}]" if q["family"] == "compare" else ""
            print(f"- ({q['family']}/{q['concept']}, {q['doc'][:12]}) {q['question']}\n    gold={q['gold']} {q['kind']}"
                  f" dec={q['decimals']} scale={q['asked_scale']}{extra}", file=sys.stderr)


# ---------------------------------------------------------------------------------------
# Seventeenth wording set ("mesa")
# ---------------------------------------------------------------------------------------
# Written by another helper that had not seen the engine's source, its question templates or the
# xbrl-templates-*.json files, after reading the sixteen earlier sets and avoiding their wordings,
# labels, metric names, definitions and period phrasings. People who read 10-Ks to decide something
# other than whether to trade the securities (insurance, surety and trade-credit underwriters,
# M&A data-room and fairness-opinion teams, transfer-pricing analysts, proxy researchers, forensic
# accountants, government contracting officers, competitors, financial planners and business
# reference librarians), in formal written registers with passive, conditional and cleft sentence
# forms; periods as fiscal years ended on contract-style dates, numbered years of the company's
# fiscal calendar, fiscal years counted in days, fiscal years spanning two calendar years (only
# where at least four weeks fall in each), the fiscal triennium, and positions among the years and
# balance-sheet dates its latest 10-K presents; unit and rounding requests with their own verbs;
# metrics named as capitalised defined terms or described in words, and defined in contract-style
# prose, as typeset fractions or as lettered / numbered steps; comparisons asking in varied ways for
# the company with the higher or the lower figure (compare templates may use {outdo} =
# "exceeded" / "fell short of", the stated direction). Template flags as for novel / vault / ledger /
# atlas / zenith / harbor / quarry / summit / tundra / ridge / canyon (F:, I:, X:, L:). Like vault,
# atlas, zenith, harbor, quarry, summit, tundra, ridge and canyon, a held-out set: not to be printed
# or quoted where the engine's builders read.

def date_legal(d):
    """'the 28th day of September, 2024' (contract style; month spelled, so it cannot be misread)"""
    return f"the {ordinal(d.day)} day of {MONTHS[d.month - 1]}, {d.year}"


def fy_days(co, fy):
    """the length of fiscal year fy in days (first and last day counted), or None"""
    s, e = start_date(co, fy), co.end_date(fy)
    if s is None or e is None:
        return None
    return (e - s).days + 1


def straddle(co, fy):
    """(first calendar year, second calendar year) when fiscal year fy runs across a calendar
    year-end with at least four weeks on each side of it (else None)"""
    s, e = start_date(co, fy), co.end_date(fy)
    if s is None or e is None or e.year != s.year + 1:
        return None
    before = (s.replace(month=12, day=31) - s).days + 1
    after = (e - e.replace(month=1, day=1)).days + 1
    if before < 28 or after < 28:
        return None
    return s.year, e.year


def usd_scale_mesa(rng, big, small_co):
    opts = [("", None, None), (" (denominate it in millions)", "millions", None),
            (" (millions of dollars will suffice)", "millions", None)]
    if big:
        opts += [(" (in billions, carried to one decimal)", "billions", 1), (" (denominate it in billions)", "billions", None)]
    elif small_co:
        opts += [(" (denominate it in thousands)", "thousands", None)]
    return rng.choice(opts)


def pct_fmt_mesa(rng):
    return rng.choice([("", None), ("", None), (" (carry the percentage to one decimal)", 1),
                       (" (carry the percentage to two decimals)", 2), (" (a percentage will suffice)", None)])


def ratio_fmt_mesa(rng, days=False):
    if days:
        return rng.choice([(" (a count of days will suffice)", None), (" (in days, carried to one decimal)", 1),
                           (" (state the answer in days)", None)])
    return rng.choice([("", None), ("", None), (" (carried to two decimals)", 2), (" (carried to one decimal)", 1),
                       (" (as a multiple, carried to two decimals)", 2)])


EPS_SCALE_MESA = [("", None, None), (" (dollars per diluted share, carried to the cent)", None, 2)]


def dur_phrases_mesa(co, fy):
    end = co.end_date(fy)
    out = [f"for the fiscal year ended {date_legal(end)}", f"in year {fy} of its fiscal calendar"]
    if fy_days(co, fy):
        out += [f"over the {fy_days(co, fy)}-day fiscal year concluding {date_us(end)}"]
    if straddle(co, fy):
        out += ["in the fiscal year straddling {} and {}".format(*straddle(co, fy))]
    if fy == co.fy:
        out += [f"in the most recent of the fiscal years its latest 10-K presents (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"in the penultimate fiscal year its latest 10-K presents (fiscal {fy})"]
    return out


def inst_phrases_mesa(co, fy):
    end = co.end_date(fy)
    out = [f"as of {date_legal(end)}", f"on the date its fiscal {fy} ended", f"at the end of year {fy} of its fiscal calendar"]
    if fy_days(co, fy):
        out += [f"at the end of its {fy_days(co, fy)}-day fiscal {fy}"]
    if fy == co.fy:
        out += [f"at the later of the two balance-sheet dates in its latest 10-K (fiscal {fy})"]
    if fy == co.fy - 1:
        out += [f"at the earlier of the two balance-sheet dates in its latest 10-K (fiscal {fy})"]
    return out


def yr_forms_mesa(co, fy, rng, instant=False):
    """(p0, p1, y0, y1) for mesa; the labels are 'F.Y. 2023' or 'F.Y.23' (harbor_y2 steps them back)."""
    y0, y1 = fy - 1, fy
    if instant:
        style = rng.choice(["legal", "ended", "cal"])
        f = {"legal": lambda y: date_legal(co.end_date(y)), "ended": lambda y: f"the date its fiscal {y} ended",
             "cal": lambda y: f"the end of year {y} of its fiscal calendar"}[style]
    else:
        style = rng.choice(["legal", "cal", "days", "straddle"])
        if style == "days" and not (fy_days(co, y0) and fy_days(co, y1)):
            style = "legal"
        if style == "straddle" and not (straddle(co, y0) and straddle(co, y1)):
            style = "cal"
        f = {"legal": lambda y: f"the fiscal year ended {date_legal(co.end_date(y))}",
             "cal": lambda y: f"year {y} of its fiscal calendar",
             "days": lambda y: f"the {fy_days(co, y)}-day fiscal year concluding {date_us(co.end_date(y))}",
             "straddle": lambda y: "the fiscal year straddling {} and {}".format(*straddle(co, y))}[style]
    lab = rng.choice(["F.Y. {y}", "F.Y.{yy}"])
    return f(y0), f(y1), lab.format(y=y0, yy=yy(y0)), lab.format(y=y1, yy=yy(y1))


def span_mesa(co, fy, rng):
    """the three fiscal years fy-2..fy, for averages"""
    opts = [f"years {fy - 2} through {fy} of its fiscal calendar", f"the {fy - 2}–{fy} fiscal triennium"]
    s2 = start_date(co, fy - 2)
    if s2:
        opts.append(f"the three-fiscal-year stretch from {date_us(s2)} to {date_us(co.end_date(fy))}")
    return rng.choice(opts)


ITEM_LABELS_MESA = {
    "revenue": ["total revenue recognized", "revenue as captioned in the income statement"],
    "cogs": ["cost of revenue as captioned", "cost of sales recognized"],
    "gross_profit": ["gross profit earned on revenue", "gross profit over and above cost of sales"],
    "operating_income": ["operating income as captioned", "operating earnings before interest and taxes (operating income)"],
    "net_income": ["net income attributable to the registrant", "net earnings allocable to the company's stockholders"],
    "eps_diluted": ["diluted EPS as captioned", "net income per common share, diluted"],
    "total_assets": ["total assets as captioned", "combined total of all assets"],
    "total_liabilities": ["total liabilities as captioned", "combined total of all liabilities"],
    "current_assets": ["total current assets as captioned", "aggregate of all current-asset lines"],
    "current_liabilities": ["total current liabilities as captioned", "aggregate of all current-liability lines"],
    "inventory": ["inventories as captioned", "stock of inventories (net)"],
    "cash": ["cash and cash equivalents as captioned (marketable securities excluded)",
             "cash and cash equivalents recognized on the balance sheet"],
    "lt_debt": ["long-term debt after carving out current maturities", "noncurrent long-term borrowings as captioned"],
    "equity": ["stockholders' equity as captioned", "total stockholders' equity on the statement of financial position"],
    "total_equity_incl_nci": ["total equity as captioned (noncontrolling interests included)",
                              "equity attributable to the registrant plus noncontrolling interests"],
    "cfo": ["operating-activities net cash as captioned", "net cash from the operating section of the cash flow statement"],
    "cfi": ["investing-activities net cash as captioned", "net cash from the investing section of the cash flow statement"],
    "cff": ["financing-activities net cash as captioned", "net cash from the financing section of the cash flow statement"],
    "capex": ["capital expenditures as captioned in the cash flow statement", "cash paid to acquire property and equipment (capex)"],
    "dna": ["depreciation and amortization as captioned", "D&A recognized"],
    "rnd": ["research and development expense as captioned", "R&D recognized as expense"],
    "sga": ["selling, general and administrative expense as captioned", "SG&A recognized"],
    "interest_expense": ["interest expense as captioned", "interest cost recognized"],
    "income_tax": ["provision for income taxes as captioned", "income tax expense recognized"],
    "dividends": ["dividends paid in cash (financing-section caption)", "cash distributed to stockholders as dividends"],
    "buybacks": ["cash paid for repurchases of common stock", "stock repurchases settled in cash"],
    "receivables": ["accounts receivable (net) as captioned", "net trade receivables recognized"],
    "ppe": ["property, plant and equipment (net) as captioned", "net PP&E on the statement of financial position"],
}

AVG3_RATIO_MESA = {"capex": ["capital expenditures as captioned", "cash paid to acquire property and equipment"],
                   "rnd": ["research and development expense", "R&D recognized as expense"],
                   "sga": ["selling, general and administrative expense", "SG&A recognized"]}

# key: (names, definitions); names as capitalised defined terms or in words; definitions in
# contract-style prose ("the quotient of (a) ... divided by (b) ..."), as typeset fractions
# (\frac{...}{...}) or as lettered steps ("the result of (i) ...; (ii) ...").
METRICS_MESA = {
    "gross_margin": (["Consolidated Gross Margin Percentage", "percentage of revenue remaining once cost of sales is deducted"],
                     ["the quotient of (a) gross profit divided by (b) revenue, expressed as a percentage",
                      "\\frac{gross profit}{revenue} \\times 100"]),
    "operating_margin": (["Consolidated Operating Margin Percentage", "share of revenue converted into operating income (%)"],
                         ["the quotient of (a) operating income divided by (b) revenue, expressed as a percentage",
                          "the result of (i) dividing operating income by revenue and (ii) multiplying the quotient by 100"]),
    "net_margin": (["Consolidated Net Margin Percentage (attributable basis)", "share of revenue converted into net income attributable to the company (%)"],
                   ["the quotient of (a) net income attributable to the company divided by (b) revenue, expressed as a percentage",
                    "\\frac{net income attributable to the company}{revenue} \\times 100"]),
    "roa": (["Return on Assets (mean of beginning and ending total assets)",
             "percentage return on total assets (mean of opening and closing balances)"],
            ["the quotient of (a) net income divided by (b) the arithmetic mean of total assets as of the last day of the "
             "prior fiscal year and as of the last day of the current fiscal year, expressed as a percentage",
             "the result of (i) taking the arithmetic mean of total assets at the two most recent fiscal year-ends, "
             "(ii) dividing net income for the year by that mean and (iii) multiplying by 100"]),
    "roe": (["Return on Equity (mean of beginning and ending stockholders' equity)",
             "percentage return on stockholders' equity (mean of opening and closing balances)"],
            ["the quotient of (a) net income divided by (b) the arithmetic mean of stockholders' equity as of the last day "
             "of the prior fiscal year and as of the last day of the current fiscal year, expressed as a percentage",
             "\\frac{net income}{(opening stockholders' equity + closing stockholders' equity)/2} \\times 100"]),
    "asset_turnover": (["Total Asset Turnover (mean of beginning and ending total assets)", "multiple of revenue over mean total assets"],
                       ["the quotient of (a) revenue divided by (b) the arithmetic mean of total assets as of the last day "
                        "of the prior fiscal year and as of the last day of the current fiscal year",
                        "\\frac{revenue}{(opening total assets + closing total assets)/2}"]),
    "fixed_asset_turnover": (["Net PP&E Turnover (mean of beginning and ending net PP&E)", "multiple of revenue over mean net PP&E"],
                             ["the quotient of (a) revenue divided by (b) the arithmetic mean of net property, plant and "
                              "equipment as of the last day of the prior fiscal year and as of the last day of the current fiscal year",
                              "the result of (i) taking the arithmetic mean of net PP&E at the two most recent fiscal year-ends "
                              "and (ii) dividing revenue for the year by that mean"]),
    "inventory_turnover": (["Inventory Turnover (cost of sales over mean inventories)", "multiple of cost of sales over mean inventories"],
                           ["the quotient of (a) cost of sales divided by (b) the arithmetic mean of inventories as of the "
                            "last day of the prior fiscal year and as of the last day of the current fiscal year",
                            "\\frac{cost of sales}{(opening inventories + closing inventories)/2}"]),
    "dso_avg": (["Days Sales Outstanding (Mean-Receivables Basis)", "mean-receivables collection period in days"],
                ["the product of (a) 365 and (b) the quotient of the arithmetic mean of accounts receivable as of the last "
                 "day of the prior fiscal year and as of the last day of the current fiscal year divided by revenue",
                 "365 \\times \\frac{(opening receivables + closing receivables)/2}{revenue}"]),
    "dso_end": (["Days Sales Outstanding (Closing-Receivables Basis)", "closing-receivables collection period in days"],
                ["the product of (a) 365 and (b) the quotient of accounts receivable as of the last day of the fiscal year "
                 "divided by revenue for such fiscal year",
                 "the result of (i) dividing year-end accounts receivable by revenue and (ii) multiplying the quotient by 365"]),
    "quick_ratio": (["Acid-Test Ratio (total current assets less inventories, over total current liabilities)",
                     "cover of current liabilities by non-inventory current assets (x)"],
                    ["the quotient of (a) total current assets minus inventories divided by (b) total current liabilities",
                     "\\frac{total current assets - inventories}{total current liabilities}"]),
    "current_ratio": (["Current Ratio (current assets over current liabilities, as a multiple)",
                       "coverage of current liabilities by current assets (x)"],
                      ["the quotient of (a) total current assets divided by (b) total current liabilities",
                       "the result of dividing total current assets by total current liabilities"]),
    "interest_coverage": (["Interest Coverage Ratio (operating income basis)", "multiple of interest expense earned at the operating line"],
                          ["the quotient of (a) operating income divided by (b) interest expense",
                           "\\frac{operating income}{interest expense}"]),
    "payout": (["Dividend Payout Percentage (cash dividends)", "share of net income distributed as cash dividends (%)"],
               ["the quotient of (a) dividends paid in cash divided by (b) net income, expressed as a percentage",
                "the result of (i) dividing cash dividends paid by net income and (ii) multiplying the quotient by 100"]),
    "ebitda": (["Operating-Income-Based EBITDA",
                "EBITDA on an operating-income-plus-D&A footing"],
               ["operating income for such fiscal year plus, without duplication, depreciation and amortization for such fiscal year",
                "the result of (i) taking operating income and (ii) adding depreciation and amortization to it"]),
    "ebitda_margin": (["Consolidated EBITDA Margin Percentage (operating income plus D&A)", "share of revenue converted into EBITDA (%)"],
                      ["the quotient of (a) operating income plus depreciation and amortization divided by (b) revenue, "
                       "expressed as a percentage",
                       "\\frac{operating income + depreciation and amortization}{revenue} \\times 100"]),
    "ebitda_less_capex": (["EBITDA Less Capital Expenditures (operating-income basis)", "operating income plus D&A less capex, in dollars"],
                          ["operating income plus, without duplication, depreciation and amortization, minus capital "
                           "expenditures (purchases of property, plant and equipment)",
                           "the result of (i) adding depreciation and amortization to operating income and (ii) subtracting "
                           "capital expenditures"]),
    "working_capital": (["Net Working Capital (current assets minus current liabilities)",
                         "current-asset surplus over current liabilities (negative if a deficit)"],
                        ["the remainder of (a) total current assets minus (b) total current liabilities, which may be negative",
                         "the result of (i) taking total current assets and (ii) deducting total current liabilities"]),
    "cash_conversion": (["Cash Conversion Ratio (operating cash flow to net income)", "CFO/NI realization multiple"],
                        ["the quotient of (a) net cash provided by operating activities divided by (b) net income",
                         "\\frac{net cash provided by operating activities}{net income}"]),
    "ocf_ratio": (["Current-Liability Cash Coverage (operating cash flow over year-end current liabilities)",
                   "operating-cash cover of year-end current liabilities (x)"],
                  ["the quotient of (a) net cash provided by operating activities divided by (b) total current liabilities "
                   "as of the last day of the fiscal year",
                   "\\frac{net cash provided by operating activities}{year-end total current liabilities}"]),
    "rnd_pct": (["R&D Expense Percentage of Revenue", "research-and-development outlay relative to revenue (%)"],
                ["the quotient of (a) research and development expense divided by (b) revenue, expressed as a percentage",
                 "\\frac{research and development expense}{revenue} \\times 100"]),
    "sga_pct": (["SG&A Expense Percentage of Revenue", "selling, general and administrative outlay relative to revenue (%)"],
                ["the quotient of (a) selling, general and administrative expense divided by (b) revenue, expressed as a percentage",
                 "the result of (i) dividing SG&A expense by revenue and (ii) multiplying the quotient by 100"]),
    "capex_pct": (["Capital Expenditure Percentage of Consolidated Revenue", "capital outlay relative to revenue (%)"],
                  ["the quotient of (a) capital expenditures (purchases of property, plant and equipment) divided by (b) "
                   "revenue, expressed as a percentage",
                   "\\frac{purchases of property, plant and equipment}{revenue} \\times 100"]),
    "fcf": (["Free Cash Flow (capex-deducted operating cash flow)", "operating cash flow remaining after capital expenditures"],
            ["net cash provided by operating activities minus capital expenditures (purchases of property, plant and equipment)",
             "the result of (i) taking net cash provided by operating activities and (ii) subtracting purchases of property, "
             "plant and equipment"]),
    "debt_to_equity": (["Long-Term Leverage Ratio (noncurrent long-term debt to stockholders' equity)",
                        "long-term borrowings (current maturities excluded) per dollar of stockholders' equity"],
                       ["the quotient of (a) long-term debt excluding current maturities divided by (b) stockholders' equity",
                        "\\frac{noncurrent long-term debt}{stockholders' equity}"]),
    "etr": (["Effective Income Tax Rate (provision over pre-tax income)",
             "share of pre-tax income absorbed by the income tax provision (%)"],
            ["the quotient of (a) the provision for income taxes divided by (b) income before income taxes, expressed as a percentage",
             "the result of (i) dividing income tax expense by pre-tax income and (ii) multiplying the quotient by 100"]),
}

ITEM_TEMPLATES["mesa"] = [
    "Underwriting a directors-and-officers renewal for {co}: what {item} did the registrant report {per}{scale}?",
    "{Per}, what amount of {item} was reported by {co}{scale}?",
    "Suppose I turn to {co}'s annual report and look for the {item} {per}: what figure should I find there{scale}?",
    "Reference desk: a patron researching {co} wants the {item} {per}{scale}. What does the filing give?",
    "Surety underwriting, principal {co}: {item} {per}{scale}?",
    "It is the {item} {per} that our fairness-opinion team still lacks for {co}{scale}. What was it?",
    "X:Forensic accounting review of {co}: at what amount does the income statement state the {item} {per}{scale}?",
    "I:Trade-credit insurer setting a buyer limit on {co}: what {item} appeared on its balance sheet {per}{scale}?",
    "Transfer-pricing comparables search -- for {co}, what {item} was reported {per}{scale}?",
    "Proxy research on {co} ahead of its annual meeting: we need the {item} {per}{scale}.",
    "For a contracting officer's responsibility determination on {co}, what was its {item} {per}{scale}?",
    "We compete with {co} and follow its filings closely. How much {item} did it disclose {per}{scale}?",
    "Could the {item} that {co} reported {per} be confirmed{scale}?",
    "A client of my financial-planning practice owns {co} and asked about its {item} {per}. What was the amount{scale}?",
    "Turnaround consultant's intake sheet for {co}: {item}, {per}{scale}?",
    "Data-room Q&A log, {co}: the {item} {per}{scale}, please.",
]

CHANGE_ABS_TEMPLATES["mesa"] = [
    "Underwriting file, {co}: by how many dollars did the {item} change from {p0} to {p1}{scale}? A reduction is to be shown as a negative amount.",
    "F:Suppose one subtracts {co}'s {item} for {p0} from its {item} for {p1}: what remains{scale}? (Negative if the earlier figure was larger.)",
    "I:Suppose one subtracts {co}'s {item} as of {p0} from its {item} as of {p1}: what remains{scale}? (Negative if the earlier figure was larger.)",
    "F:Forensic review of {co}: was the {item} higher or lower in {p1} than in {p0}, and by what dollar amount{scale}? Express a decline as a negative.",
    "Transfer-pricing file note -- how much did {co}'s {item} increase (or, if negative, decrease) from {y0} to {y1}{scale}?",
    "Reference desk: a patron wants the dollar change in {co}'s {item} from {p0} to {p1}{scale}, with a decrease shown as a negative number.",
    "The question from our surety committee is simple: the {y1} figure for {co}'s {item} minus the {y0} figure{scale}?",
    "I:Proxy research: between {p0} and {p1}, by how much did {co}'s {item} grow or contract{scale}? (Contraction = negative.)",
    "F:Compared with {p0}, how many more -- or, as a negative number, fewer -- dollars of {item} did {co} report for {p1}{scale}?",
]

CHANGE_PCT_TEMPLATES["mesa"] = [
    "Underwriting file, {co}: percentage change in the {item} from {p0} to {p1}{fmt}, negative if it declined?",
    "F:Measured against {p0}, by what percentage did {co}'s {item} rise or fall in {p1}{fmt}?",
    "I:Measured against the balance as of {p0}, by what percentage had {co}'s {item} risen or fallen as of {p1}{fmt}?",
    "Transfer-pricing file note: growth in {co}'s {item}, {y0} to {y1}, as a percentage of the {y0} figure{fmt}?",
    "Suppose the {y0} figure for {co}'s {item} is the base: by what percent did the {y1} figure differ from it{fmt}? A decline comes out negative.",
    "Reference desk: a patron asks how much {co}'s {item} grew from {p0} to {p1}, in percent{fmt}. (A decrease should be negative.)",
    "Forensic review of {co}: what was the percentage increase or decrease in the {item} between {p0} and {p1}{fmt}?",
    "It is the percentage change in {co}'s {item} from {y0} to {y1} that our proxy memo needs{fmt}. What is it?",
]

AVG_BAL_TEMPLATES["mesa"] = [
    "Underwriting file, {co}: the arithmetic mean of the {item} at the {y0} and {y1} fiscal year-ends{scale}?",
    "Our valuation team needs {co}'s average {item} for {p1}, taking the mean of the balance at the beginning of that fiscal year and the balance at its end{scale}.",
    "Suppose one averages the two year-end figures for {co}'s {item}, {y0} and {y1}: what is the result{scale}?",
    "Forensic review of {co}: what average {item} for {p1} is implied by the opening and closing balance sheets (the mean of the two){scale}?",
    "Reference desk: a patron wants {co}'s mean {item} over {p1} -- the average of its two year-end balances, {y0} and {y1}{scale}.",
]

AVG3_TEMPLATES["mesa"] = [
    "Underwriting file, {co}: average annual {item} over {span}{scale}?",
    "Our valuation team is normalizing {co}'s {item}: what is the arithmetic mean of the {y2}, {y0} and {y1} amounts{scale}?",
    "Suppose one totals {co}'s {item} for {span} and divides by three: what figure results{scale}?",
    "Transfer-pricing studies often rely on multiple-year data. What was {co}'s {item} per year, on average, across {span}{scale}?",
    "Reference desk: a patron wants {co}'s {item} averaged over {span}{scale}.",
]

AVG3_RATIO_TEMPLATES["mesa"] = [
    "Transfer-pricing study, multiple-year analysis: for {co}, compute {metric} as a percentage of revenue in each of {y2}, {y0} and {y1}, then take the simple mean of the three percentages{fmt}.",
    "Underwriting file, {co}: {metric} relative to revenue for each fiscal year in {span}, averaged across the three years (an average of the yearly percentages, not of pooled totals){fmt}?",
    "Suppose one divides {co}'s {metric} by revenue separately for {y2}, {y0} and {y1}: what is the average of the three resulting percentages{fmt}?",
    "Reference desk: a patron wants {co}'s {metric} expressed as a percentage of revenue for each year of {span}, and then the equal-weighted average of those yearly percentages{fmt}.",
]

METRIC_TEMPLATES["mesa"] = {
    "plain": [
        "Underwriting file, {co}: {metric} {per}{fmt}?",
        "{Per}, what {metric} can be computed for {co} from its 10-K{fmt}?",
        "Suppose a careful reader works out {co}'s {metric} {per} from the 10-K: what figure should result{fmt}?",
        "Transfer-pricing comparables screen: {co}'s {metric} {per}{fmt}?",
        "Proxy research on {co}: its {metric} {per} -- what did it amount to{fmt}?",
        "For the fairness opinion's selected-companies table, {co}'s {metric} {per} is needed{fmt}. What is it?",
        "Reference desk: a patron asks what {co}'s {metric} was {per}{fmt}.",
        "We compete with {co}; how did its {metric} come out {per}{fmt}?",
        "Could {co}'s {metric} {per} be calculated for our surety file{fmt}?",
    ],
    "defn": [
        "Underwriting file, {co}. For this submission, {metric} means {defn}. What is the figure {per}{fmt}?",
        "Where {metric} is defined as {defn}, {co}'s result {per} is what{fmt}?",
        "Transfer-pricing study: {metric} is computed as {defn}. Compute it for {co} {per}{fmt}.",
        "Suppose {metric} is {defn}. What value does {co} show {per}{fmt}?",
        "Per the policy wording, {metric} means {defn}. What does that wording produce for {co} {per}{fmt}?",
        "Forensic review of {co}, {per}: {metric}, computed as {defn}{fmt}?",
        "Reference desk: a patron's course packet defines {metric} as {defn}, and the patron wants the result for {co} {per}{fmt}.",
        "Our contracting guidance computes {metric} as {defn}. Work that through for {co} {per}{fmt}.",
    ],
}

# compare: {outdo} = "exceeded" / "fell short of" (the stated direction; exactly one of the two did)
COMPARE_TEMPLATES["mesa"] = [
    "Underwriting comparison, {A} versus {B}: which insured shows the {adj} {metric} {per}?",
    "{Per}, whose {metric} {outdo} the other's -- {A}'s or {B}'s?",
    "Transfer-pricing comparables {A} and {B}: which of the two registrants had the {adj} {metric} {per}?",
    "Suppose {A} and {B} are ranked by {metric} {per}. Which one has the {adj} value?",
    "Reference desk: a patron comparing {A} with {B} wants to know which had the {adj} {metric} {per}.",
    "We compete with both {A} and {B}. {Per}, which of them posted the {adj} {metric}?",
    "Underwriting comparison, {A} versus {B}: which insured reported {more} {item} {per}?",
    "{Per}, whose {item} {outdo} the other's -- {B}'s or {A}'s?",
    "Of the two registrants {A} and {B}, the one with the {adj} {item} {per} is which?",
    "Suppose {A} and {B} are ranked by {item} {per}. Which one has the {adj} amount?",
    "Reference desk: a patron wants to know whether {A} or {B} had {more} {item} {per}.",
    "Forensic comparison, {per}: {item} at {A} and at {B} -- at which company was it {adj}?",
]

DIR_WORDS["mesa"] = {"higher": [("higher", "more"), ("larger", "more")],
                     "lower": [("lower", "less"), ("smaller", "less")]}


def compare_period_mesa(a, b, instant, rng):
    same = a.fy == b.fy and abs((a.F.fy_end - b.F.fy_end).days) <= 20
    dec31 = (a.F.fy_end.month == 12 and a.F.fy_end.day == 31 and b.F.fy_end.month == 12 and b.F.fy_end.day == 31
             and a.F.fy_end.year == b.F.fy_end.year)
    na, nb = a.names[0], b.names[0]
    if same:
        if instant:
            opts = [f"as of the dates on which their fiscal {a.fy} years ended",
                    f"at the later balance-sheet date in each one's latest 10-K (fiscal {a.fy})"]
            if dec31:
                opts.append(f"as of {date_legal(a.F.fy_end)}")
        else:
            opts = [f"in year {a.fy} of their respective fiscal calendars",
                    f"in the most recent of the fiscal years their latest 10-Ks present (fiscal {a.fy})"]
            if dec31:
                opts.append(f"for the fiscal year ended {date_legal(a.F.fy_end)}")
        return rng.choice(opts)
    if instant:
        return rng.choice([f"as of each one's latest fiscal year-end ({na}: {date_legal(a.F.fy_end)}; {nb}: {date_legal(b.F.fy_end)})",
                           f"at the later balance-sheet date in each one's latest 10-K ({na}: fiscal {a.fy}; {nb}: fiscal {b.fy})"])
    return rng.choice([f"in the most recent fiscal year each one's latest 10-K presents ({na}: fiscal {a.fy}; {nb}: fiscal {b.fy})",
                       f"for the fiscal years ended {date_legal(a.F.fy_end)} ({na}) and {date_legal(b.F.fy_end)} ({nb})"])


if __name__ == "__main__":
    main()
