#!/usr/bin/env python3
"""Generate question families with gold answers from the inline-XBRL facts of 10-K filings.

usage: xbrl_questions.py FILE.html [FILE.html ...] -o OUT.json [--seed N] [--per-filing N]
                         [--templates FILE.json] [--dump]

The gold values come only from the filing's own tagged facts (ix:nonFraction) in
consolidated contexts (no segment / scenario dimensions), never from the engine under test.
Each question carries: doc, question, family (casual | financebench | growth | ratio),
concept, fiscal_year, gold (usd in plain dollars, percent as percent, ratio plain),
kind (usd | usd_per_share | ratio | percent), asked_scale, decimals, evidence (the displayed
texts of the facts the answer rests on), company, ticker.

--dump prints the facts found for every metric and fiscal year instead of sampling (for
checking the parse against the statements by eye).

--templates FILE.json takes the question wordings from a JSON file instead of the built-in
ones (a held-out wording set); the facts, items and gold values are the same. Without it the
output is unchanged. The file's format is printed by --help (see TEMPLATES_HELP)."""
import argparse
import datetime as dt
import html
import json
import os
import random
import re
import sys
from html.parser import HTMLParser

# ---------------------------------------------------------------------------------------
# Parsing inline XBRL
# ---------------------------------------------------------------------------------------

def local(tag):
    """Local name of a prefixed tag ('ix:nonfraction' -> 'nonfraction'); None if unprefixed."""
    if ":" not in tag:
        return None
    return tag.rsplit(":", 1)[1].lower()


def strip_prefix(qname):
    return qname.split(":", 1)[1] if ":" in qname else qname


class IXParser(HTMLParser):
    """Collects ix:nonFraction facts, ix:nonNumeric dei facts, xbrli contexts and units."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.facts = []          # dicts: name, context, unit, decimals, scale, format, sign, text
        self.nonnumeric = []     # dicts: name, context, text
        self.contexts = {}       # id -> {"dims": bool, "start": date|None, "end": date|None, "instant": date|None}
        self.units = {}          # id -> ("USD", None) or ("USD", "shares") ...
        self._open = []          # stack of (localname, record or None) for prefixed tags
        self._ctx = None
        self._unit = None
        self._unit_part = None   # 'num' | 'den' | None
        self._field = None       # which context/unit child collects text
        self._buf = []

    # -- helpers
    def _text_targets(self):
        return [rec for (name, rec) in self._open if rec is not None]

    def handle_starttag(self, tag, attrs):
        ln = local(tag)
        if ln is None:
            return
        a = {k.lower(): (v if v is not None else "") for k, v in attrs}
        rec = None
        if ln == "nonfraction":
            rec = {"kind": "fact", "name": a.get("name", ""), "context": a.get("contextref", ""),
                   "unit": a.get("unitref", ""), "decimals": a.get("decimals"),
                   "scale": a.get("scale", "0") or "0", "format": a.get("format", ""),
                   "sign": a.get("sign", ""), "nil": a.get("xsi:nil", "") == "true", "text": []}
        elif ln == "nonnumeric":
            rec = {"kind": "nonnumeric", "name": a.get("name", ""), "context": a.get("contextref", ""),
                   "text": []}
        elif ln == "context":
            self._ctx = {"id": a.get("id", ""), "dims": False, "start": None, "end": None, "instant": None}
        elif ln in ("segment", "scenario", "explicitmember", "typedmember") and self._ctx is not None:
            self._ctx["dims"] = True
        elif ln in ("startdate", "enddate", "instant") and self._ctx is not None:
            self._field = ln
            self._buf = []
        elif ln == "unit":
            self._unit = {"id": a.get("id", ""), "num": [], "den": []}
            self._unit_part = "num"
        elif ln == "unitdenominator" and self._unit is not None:
            self._unit_part = "den"
        elif ln == "unitnumerator" and self._unit is not None:
            self._unit_part = "num"
        elif ln == "measure" and self._unit is not None:
            self._field = "measure"
            self._buf = []
        self._open.append((ln, rec))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        ln = local(tag)
        if ln is None:
            return
        # pop up to the matching open tag (tolerates sloppy nesting)
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == ln:
                popped = self._open[i:]
                del self._open[i:]
                for name, rec in reversed(popped):
                    self._close(name, rec)
                break

    def _close(self, ln, rec):
        if rec is not None:
            text = " ".join("".join(rec["text"]).split())
            rec["text"] = text
            if rec["kind"] == "fact":
                self.facts.append(rec)
            else:
                self.nonnumeric.append(rec)
        if ln in ("startdate", "enddate", "instant") and self._ctx is not None and self._field == ln:
            val = "".join(self._buf).strip()
            key = {"startdate": "start", "enddate": "end", "instant": "instant"}[ln]
            self._ctx[key] = parse_iso(val)
            self._field = None
        elif ln == "context" and self._ctx is not None:
            self.contexts[self._ctx["id"]] = self._ctx
            self._ctx = None
        elif ln == "measure" and self._unit is not None and self._field == "measure":
            self._unit[self._unit_part or "num"].append(strip_prefix("".join(self._buf).strip()))
            self._field = None
        elif ln == "unit" and self._unit is not None:
            self.units[self._unit["id"]] = (tuple(self._unit["num"]), tuple(self._unit["den"]))
            self._unit = None
            self._unit_part = None

    def handle_data(self, data):
        if self._field is not None:
            self._buf.append(data)
        for rec in self._text_targets():
            rec["text"].append(data)


def parse_iso(s):
    s = s.strip()
    try:
        return dt.date.fromisoformat(s[:10])
    except ValueError:
        return None


WORD_NUMBERS = {"zero": 0, "none": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4,
                "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def fact_number(f):
    """The displayed number of a nonFraction fact (before scale and sign), or None."""
    if f["nil"]:
        return None
    fmt = f["format"].lower()
    text = f["text"].replace("\u00a0", " ").strip()
    fmt_local = fmt.split(":", 1)[-1]
    if "zero" in fmt_local and ("fixed" in fmt_local or "dash" in fmt_local):
        return 0.0                                   # ixt:fixed-zero, ixt:zerodash, ixt:numdash
    if fmt_local in ("numdash",):
        return 0.0
    if "numwords" in fmt_local:
        w = text.lower().strip()
        return float(WORD_NUMBERS[w]) if w in WORD_NUMBERS else None
    if not text or text in ("-", "—", "–"):
        return 0.0 if "zero" in fmt_local or "dash" in fmt_local else None
    if "comma-decimal" in fmt_local or "numcommadecimal" in fmt_local or fmt_local == "num-comma-decimal":
        # 1.234,5 -> 1234.5
        t = re.sub(r"[^0-9,]", "", text).replace(",", ".")
    else:
        # num-dot-decimal, numdotdecimal, or no format: 1,234.5 / 1 234.5
        t = re.sub(r"[^0-9.]", "", text)
    if not t or t == ".":
        return None
    try:
        return float(t)
    except ValueError:
        return None


def decimals_value(d):
    if d is None or d == "":
        return None
    if d.upper() == "INF":
        return 99
    try:
        return int(d)
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------------------

# metrics whose alternatives name parts as well as the whole (a company that tags both
# Revenues and RevenueFromContract..., or R&D with and without acquired in-process R&D):
# the largest alternative is the total line; the others take the first alternative tagged.
PICK_LARGEST = {"revenue", "rnd", "cogs", "dna"}

BASE = {
    # key: (concepts in preference order, period type, kind)
    "revenue": (["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet",
                 "RevenueFromContractWithCustomerIncludingAssessedTax"], "duration", "usd"),
    "net_income": (["NetIncomeLoss", "ProfitLoss"], "duration", "usd"),
    "operating_income": (["OperatingIncomeLoss"], "duration", "usd"),
    "capex": (["PaymentsToAcquirePropertyPlantAndEquipment", "PaymentsToAcquireProductiveAssets"], "duration", "usd"),
    "cfo": (["NetCashProvidedByUsedInOperatingActivities",
             "NetCashProvidedByUsedInOperatingActivitiesContinuingOperations"], "duration", "usd"),
    "total_assets": (["Assets"], "instant", "usd"),
    "current_assets": (["AssetsCurrent"], "instant", "usd"),
    "current_liabilities": (["LiabilitiesCurrent"], "instant", "usd"),
    "total_liabilities": (["Liabilities"], "instant", "usd"),
    "cash": (["CashAndCashEquivalentsAtCarryingValue"], "instant", "usd"),
    "inventory": (["InventoryNet"], "instant", "usd"),
    "receivables": (["AccountsReceivableNetCurrent"], "instant", "usd"),
    "rnd": (["ResearchAndDevelopmentExpense", "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"],
            "duration", "usd"),
    "cogs": (["CostOfRevenue", "CostOfGoodsAndServicesSold"], "duration", "usd"),
    "gross_profit": (["GrossProfit"], "duration", "usd"),
    "eps_diluted": (["EarningsPerShareDiluted"], "duration", "usd_per_share"),
    "dividends_paid": (["PaymentsOfDividends", "PaymentsOfDividendsCommonStock"], "duration", "usd"),
    "equity": (["StockholdersEquity"], "instant", "usd"),
    "dna": (["DepreciationDepletionAndAmortization", "DepreciationAndAmortization"], "duration", "usd"),
    "income_tax": (["IncomeTaxExpenseBenefit"], "duration", "usd"),
}


class Filing:
    def __init__(self, path):
        self.path = path
        self.doc = os.path.basename(path)
        p = IXParser()
        with open(path, encoding="utf-8", errors="replace") as fh:
            p.feed(fh.read())
        p.close()
        self.parser = p
        self.contexts = p.contexts
        self.units = p.units
        self._read_dei()
        self._index_facts()

    # -- document and entity information
    def _read_dei(self):
        dei = {}
        for n in self.parser.nonnumeric:
            name = strip_prefix(n["name"])
            if name.startswith("Document") or name.startswith("Entity") or name in ("TradingSymbol", "CurrentFiscalYearEndDate"):
                dei.setdefault(name, []).append(n)
        self.dei = dei
        name = first_text(dei.get("EntityRegistrantName"))
        self.company = tidy_name(html.unescape(name or os.path.splitext(self.doc)[0]))
        # trading symbol: the first plain symbol (letters, optionally a dot class), shortest wins ties
        syms = [n["text"].strip() for n in dei.get("TradingSymbol", []) if n["text"].strip()]
        plain = [s for s in syms if re.fullmatch(r"[A-Z]{1,5}(\.[A-Z])?", s)]
        if plain:
            self.ticker = plain[0]
        elif syms:
            self.ticker = syms[0].split()[0]
        else:
            m = re.match(r"([A-Z]{1,5})_", self.doc)
            self.ticker = m.group(1) if m else None
        fy = first_text(dei.get("DocumentFiscalYearFocus"))
        self.fy_focus = int(re.sub(r"\D", "", fy)[:4]) if fy and re.search(r"\d{4}", fy) else None
        # current fiscal year end: the period of the dei facts' context, else DocumentPeriodEndDate text
        self.fy_end = None
        self.fy_start = None
        for key in ("DocumentFiscalYearFocus", "DocumentPeriodEndDate", "DocumentType"):
            for n in dei.get(key, []):
                c = self.contexts.get(n["context"])
                if c and c["end"] and c["start"] and 300 <= (c["end"] - c["start"]).days <= 380:
                    self.fy_end, self.fy_start = c["end"], c["start"]
                    break
            if self.fy_end:
                break
        if self.fy_end is None:
            self.fy_end = parse_text_date(first_text(dei.get("DocumentPeriodEndDate")) or "")
        if self.fy_focus is None and self.fy_end is not None:
            self.fy_focus = self.fy_end.year
        if self.fy_end is None or self.fy_focus is None:
            raise ValueError(f"{self.doc}: cannot determine the fiscal year (focus {self.fy_focus}, end {self.fy_end})")

    # -- facts by (concept, period)
    def _index_facts(self):
        groups = {}
        for f in self.parser.facts:
            c = self.contexts.get(f["context"])
            if c is None or c["dims"]:
                continue
            num = fact_number(f)
            if num is None:
                continue
            try:
                scale = int(f["scale"])
            except ValueError:
                scale = 0
            val = num * (10 ** scale)
            if f["sign"].strip() == "-":
                val = -val
            period = ("I", c["instant"]) if c["instant"] else ("D", c["start"], c["end"])
            concept = strip_prefix(f["name"])
            unit = self.units.get(f["unit"], ((f["unit"],), ()))
            groups.setdefault((concept, period), []).append({
                "value": val, "decimals": decimals_value(f["decimals"]), "text": f["text"],
                "unit": unit, "scale": scale})
        self.groups = groups
        self.conflicts = []

    def fact(self, concept, period, unit_kind):
        """Consistent value of concept at period, as (value, [displayed texts]) or None."""
        facts = [f for f in self.groups.get((concept, period), []) if unit_ok(f["unit"], unit_kind)]
        if not facts:
            return None
        facts.sort(key=lambda f: -(f["decimals"] if f["decimals"] is not None else -99))
        best = facts[0]
        for f in facts[1:]:
            d = min(x for x in (best["decimals"], f["decimals"]) if x is not None) if (
                best["decimals"] is not None or f["decimals"] is not None) else 0
            tol = 0.5 * 10 ** (-d) if d < 99 else 1e-9
            if abs(f["value"] - best["value"]) > tol + 1e-9 * abs(best["value"]):
                self.conflicts.append((concept, period, best["value"], f["value"]))
                return None
        if unit_kind == "usd" and best["decimals"] is not None and best["decimals"] < -6:
            return None                     # only a rounded mention ("$0.7 billion"), no statement figure
        texts = []
        for f in facts:
            if f["decimals"] == best["decimals"] and f["text"] not in texts:
                texts.append(f["text"])
        return best["value"], texts

    # -- periods
    def duration_period(self, fy):
        """The (start, end) key of a ~1-year duration ending at fiscal year fy's end."""
        k = self.fy_focus - fy
        target = shift_years(self.fy_end, -k)
        best = None
        for c in self.contexts.values():
            if c["dims"] or not c["start"] or not c["end"]:
                continue
            days = (c["end"] - c["start"]).days
            if not 350 <= days <= 380:
                continue
            off = abs((c["end"] - target).days)
            if off <= 14 and (best is None or off < best[0]):
                best = (off, ("D", c["start"], c["end"]))
        return best[1] if best else None

    def instant_period(self, fy):
        k = self.fy_focus - fy
        target = shift_years(self.fy_end, -k)
        best = None
        for c in self.contexts.values():
            if c["dims"] or not c["instant"]:
                continue
            off = abs((c["instant"] - target).days)
            if off <= 14 and (best is None or off < best[0]):
                best = (off, ("I", c["instant"]))
        return best[1] if best else None

    def period_end(self, fy):
        p = self.duration_period(fy)
        if p:
            return p[2]
        p = self.instant_period(fy)
        return p[1] if p else None

    def base(self, key, fy):
        """(value, evidence, concept) of a base metric in fiscal year fy, or None."""
        concepts, ptype, kind = BASE[key]
        period = self.duration_period(fy) if ptype == "duration" else self.instant_period(fy)
        if period is None:
            return None
        found = []
        for concept in concepts:
            got = self.fact(concept, period, kind)
            if got is not None and got[0] != 0:
                found.append((got[0], got[1], concept))
                if key not in PICK_LARGEST:
                    break
        if not found:
            return None
        return max(found, key=lambda g: abs(g[0])) if key in PICK_LARGEST else found[0]

    def base_same_concept(self, key, fy_a, fy_b):
        """Values of a base metric in two fiscal years from one and the same concept (the
        one the later year's figure comes from)."""
        concepts, ptype, kind = BASE[key]
        pa = self.duration_period(fy_a) if ptype == "duration" else self.instant_period(fy_a)
        b = self.base(key, fy_b)
        if pa is None or b is None:
            return None
        a = self.fact(b[2], pa, kind)
        if a is None:
            return None
        return a, (b[0], b[1]), b[2]


def unit_ok(unit, kind):
    num, den = unit
    num = tuple(x.upper() for x in num)
    den = tuple(x.lower() for x in den)
    if kind == "usd":
        return num == ("USD",) and not den
    if kind == "usd_per_share":
        return num == ("USD",) and den == ("shares",)
    return True


def first_text(nodes):
    for n in nodes or []:
        t = n["text"].strip()
        if t:
            return t
    return None


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def parse_text_date(s):
    s = s.replace("\u00a0", " ")
    m = re.search(r"([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})", s)
    if m:
        for i, name in enumerate(MONTHS):
            if name.lower().startswith(m.group(1).lower()[:3]):
                try:
                    return dt.date(int(m.group(3)), i + 1, int(m.group(2)))
                except ValueError:
                    return None
    return parse_iso(s)


def shift_years(d, years):
    try:
        return d.replace(year=d.year + years)
    except ValueError:                      # Feb 29
        return d.replace(year=d.year + years, day=28)


SUFFIXES = r"(,?\s+(inc\.?|incorporated|corporation|corp\.?|company|co\.?|plc|ltd\.?|limited|group|holdings))+\s*$"


def tidy_name(name):
    name = " ".join(name.replace("\u00a0", " ").split())
    if name.isupper():
        words = []
        for w in name.split():
            if re.fullmatch(r"[A-Z]{1,3}", w) and w not in ("CO", "INC"):
                words.append(w)              # GE, P&G-like initials, RTX
            elif "&" in w:
                words.append(w)
            else:
                words.append("-".join(p.capitalize() for p in w.split("-")))
        name = " ".join(words)
    return name


SHORT_NAMES = {  # how analysts name these companies; fallback strips legal suffixes
    "WMT": ["Walmart"], "META": ["Meta"], "PG": ["P&G", "Procter & Gamble"],
    "JNJ": ["J&J", "Johnson & Johnson"], "UNH": ["UnitedHealth"], "GE": ["GE", "General Electric"],
    "GM": ["GM", "General Motors"], "BA": ["Boeing"], "CL": ["Colgate", "Colgate-Palmolive"],
    "CSCO": ["Cisco"], "INTC": ["Intel"], "NKE": ["Nike"], "PLTR": ["Palantir"], "RTX": ["RTX"],
    "V": ["Visa"], "ABBV": ["AbbVie"], "AAPL": ["Apple"], "TSLA": ["Tesla"],
}


def short_names(filing):
    if filing.ticker in SHORT_NAMES:
        return SHORT_NAMES[filing.ticker]
    s = re.sub(SUFFIXES, "", filing.company, flags=re.I).strip(" ,")
    return [s or filing.company]


# ---------------------------------------------------------------------------------------
# Wording
# ---------------------------------------------------------------------------------------

# casual noun phrases, formal (FinanceBench-like) names, statement names
METRIC_WORDS = {
    "revenue": {"casual": ["revenue", "total revenue", "sales", "top line", "net sales"],
                "formal": ["total revenue", "net revenues", "total net sales", "revenue"],
                "stmt": ["income statement", "P&L statement", "statement of income", "consolidated statement of operations"]},
    "net_income": {"casual": ["net income", "profit", "net earnings", "bottom line"],
                   "formal": ["net income attributable to shareholders", "net income", "net income attributable to the company"],
                   "stmt": ["income statement", "P&L statement", "statement of income"]},
    "operating_income": {"casual": ["operating income", "operating profit", "income from operations", "EBIT"],
                         "formal": ["operating income", "unadjusted operating income", "operating profit"],
                         "stmt": ["income statement", "P&L statement", "statement of operations"]},
    "capex": {"casual": ["capex", "capital expenditure", "capital spending", "capital expenditures"],
              "formal": ["capital expenditure amount", "capital expenditures", "capex"],
              "stmt": ["cash flow statement", "statement of cash flows"]},
    "cfo": {"casual": ["operating cash flow", "cash from operations", "cash flow from operating activities"],
            "formal": ["cash from operations", "net cash provided by operating activities", "cash flow from operating activities"],
            "stmt": ["cash flow statement", "statement of cash flows"]},
    "total_assets": {"casual": ["total assets", "assets"],
                     "formal": ["total assets"],
                     "stmt": ["balance sheet", "statement of financial position"]},
    "current_assets": {"casual": ["current assets", "total current assets"],
                       "formal": ["total current assets"],
                       "stmt": ["balance sheet", "statement of financial position"]},
    "current_liabilities": {"casual": ["current liabilities", "total current liabilities"],
                            "formal": ["total current liabilities"],
                            "stmt": ["balance sheet", "statement of financial position"]},
    "total_liabilities": {"casual": ["total liabilities"],
                          "formal": ["total liabilities"],
                          "stmt": ["balance sheet", "statement of financial position"]},
    "cash": {"casual": ["cash and cash equivalents", "cash balance", "cash on hand"],
             "formal": ["cash and cash equivalents", "year-end cash and cash equivalents"],
             "stmt": ["balance sheet", "statement of financial position"]},
    "inventory": {"casual": ["inventory", "inventories"],
                  "formal": ["total inventories", "inventories", "net inventory"],
                  "stmt": ["balance sheet", "statement of financial position"]},
    "receivables": {"casual": ["accounts receivable", "receivables", "trade receivables"],
                    "formal": ["accounts receivable, net", "net accounts receivable"],
                    "stmt": ["balance sheet", "statement of financial position"]},
    "rnd": {"casual": ["R&D spending", "research and development expense", "R&D"],
            "formal": ["research and development expense", "R&D expense"],
            "stmt": ["income statement", "P&L statement", "statement of income"]},
    "cogs": {"casual": ["cost of sales", "cost of goods sold", "COGS", "cost of revenue"],
             "formal": ["cost of goods sold", "COGS", "cost of revenue"],
             "stmt": ["income statement", "P&L statement", "statement of income"]},
    "gross_profit": {"casual": ["gross profit", "gross margin dollars"],
                     "formal": ["gross profit"],
                     "stmt": ["income statement", "P&L statement"]},
    "eps_diluted": {"casual": ["diluted EPS", "diluted earnings per share", "EPS (diluted)"],
                    "formal": ["diluted earnings per share", "diluted EPS"],
                    "stmt": ["income statement", "P&L statement", "statement of income"]},
    "dividends_paid": {"casual": ["dividends paid", "dividend payments", "cash dividends"],
                       "formal": ["total cash dividends paid", "dividends paid", "cash dividends paid to shareholders"],
                       "stmt": ["cash flow statement", "statement of cash flows"]},
    "equity": {"casual": ["shareholders' equity", "stockholders' equity", "book value of equity"],
               "formal": ["total shareholders' equity", "total stockholders' equity"],
               "stmt": ["balance sheet", "statement of financial position"]},
    "dna": {"casual": ["depreciation and amortization", "D&A"],
            "formal": ["depreciation and amortization expense", "D&A expense", "depreciation and amortization"],
            "stmt": ["cash flow statement", "statement of cash flows"]},
    "income_tax": {"casual": ["income tax expense", "tax expense", "provision for income taxes"],
                   "formal": ["income tax expense", "provision for income taxes", "total income tax expense"],
                   "stmt": ["income statement", "P&L statement", "statement of income"]},
}

# casual questions that need a verb of their own (more natural than "what was X's <noun>")
CASUAL_SPECIAL = {
    "capex": ["How much did {co} spend on capital expenditures {when}?",
              "How much did {co} invest in property, plant and equipment {when}?"],
    "rnd": ["How much did {co} spend on R&D {when}?",
            "How much did {co} put into research and development {when}?"],
    "revenue": ["How much revenue did {co} bring in {when}?", "How much did {co} sell {when}?"],
    "net_income": ["How much did {co} earn {when}?", "How much money did {co} make {when}?"],
    "dividends_paid": ["How much did {co} pay out in dividends {when}?"],
    "cash": ["How much cash did {co} have {when}?", "How much cash was {co} sitting on {when}?"],
    "income_tax": ["How much did {co} book in income taxes {when}?"],
    "cfo": ["How much cash did {co}'s operations generate {when}?"],
    "eps_diluted": ["What did {co} earn per diluted share {when}?"],
    "inventory": ["How much inventory was {co} carrying {when}?"],
    "total_assets": ["How big was {co}'s balance sheet {when}, in total assets?"],
}

CASUAL_TEMPLATES = [
    "What was {co}'s {m} {when}?",
    "What were {co}'s {m} {when}?",          # used only for plural-looking nouns
    "{co} {m} {when}?",
    "Can you tell me {co}'s {m} {when}?",
    "What did {co} report for {m} {when}?",
    "I'm looking for {co}'s {m} {when} -- what was it?",
    "Give me {co}'s {m} {when}.",
    "Quick one: {m} for {co} {when}?",
    "what was the {m} of {co} {when}",
]

FB_USD_TEMPLATES = [
    "What is the {P} {m} (in {unit}) for {co}? Give a response to the question by relying on the details shown in the {stmt}.",
    "You are an investment banker and your only resource(s) to answer the following question is (are): the {stmt}. Here's the question: what is the {P} {m} for {co}? Answer in {unit}.{round}",
    "Answer the following question as if you are an equity research analyst and have lost internet connection so do not have access to financial metric providers. According to the details clearly outlined within the {stmt}, what is {co}'s {P} {m} (in {unit})?{round}",
    "Based on the information presented in the {stmt}, what is {co}'s {P} {m}? Answer in {unit}.{round}",
    "Assume that you are a public equities analyst. Answer the following question by primarily using information that is shown in the {stmt}: what is {co}'s {P} {m}? Respond in {unit}.{round}",
    "We need to calculate a reasonable approximation (or exact number if possible) of a financial metric. Basing your judgment by information plainly provided in the {stmt}, what is {co}'s {P} {m}? Answer in {unit}.{round}",
    "Using the {stmt} as your only source, report {co}'s {m} for {P} in {unit}.{round}",
    "Taking the {stmt} at face value, what {verb} {co}'s {m} in {P}? Express the figure in {unit}.{round}",
]

FB_EPS_TEMPLATES = [
    "What is the {P} {m} for {co}? Give a response to the question by relying on the details shown in the {stmt}. Answer in USD per share, rounded to two decimal places.",
    "You are an investment banker and your only resource(s) to answer the following question is (are): the {stmt}. Here's the question: what is {co}'s {P} {m}? Answer in USD per share.",
    "Answer the following question as if you are an equity research analyst and have lost internet connection so do not have access to financial metric providers. According to the details clearly outlined within the {stmt}, what is {co}'s {P} {m}?",
    "Based on the {stmt}, what was {co}'s {m} for {P} (in USD per share)?",
    "Assume that you are a public equities analyst. Using primarily the {stmt}, what is {co}'s {P} {m}? Round to two decimal places.",
]

# derived metrics: definitions, wording, statements
DERIVED = {
    "current_ratio": {"kind": "ratio", "decimals": 2, "period": "instant",
                      "names": ["current ratio"],
                      "def": "Current ratio is defined as: total current assets / total current liabilities.",
                      "stmt": ["balance sheet", "statement of financial position"]},
    "gross_margin": {"kind": "percent", "decimals": 1, "period": "duration",
                     "names": ["gross margin", "gross margin %", "gross profit margin"],
                     "def": "Gross margin is defined as: (revenue - cost of goods sold) / revenue.",
                     "stmt": ["income statement", "P&L statement"]},
    "operating_margin": {"kind": "percent", "decimals": 1, "period": "duration",
                         "names": ["operating margin", "operating margin %", "unadjusted operating margin"],
                         "def": "Operating margin is defined as: operating income / total revenue.",
                         "stmt": ["income statement", "P&L statement"]},
    "net_margin": {"kind": "percent", "decimals": 1, "period": "duration",
                   "names": ["net profit margin", "net margin", "net income margin"],
                   "def": "Net profit margin is defined as: net income / total revenue.",
                   "stmt": ["income statement", "P&L statement"]},
    "fcf": {"kind": "usd", "decimals": None, "period": "duration",
            "names": ["free cash flow", "FCF"],
            "def": "Free cash flow is defined as: cash from operations - capital expenditures.",
            "stmt": ["cash flow statement", "statement of cash flows"]},
    "capex_pct_revenue": {"kind": "percent", "decimals": 1, "period": "duration",
                          "names": ["capital expenditure as a % of revenue", "capex-to-revenue ratio (in %)",
                                    "capex intensity (capex as a percentage of revenue)"],
                          "def": "Capex as a % of revenue is defined as: capital expenditures / total revenue.",
                          "stmt": ["cash flow statement and the income statement", "statement of cash flows and the P&L statement"]},
    "roa": {"kind": "percent", "decimals": 1, "period": "duration",
            "names": ["return on assets (ROA)", "return on assets", "ROA"],
            "def": "ROA is defined as: net income / average total assets, where average total assets is the average of the total assets at the beginning and at the end of the year.",
            "stmt": ["income statement and the balance sheet", "P&L statement and the statement of financial position"]},
}

RATIO_TEMPLATES = [
    "What was {co}'s {m} {when}?{round}",
    "Calculate {co}'s {m} for {P}. {def}{round}",
    "You are a credit analyst. Using only the {stmt}, what is {co}'s {P} {m}? {def}{round}",
    "What is the {P} {m} for {co}? {def} Give a response to the question by relying on the details shown in the {stmt}.{round}",
    "Compute the {m} of {co} {when}.{round}",
    "Work out {co}'s {m} {when} from its {stmt}.{round}",
    "Answer the following question as if you are an equity research analyst and have lost internet connection so do not have access to financial metric providers. According to the details clearly outlined within the {stmt}, what is {co}'s {P} {m}? {def}{round}",
    "{co} {m} {when}?",
]

FB_DERIVED_TEMPLATES = [   # financebench questions on a ratio or percent (derived) metric
    "You are an investment banker and your only resource(s) to answer the following question is (are): the {stmt}. Here's the question: what is the {P} {m} for {co}? {def}{u}",
    "What is {co}'s {P} {m}? {def} Give a response to the question by relying on the details shown in the {stmt}.{u}",
    "Answer the following question as if you are an equity research analyst and have lost internet connection so do not have access to financial metric providers. According to the details clearly outlined within the {stmt}, what is the {P} {m} for {co}?{u} {def}",
    "Assume that you are a public equities analyst. Answer the following question by primarily using information that is shown in the {stmt}: what is {co}'s {P} {m}?{u}",
    "We want to calculate a financial metric. Please help us compute it by basing your answers off of the {stmt}. Here's the question: what is {co}'s {P} {m}? {def}{u}",
]

GROWTH_PCT_TEMPLATES = [
    "By how much did {co}'s {m} grow from {Pa} to {Pb}, in percent?",
    "What is the year-over-year change in {m} (in %) for {co} from {Pa} to {Pb}?{round}",
    "What was {co}'s {Pb} {m} growth rate versus {Pa}?{round}",
    "How much did {co}'s {m} change in {Pb} compared with {Pa}, in percentage terms?{round}",
    "You are an equity research analyst. Using the {stmt}, what is {co}'s {m} growth from {Pa} to {Pb}? Answer in units of percents{round_tail}",
    "{co}: {m} growth {Pa} -> {Pb}, in %?",
    "Calculate the percentage change in {co}'s {m} between {Pa} and {Pb}.{round}",
]

GROWTH_ABS_TEMPLATES = [
    "By how much did {co}'s {m} change from {Pa} to {Pb} (in {unit})?",
    "What is the absolute year-over-year change in {co}'s {m} between {Pa} and {Pb}? Answer in {unit}.",
    "How many {unit_word} did {co}'s {m} move by from {Pa} to {Pb}?",
]

GROWTH_METRICS = {
    "revenue": {"names": ["revenue", "total revenue", "net sales", "sales"], "stmt": ["income statement", "P&L statement"]},
    "net_income": {"names": ["net income", "net earnings"], "stmt": ["income statement", "P&L statement"]},
    "operating_income": {"names": ["operating income", "operating profit"], "stmt": ["income statement", "P&L statement"]},
    "eps_diluted": {"names": ["diluted EPS", "diluted earnings per share"], "stmt": ["income statement"]},
    "cfo": {"names": ["operating cash flow", "cash from operations"], "stmt": ["cash flow statement"]},
}

UNIT_WORDS = {"millions": "USD millions", "billions": "USD billions", "thousands": "USD thousands"}
UNIT_WORDS_LONG = {"millions": "millions of dollars", "billions": "billions of dollars",
                   "thousands": "thousands of dollars"}
UNIT_SHORT = {"millions": "$mm", "billions": "$bn", "thousands": "$000s"}   # no built-in template uses it
SCALE = {"millions": 1e6, "billions": 1e9, "thousands": 1e3}

PERCENT_ANSWER = " Answer in units of percents and round to one decimal place."
ANSWER_IN_UNIT = " Answer in {unit}."
# fiscal-year spellings ({y} 2023, {yy} 23); a bare "{y}" only where the fiscal year ends April-December
PERIOD_FORMATS = ["FY{y}", "fiscal {y}", "fiscal year {y}", "FY{yy}", "{y}"]
GROWTH_PERIOD_FORMATS = ["FY{y}", "fiscal {y}", "fiscal year {y}", "FY{yy}", "{y}"]
WHEN_DURATION = ["in {P}", "for {P}", "during {P}"]
WHEN_DURATION_DATED = ["for the fiscal year ended {date}", "in the fiscal year ended {date}"]   # current year only
WHEN_INSTANT = ["at the end of {P}", "as of the end of {P}", "at {P} year-end"]
WHEN_INSTANT_DATED = ["as of {date}"]
DATE_FORMATS = "{month} {day}, {year}"


def pick(rng, v):
    """A phrase: a string as it is (no random draw), else a random choice from the list."""
    return v if isinstance(v, str) else rng.choice(v)


def round_phrase(rng, d, style="sentence", kind=None):
    if d is None:
        return ""
    if VOC["round"] is not None:                 # phrases from a --templates file
        table = VOC["round_tail" if style == "tail" else "round"]
        if kind == "percent":
            pct = VOC["round_percent_tail" if style == "tail" else "round_percent"]
            if pct and str(d) in pct:
                table = pct
        if table and str(d) in table:
            return pick(rng, table[str(d)])
    words = {0: "the nearest whole number", 1: "one decimal place", 2: "two decimal places"}[d]
    if style == "tail":
        return f" and round to {words}." if d else " and round to a whole number."
    options = [f" Round your answer to {words}.", f" Round to {words}.",
               f" Please round to {words}."] if d else [" Round to the nearest whole number."]
    return rng.choice(options)


def format_date(rng, d):
    return pick(rng, VOC["date_formats"]).format(
        month=MONTHS[d.month - 1], mon=MONTHS[d.month - 1][:3], day=d.day, year=d.year,
        mm=f"{d.month:02d}", dd=f"{d.day:02d}", m=d.month)


def period_words(filing, fy, rng, ptype, allow_date=True):
    """(P, when): a fiscal-year spelling and a phrase for 'when' (duration or instant)."""
    yy = f"{fy % 100:02d}"
    end = filing.period_end(fy)
    bare_ok = end is not None and end.month >= 4     # a bare year is only clear when FY ~ calendar year
    spellings = [f.format(y=fy, yy=yy) for f in VOC["period_formats"] if f != "{y}" or bare_ok]
    P = rng.choice(spellings)
    date_str = format_date(rng, end) if end else None
    if ptype == "duration":
        whens = [w.format(P=P, y=fy, yy=yy) for w in VOC["when_duration"]]
        if allow_date and fy == filing.fy_focus and date_str:
            whens += [w.format(date=date_str) for w in VOC["when_duration_dated"]]
    else:
        whens = [w.format(P=P, y=fy, yy=yy) for w in VOC["when_instant"]]
        if allow_date and date_str:
            whens += [w.format(date=date_str) for w in VOC["when_instant_dated"]]
    return P, rng.choice(whens)


def unit_slots(rng, scale):
    return {"unit": pick(rng, VOC["unit_words"][scale]), "unit_word": pick(rng, VOC["unit_words_long"][scale]),
            "unit_short": pick(rng, VOC["unit_short"][scale])}


def plural_casual(m):
    if VOC["plural_nouns"] is not None:
        return m in VOC["plural_nouns"]
    plural = m.endswith("s") and not m.endswith("ss") and m not in ("capex", "sales", "total assets", "assets", "cost of sales")
    return plural or m in ("sales", "net sales", "total assets", "assets")


def plural_formal(m):
    if VOC["plural_nouns"] is not None:
        return m in VOC["plural_nouns"]
    return m.endswith("s") and not m.endswith("ss")


# ---------------------------------------------------------------------------------------
# Template sets: the built-in wordings above, or those of a JSON file (--templates)
# ---------------------------------------------------------------------------------------

TEMPLATES_HELP = """\
--templates FILE.json replaces the wordings. Families the file leaves out keep the built-in
ones. A template is a string, or an object {"text": ..., options}; its slots:
  casual        {co} {m} {when} {P}; optional {unit} / {unit_short} (asks dollar metrics in a
                scale; {round} then allowed too). Sections: "any", "singular", "plural"
                (number of the noun {m}), "special": {metric: [...]} (wordings with a verb of
                their own, drawn twice as often).
  financebench  "usd": {P} {m} {unit} {co} {stmt} {round} {verb} (base dollar metrics and free
                cash flow; the definition of a derived one is appended);
                "usd_per_share": {P} {m} {co} {stmt}, option "decimals": 2 when it asks two
                decimals; "derived": {P} {m} {co} {stmt} {def} {u} ({u} = unit/rounding
                sentence) - a list, or {"any"|"percent"|"ratio": [...]}.
  ratio         {co} {m} {when} {P} {stmt} {round} {def} - a list, or
                {"any"|"percent"|"ratio"|"usd": [...]}; options "round": "optional" (asked
                half the time) | "always", "strip_article": true ("the " dropped from {stmt}).
  growth        "percent": {co} {m} {Pa} {Pb} {stmt} {round} {round_tail} ({round} asked 70% of
                the time, {round_tail} always); "abs_change": {co} {m} {Pa} {Pb} {unit}
                {unit_word} {unit_short}.
  vocab         optional phrase lists (a string is used as is, a list is drawn from):
                metric_words {metric: {casual|formal|stmt: [...]}}, plural_nouns [...],
                derived {metric: {names|def|stmt}}, growth_metrics {metric: {names|stmt}},
                unit_words / unit_words_long / unit_short {millions|billions|thousands: ...},
                round / round_tail / round_percent / round_percent_tail {"0"|"1"|"2": [...]},
                percent_answer, answer_in_unit ({unit}), period_formats / growth_period_formats
                ({y} {yy}; "{y}" alone only for fiscal years ending April-December),
                when_duration / when_instant ({P} {y} {yy}), when_duration_dated /
                when_instant_dated ({date}), date_formats ({month} {mon} {day} {year} {mm} {dd})."""

SLOTS = {
    "casual": {"co", "m", "when", "P", "unit", "unit_short", "round"},
    "financebench.usd": {"P", "m", "unit", "unit_short", "co", "stmt", "round", "verb"},
    "financebench.usd_per_share": {"P", "m", "co", "stmt"},
    "financebench.derived": {"stmt", "P", "m", "co", "u", "def"},
    "ratio": {"co", "m", "when", "P", "stmt", "round", "def"},
    "growth.percent": {"co", "m", "Pa", "Pb", "stmt", "round", "round_tail"},
    "growth.abs_change": {"co", "m", "Pa", "Pb", "unit", "unit_word", "unit_short"},
}


def entry(t, **defaults):
    """A template entry: {"text", "number", "round", "strip_article", "decimals"}."""
    e = {"number": None, "round": "always", "strip_article": False, "decimals": None}
    e.update(defaults)
    if isinstance(t, dict):
        unknown = set(t) - set(e) - {"text"}
        if unknown or not isinstance(t.get("text"), str):
            raise ValueError(f"bad template entry {t!r}")
        e.update(t)
    else:
        e["text"] = t
    return e


def slots_of(text):
    import string
    names = set()
    for _, field, spec, conv in string.Formatter().parse(text):
        if field is None:
            continue
        if not field or spec or conv or not field.isidentifier():
            raise ValueError(f"template {text!r}: slot {{{field}}} must be a plain name")
        names.add(field)
    return names


def builtin_templates():
    return {
        "casual": {
            # the built-in rule: "What w..." wordings agree in number with the noun
            "templates": [entry(t, number=None if "What w" not in t else ("plural" if "were" in t else "singular"))
                          for t in CASUAL_TEMPLATES],
            "special": {k: [entry(t) for t in v] for k, v in CASUAL_SPECIAL.items()},
        },
        "financebench": {
            "usd": [entry(t) for t in FB_USD_TEMPLATES],
            "usd_per_share": [entry(t, decimals=2 if "two decimal" in t else None) for t in FB_EPS_TEMPLATES],
            "derived": {"any": [entry(t) for t in FB_DERIVED_TEMPLATES]},
        },
        "ratio": {"any": [entry(t, round="optional" if t.startswith(("What was", "Compute", "Work out")) else "always",
                                strip_article=t.startswith("Work out")) for t in RATIO_TEMPLATES]},
        "growth": {"percent": [entry(t) for t in GROWTH_PCT_TEMPLATES],
                   "abs_change": [entry(t) for t in GROWTH_ABS_TEMPLATES]},
    }


def builtin_vocab():
    return {
        "metric_words": {k: dict(v) for k, v in METRIC_WORDS.items()},
        "plural_nouns": None,
        "derived": {k: {f: v[f] for f in ("names", "def", "stmt")} for k, v in DERIVED.items()},
        "growth_metrics": {k: dict(v) for k, v in GROWTH_METRICS.items()},
        "unit_words": dict(UNIT_WORDS), "unit_words_long": dict(UNIT_WORDS_LONG), "unit_short": dict(UNIT_SHORT),
        "round": None, "round_tail": None, "round_percent": None, "round_percent_tail": None,
        "percent_answer": PERCENT_ANSWER, "answer_in_unit": ANSWER_IN_UNIT,
        "period_formats": list(PERIOD_FORMATS), "growth_period_formats": list(GROWTH_PERIOD_FORMATS),
        "when_duration": list(WHEN_DURATION), "when_duration_dated": list(WHEN_DURATION_DATED),
        "when_instant": list(WHEN_INSTANT), "when_instant_dated": list(WHEN_INSTANT_DATED),
        "date_formats": DATE_FORMATS,
    }


TPL = builtin_templates()
VOC = builtin_vocab()


def by_kind(section, kinds, where):
    """A list, or {"any": [...], kind: [...]}, as {"any": [...], kind: [...]} of entries."""
    if isinstance(section, list):
        section = {"any": section}
    unknown = set(section) - {"any"} - set(kinds)
    if unknown:
        raise ValueError(f"{where}: unknown sections {sorted(unknown)}")
    out = {k: [entry(t) for t in section.get(k, [])] for k in ["any"] + list(kinds)}
    for k in kinds:
        if not out["any"] and not out[k]:
            raise ValueError(f"{where}: no wording for kind {k}")
    return out


def load_templates(path):
    """Replace TPL (and the VOC phrases the file gives) with those of a JSON file."""
    with open(path) as fh:
        cfg = json.load(fh)
    unknown = set(cfg) - {"casual", "financebench", "ratio", "growth", "vocab", "_comment"}
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}")
    if "casual" in cfg:
        c = cfg["casual"]
        tpls = [entry(t, number=n) for key, n in (("singular", "singular"), ("plural", "plural"), ("any", None))
                for t in c.get(key, [])]
        special = {}
        for metric, ts in c.get("special", {}).items():
            if metric not in BASE:
                raise ValueError(f"casual.special: unknown metric {metric}")
            special[metric] = [entry(t) for t in ts]
        for number in ("singular", "plural"):
            if not any(e["number"] in (None, number) and "{unit" not in e["text"] for e in tpls):
                raise ValueError(f"casual: no unit-free wording for a {number} noun")
        TPL["casual"] = {"templates": tpls, "special": special}
    if "financebench" in cfg:
        f = cfg["financebench"]
        for key in ("usd", "usd_per_share", "derived"):
            if not f.get(key):
                raise ValueError(f"financebench.{key}: missing")
        TPL["financebench"] = {"usd": [entry(t) for t in f["usd"]],
                               "usd_per_share": [entry(t) for t in f["usd_per_share"]],
                               "derived": by_kind(f["derived"], ("percent", "ratio"), "financebench.derived")}
    if "ratio" in cfg:
        TPL["ratio"] = by_kind(cfg["ratio"], ("percent", "ratio", "usd"), "ratio")
    if "growth" in cfg:
        g = cfg["growth"]
        if not g.get("percent") or not g.get("abs_change"):
            raise ValueError("growth: needs 'percent' and 'abs_change'")
        TPL["growth"] = {"percent": [entry(t) for t in g["percent"]],
                         "abs_change": [entry(t) for t in g["abs_change"]]}
    for fam in ("casual", "financebench", "ratio", "growth"):
        if fam not in cfg:
            print(f"templates: {path} has no '{fam}' section; the built-in {fam} wordings stay",
                  file=sys.stderr)
    v = cfg.get("vocab", {})
    for key, val in v.items():
        if key not in VOC:
            raise ValueError(f"vocab: unknown key {key}")
        if key in ("metric_words", "derived", "growth_metrics"):
            fields = {"metric_words": ("casual", "formal", "stmt"), "derived": ("names", "def", "stmt"),
                      "growth_metrics": ("names", "stmt")}[key]
            for metric, words in val.items():
                if metric not in VOC[key] or set(words) - set(fields):
                    raise ValueError(f"vocab.{key}: bad entry {metric}: {sorted(words)}")
                VOC[key][metric].update(words)
        elif key in ("unit_words", "unit_words_long", "unit_short"):
            if set(val) - set(SCALE):
                raise ValueError(f"vocab.{key}: scales are {sorted(SCALE)}")
            VOC[key].update(val)
        else:
            VOC[key] = val
    if VOC["round"] is not None and any(str(d) not in VOC["round"] for d in (0, 1, 2)):
        raise ValueError("vocab.round needs phrases for \"0\", \"1\" and \"2\" decimals")
    check_slots()
    n = sum(len(x) for fam in TPL.values() for x in fam.values() if isinstance(x, list)) + \
        sum(len(x) for fam in TPL.values() for sub in fam.values() if isinstance(sub, dict) for x in sub.values())
    print(f"templates: {path}: {n} wordings", file=sys.stderr)


def check_slots():
    """Every template only uses the slots its family fills."""
    def check(where, entries):
        allowed = SLOTS[where]
        for e in entries:
            used = slots_of(e["text"])
            if used - allowed:
                raise ValueError(f"{where}: {e['text']!r} uses unknown slots {sorted(used - allowed)}")
            if where == "casual" and "round" in used and not used & {"unit", "unit_short"}:
                raise ValueError(f"casual: {e['text']!r}: {{round}} needs {{unit}} or {{unit_short}}")
    check("casual", TPL["casual"]["templates"])
    for es in TPL["casual"]["special"].values():
        check("casual", es)
    check("financebench.usd", TPL["financebench"]["usd"])
    check("financebench.usd_per_share", TPL["financebench"]["usd_per_share"])
    for es in TPL["financebench"]["derived"].values():
        check("financebench.derived", es)
    for es in TPL["ratio"].values():
        check("ratio", es)
    check("growth.percent", TPL["growth"]["percent"])
    check("growth.abs_change", TPL["growth"]["abs_change"])
    for key, allowed in (("when_duration", {"P", "y", "yy"}), ("when_instant", {"P", "y", "yy"}),
                         ("when_duration_dated", {"date"}), ("when_instant_dated", {"date"}),
                         ("period_formats", {"y", "yy"}), ("growth_period_formats", {"y", "yy"}),
                         ("answer_in_unit", {"unit"}),
                         ("date_formats", {"month", "mon", "day", "year", "mm", "dd", "m"})):
        for t in ([VOC[key]] if isinstance(VOC[key], str) else VOC[key]):
            if slots_of(t) - allowed:
                raise ValueError(f"vocab.{key}: {t!r} uses slots outside {sorted(allowed)}")


def company_words(filing, rng):
    opts = [filing.company] + short_names(filing) * 2
    if filing.ticker and len(filing.ticker) >= 2:
        opts.append(filing.ticker)
    return rng.choice(opts)


def possessive_fix(q):
    # "Apple Inc.'s" is fine; "Procter & Gamble Co's" fine; avoid "s's"
    return re.sub(r"(\w)s's\b", r"\1s'", q)


def capital_first(q):
    return q[0].upper() + q[1:] if q and q[0].islower() and not q.startswith("what was the") else q


# ---------------------------------------------------------------------------------------
# Items: (family, metric, fy) with gold and evidence
# ---------------------------------------------------------------------------------------

def derived_value(filing, key, fy):
    """(gold, evidence) of a derived metric, or None."""
    def b(k, y=fy):
        return filing.base(k, y)
    if key == "current_ratio":
        ca, cl = b("current_assets"), b("current_liabilities")
        if ca and cl and cl[0]:
            return ca[0] / cl[0], ca[1][:1] + cl[1][:1]
    elif key == "gross_margin":
        rev = b("revenue")
        if not rev or rev[0] <= 0:
            return None
        gp = b("gross_profit")
        if gp:
            return 100 * gp[0] / rev[0], rev[1][:1] + gp[1][:1]
        cogs = b("cogs")
        if cogs:
            return 100 * (rev[0] - cogs[0]) / rev[0], rev[1][:1] + cogs[1][:1]
    elif key == "operating_margin":
        rev, oi = b("revenue"), b("operating_income")
        if rev and oi and rev[0] > 0:
            return 100 * oi[0] / rev[0], rev[1][:1] + oi[1][:1]
    elif key == "net_margin":
        rev, ni = b("revenue"), b("net_income")
        if rev and ni and rev[0] > 0:
            return 100 * ni[0] / rev[0], rev[1][:1] + ni[1][:1]
    elif key == "fcf":
        cfo, capex = b("cfo"), b("capex")
        if cfo and capex:
            return cfo[0] - capex[0], cfo[1][:1] + capex[1][:1]
    elif key == "capex_pct_revenue":
        rev, capex = b("revenue"), b("capex")
        if rev and capex and rev[0] > 0:
            return 100 * capex[0] / rev[0], capex[1][:1] + rev[1][:1]
    elif key == "roa":
        ni, a1, a0 = b("net_income"), b("total_assets"), b("total_assets", fy - 1)
        if ni and a1 and a0 and a1[0] + a0[0] > 0:
            return 100 * ni[0] / ((a1[0] + a0[0]) / 2), ni[1][:1] + a1[1][:1] + a0[1][:1]
    return None


def cost_is_partial(filing, fy):
    """True when the cost-of-revenue fact is only part of the company's costs (a health insurer
    tags its cost of products sold, while medical costs are its main cost), so that
    revenue - cost would be no gross margin. Judged only when no GrossProfit is tagged."""
    if filing.base("gross_profit", fy):
        return False
    rev, cost, oi = filing.base("revenue", fy), filing.base("cogs", fy), filing.base("operating_income", fy)
    if not (rev and cost and oi):
        return False
    total_costs = rev[0] - oi[0]
    return total_costs > 0 and cost[0] < 0.2 * total_costs


def candidate_items(filing):
    """All askable items of a filing, by family."""
    years = [filing.fy_focus - k for k in range(3)]
    items = {"casual": [], "financebench": [], "growth": [], "ratio": []}
    for key, (concepts, ptype, kind) in BASE.items():
        for fy in years:
            got = filing.base(key, fy)
            if got is None or got[0] == 0:
                continue
            value, evidence, concept = got
            if key in ("cogs", "gross_profit") and cost_is_partial(filing, fy):
                continue
            if key == "income_tax" and value < 0:
                continue                       # a tax benefit: "income tax expense" would mislead
            if key in ("capex", "dividends_paid", "rnd", "cogs", "dna") and value < 0:
                value = abs(value)
            it = {"metric": key, "fy": fy, "gold": value, "kind": kind, "evidence": evidence,
                  "ptype": ptype, "xbrl_concept": concept}
            items["casual"].append(it)
            if ptype == "duration" or fy >= filing.fy_focus - 1:
                # the balance sheet shows two year-ends only: an older one would send the
                # reader to a statement that does not show it
                items["financebench"].append(it)
    for key, spec in DERIVED.items():
        for fy in years:
            got = derived_value(filing, key, fy)
            if got is None or (key == "gross_margin" and cost_is_partial(filing, fy)):
                continue
            it = {"metric": key, "fy": fy, "gold": got[0], "kind": spec["kind"], "evidence": got[1],
                  "ptype": spec["period"], "derived": True}
            items["ratio"].append(it)
            if not (key == "roa" and fy < filing.fy_focus):      # needs a year-end the balance sheet lacks
                items["financebench"].append(it)
    for key in GROWTH_METRICS:
        for fy in years[:2]:
            got = filing.base_same_concept(key, fy - 1, fy)
            if got is None:
                continue
            (a, ea), (bv, eb), concept = got
            if a <= 0:
                continue                       # growth from a loss or zero is not meaningful
            kind = BASE[key][2]
            items["growth"].append({"metric": key + "_growth", "base": key, "fy": fy, "fy_from": fy - 1,
                                    "gold": 100 * (bv - a) / a, "kind": "percent",
                                    "evidence": ea[:1] + eb[:1], "ptype": "duration"})
            if kind == "usd":
                items["growth"].append({"metric": key + "_change", "base": key, "fy": fy, "fy_from": fy - 1,
                                        "gold": bv - a, "kind": "usd", "evidence": ea[:1] + eb[:1],
                                        "ptype": "duration", "abs_change": True})
    return items


def pick_scale(rng, value):
    """A unit to ask a dollar figure in, with the rounding that makes sense for it."""
    v = abs(value)
    opts = []
    if v >= 1e9:
        opts += [("millions", None), ("millions", 0), ("billions", 1), ("billions", 2), ("billions", None)]
    elif v >= 1e7:
        opts += [("millions", None), ("millions", 0), ("thousands", None), ("billions", 2)]
    else:
        opts += [("thousands", None), ("millions", 1), ("millions", 2)]
    return rng.choice(opts)


def render(filing, family, it, rng):
    co = company_words(filing, rng)
    q = {"asked_scale": None, "decimals": None}
    if family == "casual":
        P, when = period_words(filing, it["fy"], rng, it["ptype"])
        words = VOC["metric_words"][it["metric"]]["casual"]
        m = rng.choice(words)
        plural = plural_casual(m)
        cas = TPL["casual"]
        entries = list(cas["special"].get(it["metric"], [])) * 2
        entries += [e for e in cas["templates"] if e["number"] in (None, "plural" if plural else "singular")]
        if it["kind"] != "usd":
            entries = [e for e in entries if "{unit" not in e["text"]]
        e = rng.choice(entries)
        slots = {"co": co, "m": m, "when": when, "P": P, "round": ""}
        if "{unit" in e["text"]:                  # a dollar figure asked in a scale
            scale, d = pick_scale(rng, it["gold"])
            q["asked_scale"] = scale
            slots.update(unit_slots(rng, scale))
            if "{round}" in e["text"]:
                q["decimals"] = d
                slots["round"] = round_phrase(rng, d, kind="usd")
        text = e["text"].format(**slots)
        if it["kind"] == "usd_per_share":
            q["decimals"] = None
    elif family == "financebench":
        P, when = period_words(filing, it["fy"], rng, it["ptype"], allow_date=False)
        if it.get("derived"):
            spec = DERIVED[it["metric"]]
            w = VOC["derived"][it["metric"]]
            m = rng.choice(w["names"])
            stmt = rng.choice(w["stmt"])
            if spec["kind"] == "usd":
                scale, d = pick_scale(rng, it["gold"])
                q["asked_scale"], q["decimals"] = scale, d
                e = rng.choice(TPL["financebench"]["usd"])
                text = e["text"].format(P=P, m=m, co=co, stmt=stmt, verb="was", **unit_slots(rng, scale),
                                        round=round_phrase(rng, d, kind="usd"))
                text += " " + pick(rng, w["def"])
            else:
                d = spec["decimals"]
                q["decimals"] = d
                unit_part = pick(rng, VOC["percent_answer"]) if spec["kind"] == "percent" \
                    else round_phrase(rng, d, kind=spec["kind"])
                sec = TPL["financebench"]["derived"]
                e = rng.choice(sec["any"] + sec.get(spec["kind"], []))
                text = e["text"].format(stmt=stmt, P=P, m=m, co=co, u=unit_part, **{"def": pick(rng, w["def"])})
        elif it["kind"] == "usd_per_share":
            words = VOC["metric_words"][it["metric"]]
            m, stmt = rng.choice(words["formal"]), rng.choice(words["stmt"])
            e = rng.choice(TPL["financebench"]["usd_per_share"])
            if e["decimals"] is not None:
                q["decimals"] = e["decimals"]
            text = e["text"].format(P=P, m=m, co=co, stmt=stmt)
        else:
            words = VOC["metric_words"][it["metric"]]
            m, stmt = rng.choice(words["formal"]), rng.choice(words["stmt"])
            scale, d = pick_scale(rng, it["gold"])
            q["asked_scale"], q["decimals"] = scale, d
            e = rng.choice(TPL["financebench"]["usd"])
            verb = "were" if plural_formal(m) else "was"
            text = e["text"].format(P=P, m=m, co=co, stmt=stmt, verb=verb, **unit_slots(rng, scale),
                                    round=round_phrase(rng, d, kind="usd"))
    elif family == "ratio":
        spec = DERIVED[it["metric"]]
        w = VOC["derived"][it["metric"]]
        P, when = period_words(filing, it["fy"], rng, "duration" if spec["period"] == "duration" else "instant")
        m = rng.choice(w["names"])
        d = spec["decimals"]
        if spec["kind"] == "usd":
            scale, d = pick_scale(rng, it["gold"])
            q["asked_scale"] = scale
            rnd = pick(rng, VOC["answer_in_unit"]).format(unit=unit_slots(rng, scale)["unit"]) \
                + round_phrase(rng, d, kind="usd")
        else:
            rnd = round_phrase(rng, d, kind=spec["kind"])
            if spec["kind"] == "percent" and rng.random() < 0.5:
                rnd = pick(rng, VOC["percent_answer"])
        sec = TPL["ratio"]
        e = rng.choice(sec["any"] + sec.get(spec["kind"], []))
        t = e["text"]
        if "{round}" not in t:
            use_round = False
        elif e["round"] == "optional":
            use_round = rng.random() < 0.5
        else:
            use_round = True
        q["decimals"] = d if use_round else None
        if spec["kind"] == "usd" and not use_round:
            q["asked_scale"] = None
        stmt = rng.choice(w["stmt"])
        if e["strip_article"]:
            stmt = stmt.replace("the ", "")
        text = t.format(co=co, m=m, when=when, P=P, stmt=stmt,
                        round=(rnd if use_round else ""), **{"def": pick(rng, w["def"])})
    else:  # growth
        spec = VOC["growth_metrics"][it["base"]]
        fmt = rng.choice(VOC["growth_period_formats"])
        if fmt == "{y}":
            end = filing.period_end(it["fy"])
            if end is not None and end.month < 4:
                fmt = "fiscal {y}"
        Pa = fmt.format(y=it["fy_from"], yy=f"{it['fy_from'] % 100:02d}")
        Pb = fmt.format(y=it["fy"], yy=f"{it['fy'] % 100:02d}")
        m = rng.choice(spec["names"])
        if it.get("abs_change"):
            scale, d = pick_scale(rng, it["gold"] if abs(it["gold"]) >= 1e7 else 1e8)
            q["asked_scale"] = scale
            e = rng.choice(TPL["growth"]["abs_change"])
            text = e["text"].format(co=co, m=m, Pa=Pa, Pb=Pb, **unit_slots(rng, scale))
        else:
            d = 1
            e = rng.choice(TPL["growth"]["percent"])
            t = e["text"]
            use_round = "{round" in t and rng.random() < 0.7
            if "{round_tail}" in t:
                use_round = True
            q["decimals"] = d if use_round else None
            text = t.format(co=co, m=m, Pa=Pa, Pb=Pb, stmt=rng.choice(spec["stmt"]),
                            round=round_phrase(rng, d, kind="percent") if use_round else "",
                            round_tail=round_phrase(rng, d, "tail", kind="percent"))
    text = capital_first(possessive_fix(" ".join(text.split())))
    return text, q


def sample(filing, per_filing, seed):
    rng = random.Random(f"{seed}:{filing.doc}")
    items = candidate_items(filing)
    shares = {"casual": 0.30, "financebench": 0.40, "growth": 0.15, "ratio": 0.15}
    want = {f: int(round(per_filing * s)) for f, s in shares.items()}
    want["financebench"] += per_filing - sum(want.values())
    # families short of items hand their share to financebench, then casual
    for fam in ("growth", "ratio"):
        short = want[fam] - len(items[fam])
        if short > 0:
            want[fam] -= short
            want["financebench"] += short
    used = set()        # (metric, fy) pairs already asked, to spread questions over metrics
    out = []
    for fam in ("growth", "ratio", "financebench", "casual"):
        pool = list(items[fam])
        rng.shuffle(pool)
        chosen = []
        fam_metrics = {}
        max_derived = max(1, int(round(0.3 * want[fam])))    # financebench: mostly base figures
        while len(chosen) < want[fam] and pool:
            n = len(chosen)
            cur = sum(1 for c in chosen if c["fy"] == filing.fy_focus)
            n_abs = sum(1 for c in chosen if c.get("abs_change"))
            n_der = sum(1 for c in chosen if c.get("derived"))

            def score(it):
                is_cur = it["fy"] == filing.fy_focus
                # about 60% of questions on the current year, the rest on prior years
                year_pen = (cur + 1) / (n + 1) > 0.65 if is_cur else cur / (n + 1) < 0.4
                return (bool(it.get("abs_change")) and (n_abs >= 1 or rng.random() < 0.6),
                        fam == "financebench" and bool(it.get("derived")) and n_der >= max_derived,
                        fam_metrics.get(it["metric"], 0),
                        (it["metric"], it["fy"]) in used,
                        year_pen,
                        rng.random())
            best = min(pool, key=score)
            pool.remove(best)
            chosen.append(best)
            used.add((best["metric"], best["fy"]))
            fam_metrics[best["metric"]] = fam_metrics.get(best["metric"], 0) + 1
        for it in chosen:
            text, q = render(filing, fam, it, rng)
            gold = it["gold"]
            out.append({
                "doc": filing.doc, "question": text, "family": fam, "concept": it["metric"],
                "fiscal_year": it["fy"], "gold": round(gold, 6) if it["kind"] in ("percent", "ratio", "usd_per_share") else float(gold),
                "kind": it["kind"], "asked_scale": q["asked_scale"], "decimals": q["decimals"],
                "evidence": it["evidence"], "company": filing.company, "ticker": filing.ticker,
            })
    return out


def dump(filing):
    print(f"== {filing.doc}: {filing.company} ({filing.ticker}) FY{filing.fy_focus} "
          f"{filing.fy_start}..{filing.fy_end}")
    years = [filing.fy_focus - k for k in range(3)]
    for fy in years:
        print(f"  FY{fy}: duration {filing.duration_period(fy)} instant {filing.instant_period(fy)}")
    for key in BASE:
        row = []
        for fy in years:
            got = filing.base(key, fy)
            row.append(f"FY{fy}=" + (f"{got[0]:,.2f} [{'|'.join(got[1])}] {got[2]}" if got else "-"))
        print(f"  {key:20s} " + "  ".join(row))
    for key in DERIVED:
        row = []
        for fy in years:
            got = derived_value(filing, key, fy)
            row.append(f"FY{fy}=" + (f"{got[0]:,.4f}" if got else "-"))
        print(f"  {key:20s} " + "  ".join(row))
    if filing.conflicts:
        print(f"  conflicting facts skipped: {len(filing.conflicts)}; e.g. {filing.conflicts[:3]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, epilog=TEMPLATES_HELP,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--output")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-filing", type=int, default=20)
    ap.add_argument("--dump", action="store_true", help="print the parsed metrics instead of sampling")
    ap.add_argument("--templates", metavar="FILE.json",
                    help="take the question wordings from this JSON file instead of the built-in ones")
    args = ap.parse_args()
    if not args.dump and not args.output:
        ap.error("-o OUT.json is required (or --dump)")
    if args.templates:
        try:
            load_templates(args.templates)
        except (OSError, ValueError) as e:
            ap.error(f"--templates {args.templates}: {e}")
    questions = []
    for path in args.files:
        try:
            filing = Filing(path)
        except Exception as e:           # one unreadable filing should not stop the set
            print(f"skip {path}: {e}", file=sys.stderr)
            continue
        if args.dump:
            dump(filing)
            continue
        qs = sample(filing, args.per_filing, args.seed)
        fams = {}
        for q in qs:
            fams[q["family"]] = fams.get(q["family"], 0) + 1
        print(f"{filing.doc}: {filing.company} ({filing.ticker}) FY{filing.fy_focus} -> {len(qs)} questions "
              + " ".join(f"{k}={v}" for k, v in sorted(fams.items())), file=sys.stderr)
        questions.extend(qs)
    if args.dump:
        return
    with open(args.output, "w") as fh:
        json.dump(questions, fh, indent=1)
        fh.write("\n")
    fams = {}
    for q in questions:
        fams[q["family"]] = fams.get(q["family"], 0) + 1
    print(f"{len(questions)} questions -> {args.output}: "
          + " ".join(f"{k}={v}" for k, v in sorted(fams.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
