#!/usr/bin/env python3
"""Run the questions of xbrl_questions.py through the docindex CLI and score the answers.

usage: xbrl_eval.py QUESTIONS.json --docindex PATH_TO_BINARY --library LIB_DIR
                    [--index FILES...] [-o RESULTS.json] [--limit N] [--family F]

With --index, the files are first indexed: DOCINDEX --library LIB index FILE...
Each question is then asked: DOCINDEX --library LIB --offline --json ask --doc DOC "QUESTION";
with --library-wide, without --doc, as a user asks: the company the question names must
choose the filing. --jobs N asks N questions at a time.

An answer is RIGHT when the first figure it states matches the gold value:
- citation markers [n], years 1990-2035, dates, section numbers (Item 7, Note 5, 10-K) and
  parentheses that are period headings ("(fiscal 2023)") are not figures;
- "(9,447)" reads as -9,447; dollar kinds compare absolute values (outflows print in
  parentheses), percent kinds compare signed values, but a positive figure counts for a
  negative gold when the answer words it as a fall ("decreased 5.2%");
- the scale comes from the words after the figure ("9,447 million", "$9.4 billion",
  "9,447 (in millions)"), else from the answer ("in millions"); with none, the scales
  1, 1e3, 1e6, 1e9 are each tried (recorded as scale_guessed);
- tolerance: dollars 0.5% relative, plus half a unit of the rounding the question asked
  (e.g. "in USD billions, one decimal place" allows 0.05 billion); per-share amounts 0.5% or
  half a cent; percents and ratios max(0.01, half a unit of the decimals asked) + 0.5% relative.
any_match records whether ANY figure of the answer matches (a weaker score)."""
import argparse
import json
import os
import re
import subprocess
import sys
import time

# ---------------------------------------------------------------------------------------
# Reading figures out of an answer
# ---------------------------------------------------------------------------------------

MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
         r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")
SCALE_WORDS = {"trillion": 1e12, "tn": 1e12, "billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9,
               "million": 1e6, "millions": 1e6, "mn": 1e6, "mm": 1e6, "m": 1e6,
               "thousand": 1e3, "thousands": 1e3, "k": 1e3}
YEAR_RE = re.compile(r"\b(19[89]\d|20[0-3]\d)\b")
PERIOD_WORDS = re.compile(r"\b(fiscal|FY\d*|years?|ended|ending|weeks?|months?|quarters?|Q[1-4]|H[12]|"
                          r"as of|at the end)\b|" + MONTH + r"\b", re.I)
NUMBER_RE = re.compile(r"\d[\d,]*(?:\.\d+)?|\.\d+")
SECTION_BEFORE = re.compile(r"(?:\b(?:Item|Items|Note|Notes|Part|page|pages|Exhibit|Section|Form|Rule|Level|"
                            r"Tier|Class|Series|Schedule|Step|No\.|#))\s*$", re.I)
DECREASE_WORDS = re.compile(r"\b(decrease[ds]?|decline[ds]?|declining|fell|fall(?:en|ing|s)?|drop(?:ped|s)?|"
                            r"down|lower|less|reduc(?:ed|tion)|contract(?:ed|ion)|shr[au]nk|negative|loss|"
                            r"losses|deficit|outflow|used in|minus)\b", re.I)


def clean_answer(text):
    t = text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", " - ")
    t = t.replace("\u00a0", " ").replace("\u2009", " ").replace("US$", "$")
    t = re.sub(r"\[\s*\d+(?:\s*[,;\-]\s*\d+)*\s*\]", " ", t)               # citation markers [1], [2, 3]
    t = re.sub(MONTH + r"\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d", " ", t, flags=re.I)  # September 28, 2024
    t = re.sub(r"\b\d{1,2}\s+" + MONTH + r"\.?,?\s+(?:19|20)\d\d", " ", t, flags=re.I)        # 28 September 2024
    t = re.sub(MONTH + r"\.?\s+(?:19|20)\d\d", " ", t, flags=re.I)                            # September 2024
    t = re.sub(r"\b(?:19|20)\d\d-\d\d-\d\d\b", " ", t)                                        # 2024-09-28
    t = re.sub(r"\b\d{1,2}/\d{1,2}/(?:19|20)?\d\d\b", " ", t)                                 # 9/28/2024
    t = re.sub(r"\b(?:FY|CY|Q[1-4]|H[12])\s?'?\d{2,4}\b", " ", t, flags=re.I)                 # FY2023, Q4 2023, FY '23
    t = re.sub(r"\b(?:19|20)\d\d\s*[-/]\s*(?:19|20)?\d\d\b", " ", t)                           # 2022-2023, 2022/23

    def heading(m):
        inner = m.group(1)
        if re.fullmatch(r"\s*[-$]?\s*[\d,.]+\s*%?\s*", inner):
            return m.group(0)                          # a negative number such as (9,447)
        if re.search(r"\bin\s+(?:USD\s+|\$\s*)?(?:millions|billions|thousands)\b", inner, re.I):
            return m.group(0)                          # a scale note such as (in millions)
        if YEAR_RE.search(inner) or PERIOD_WORDS.search(inner):
            return " " * len(m.group(0))               # a period heading such as (fiscal 2023)
        return m.group(0)
    t = re.sub(r"\(([^()]*)\)", heading, t)
    return t


def global_scale(t):
    m = re.search(r"\bin\s+(?:USD\s+|US\s+dollars?\s+|\$\s*|dollars\s+)?(millions|billions|thousands)\b", t, re.I) \
        or re.search(r"\b(millions|billions|thousands)\s+of\s+(?:US\s+|U\.S\.\s+)?dollars\b", t, re.I) \
        or re.search(r"\$\s*(millions|billions|thousands)\b", t, re.I) \
        or re.search(r"\bUSD\s+(millions|billions|thousands)\b", t, re.I)
    return SCALE_WORDS[m.group(1).lower()] if m else None


def figures(text):
    """The figures an answer states, in order: dicts with value (signed, before scale),
    scale (None when not stated next to the figure), pct, currency, pos, raw."""
    t = clean_answer(text)
    out = []
    for m in NUMBER_RE.finditer(t):
        raw = m.group(0).rstrip(",")
        start, end = m.start(), m.start() + len(raw)
        before, after = t[max(0, start - 30):start], t[end:end + 60]
        prev = t[start - 1] if start else " "
        if prev.isalpha() or prev == "_":
            continue                                   # FY23, Q4, H1, COVID19
        if prev == "-" and start >= 2 and t[start - 2].isalnum():
            continue                                   # COVID-19, ranges 10-20's second half
        if re.match(r"-?[A-Za-z]", after) and not re.match(r"(?i)(bn|mn|mm|tn|b|m|k|x)\b", after):
            continue                                   # 10-K, 3rd, 1st, 5G
        if SECTION_BEFORE.search(before):
            continue                                   # Item 7, Note 5
        if "," in raw and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", raw):
            raw = raw.split(",")[0]                    # "5,6" list
            end = start + len(raw)
            after = t[end:end + 60]
        try:
            value = float(raw.replace(",", ""))
        except ValueError:
            continue
        pct = bool(re.match(r"\s?(%|percent\b|per\s?cent\b|pct\b|percentage points?\b|pp\b)", after, re.I))
        # scale words right after the figure, or a parenthesised "(in millions)"
        scale = None
        sm = re.match(r"\s?(trillion|billions?|millions?|thousands?|bn|mn|mm|tn)\b", after, re.I) \
            or re.match(r"(b|m|k)\b", after, re.I) \
            or re.match(r"\)?\s*\(\s*(?:\$|USD\s*)?in\s+(millions|billions|thousands)\b", after, re.I)
        if sm:
            scale = SCALE_WORDS[sm.group(1).lower()]
        currency = bool(re.search(r"(\$|USD|dollars?)\s*[-(]?\s*$", before, re.I)) or \
            bool(re.match(r"\s?(?:\w+\s)?(?:dollars|USD)\b", after, re.I))
        # a bare year is not a figure (unless it carries a unit)
        if (re.fullmatch(r"(19[89]\d|20[0-3]\d)", raw) and not currency and not pct and scale is None):
            continue
        # list enumerations "1. ..." / "2) ..."
        if re.fullmatch(r"\d{1,2}", raw) and re.match(r"[.)]\s", after) and re.search(r"(^|\n)\s*$", before):
            continue
        neg = False
        if re.search(r"\(\s*\$?\s*$", before) and re.match(r"\s*(%|[A-Za-z]+)?\s*\)", after):
            neg = True                                 # (9,447) / $(9,447) / (5.2%)
        elif re.search(r"(^|[^\w.,)])-\s*\$?\s*$", before):
            neg = True                                 # -9,447 / -$9,447 / $-9,447
        elif re.search(r"-\s*$", before) and re.search(r"\$\s*-\s*$", before):
            neg = True
        out.append({"value": -value if neg else value, "scale": scale, "pct": pct, "currency": currency,
                    "pos": start, "raw": raw, "text": t})
    return out


SCALES = {"millions": 1e6, "billions": 1e9, "thousands": 1e3}


def match(fig, q, gscale):
    """(matches, scale_guessed) of one figure against the question's gold."""
    gold, kind, d = q["gold"], q["kind"], q.get("decimals")
    if kind == "usd":
        if fig["pct"]:
            return False, False
        tol = 0.005 * abs(gold)
        if d is not None and q.get("asked_scale") in SCALES:
            tol += 0.5 * 10 ** (-d) * SCALES[q["asked_scale"]]
        if fig["scale"] is not None:
            cands, guessed = [fig["scale"]], False
        elif gscale is not None:
            cands, guessed = [gscale], False
        else:
            cands, guessed = [1, 1e3, 1e6, 1e9], True
        for s in cands:
            if abs(abs(fig["value"] * s) - abs(gold)) <= tol + 1e-9:
                return True, guessed
        return False, False
    if kind == "usd_per_share":
        if fig["pct"] or fig["scale"] is not None:
            return False, False
        tol = max(0.005, 0.005 * abs(gold))
        if d is not None:
            tol = max(tol, 0.5 * 10 ** (-d))
        return abs(abs(fig["value"]) - abs(gold)) <= tol + 1e-9, False
    # percent / ratio
    if fig["scale"] is not None or fig["currency"]:
        return False, False
    if kind == "ratio" and fig["pct"]:
        return False, False
    tol = max(0.01, 0.5 * 10 ** (-d) if d is not None else 0.0) + 0.005 * abs(gold)
    v = fig["value"]
    if abs(v - gold) <= tol + 1e-9:
        return True, False
    if kind == "percent" and gold < 0 < v and abs(v + gold) <= tol + 1e-9:
        t, p = fig["text"], fig["pos"]
        if DECREASE_WORDS.search(t[max(0, p - 80):p + 40]):
            return True, False                     # "decreased 5.2%" for a gold of -5.2
    return False, False


def company_aliases(name, doc):
    """Words that name a company in an answer: its registrant name's first word and the
    ticker its file name starts with ("NKE_10-K_…")."""
    words = re.sub(r"^the\s+", "", name.strip(), flags=re.I).replace(",", " ").split()
    aliases = {words[0].lower()} if words else set()
    # "General Electric" beside "General Motors": the first two words tell them apart.
    if len(words) > 1:
        aliases.add(" ".join(words[:2]).lower())
    ticker = doc.split("_")[0]
    if ticker.isupper():
        aliases.add(ticker.lower())
    return aliases


def first_named(text, aliases):
    """Position of the first alias in text (whole word), or None."""
    best = None
    for a in aliases:
        m = re.search(r"(?<![\w-])" + re.escape(a) + r"(?![\w-])", text.lower())
        if m and (best is None or m.start() < best):
            best = m.start()
    return best


def verdict_first(text, q):
    """A comparison's verdict comes first: the company it should name is named before the
    other one."""
    mine = company_aliases(q["gold_company"], q["doc"])
    theirs = company_aliases(q["gold_other"], q.get("doc_b", ""))
    # A word both names share ("general") names neither.
    win = first_named(text, mine - theirs)
    other = first_named(text, theirs - mine)
    return win is not None and (other is None or win < other)


def score_answer(text, q):
    if q.get("family") == "compare":
        s = score_figures(text, q)
        s["right"] = bool(s["right"] and verdict_first(text or "", q))
        return s
    return score_figures(text, q)


def score_figures(text, q):
    figs = figures(text or "")
    gscale = global_scale(clean_answer(text or ""))
    first = figs[0] if figs else None
    right, guessed = match(first, q, gscale) if first else (False, False)
    any_match = any(match(f, q, gscale)[0] for f in figs)
    return {"right": right, "any_match": any_match, "scale_guessed": bool(right and guessed),
            "first_raw": first["raw"] if first else None,
            "first_figure": (("-" if first["value"] < 0 else "") + first["raw"]
                             + (f" x{first['scale']:g}" if first["scale"] else "")
                             + ("%" if first["pct"] else "")) if first else None}


# ---------------------------------------------------------------------------------------
# Running the CLI
# ---------------------------------------------------------------------------------------

def last_json(s):
    """The last complete top-level JSON object in s, or None."""
    s = s.strip()
    try:
        obj = json.loads(s)
        if isinstance(obj, dict):
            return obj
    except ValueError:
        pass
    dec = json.JSONDecoder()
    i, last = 0, None
    while True:
        j = s.find("{", i)
        if j < 0:
            break
        try:
            obj, end = dec.raw_decode(s, j)
            if isinstance(obj, dict):
                last = obj
            i = end
        except ValueError:
            i = j + 1
    return last


def ask(binary, library, doc, question, timeout, model=None):
    scope = ["--doc", doc] if doc else []
    engine = ["--model", model, "--cache", "none"] if model else ["--offline"]
    cmd = [binary, "--library", library, *engine, "--json", "ask", *scope, question]
    t0 = time.time()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {timeout}s", time.time() - t0
    secs = time.time() - t0
    if out.returncode != 0:
        lines = [l for l in out.stderr.strip().splitlines() if l.strip()]
        return None, f"exit {out.returncode}: {lines[-1] if lines else ''}", secs
    obj = last_json(out.stdout)
    if obj is None:
        return None, "unparsable output: " + out.stdout.strip()[-200:], secs
    return obj, None, secs


def pct(a, b):
    return f"{a}/{b}" + (f" ({100 * a / b:.0f}%)" if b else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("questions")
    ap.add_argument("--docindex", required=True, help="path to the docindex binary")
    ap.add_argument("--library", required=True, help="library directory (use a scratch one)")
    ap.add_argument("--min-right", type=float, default=None,
                    help="floor: exit 1 when fewer than this share (0-1) of answers are right")
    ap.add_argument("--min-high-right", type=float, default=None,
                    help="floor: exit 1 when fewer than this share (0-1) of HIGH answers are right")
    ap.add_argument("--index", nargs="+", metavar="FILE", help="index these files into the library first")
    ap.add_argument("-o", "--output", help="write per-question rows here")
    ap.add_argument("--limit", type=int, help="ask at most N questions")
    ap.add_argument("--family", help="only this family (casual, financebench, growth, ratio)")
    ap.add_argument("--doc", help="only questions on this document (file name or a prefix of it)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per question (default 600)")
    ap.add_argument("--quiet", action="store_true", help="no line per question")
    ap.add_argument("--library-wide", action="store_true",
                    help="ask without --doc: the question's company chooses the filing")
    ap.add_argument("--jobs", type=int, default=1, help="questions asked at a time (default 1)")
    ap.add_argument("--model", help="answer with this model (LiteLLM string; its base URL and key "
                    "from the environment) instead of offline; reports tokens per question and "
                    "right figures the verification dropped")
    args = ap.parse_args()

    if args.index:
        cmd = [args.docindex, "--library", args.library, "index", *args.index]
        print("indexing:", " ".join(cmd), file=sys.stderr)
        t0 = time.time()
        r = subprocess.run(cmd)
        print(f"indexing exited {r.returncode} after {time.time() - t0:.0f}s", file=sys.stderr)
        if r.returncode != 0:
            sys.exit(f"indexing failed (exit {r.returncode})")

    questions = json.load(open(args.questions))
    if args.family:
        questions = [q for q in questions if q["family"] == args.family]
    if args.doc:
        questions = [q for q in questions if q["doc"].startswith(args.doc)]
    if args.limit:
        questions = questions[:args.limit]

    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(max_workers=max(1, args.jobs))
    asked = pool.map(lambda q: ask(args.docindex, args.library,
                                   None if args.library_wide or q["family"] == "compare" else q["doc"],
                                   q["question"], args.timeout, args.model), questions)
    rows = []
    for i, (q, (obj, err, secs)) in enumerate(zip(questions, asked), 1):
        answer = (obj or {}).get("answer") or ""
        answered = bool(obj) and bool(obj.get("answered", bool(answer)))
        conf = (obj or {}).get("confidence") or {}
        label = conf.get("label") if isinstance(conf, dict) else str(conf)
        cscore = conf.get("score") if isinstance(conf, dict) else None
        s = score_answer(answer, q) if answered else {"right": False, "any_match": False,
                                                      "scale_guessed": False, "first_figure": None}
        row = {"doc": q["doc"], "question": q["question"], "family": q["family"], "concept": q["concept"],
               "fiscal_year": q["fiscal_year"], "kind": q["kind"], "gold": q["gold"],
               "evidence": q.get("evidence"), "answer": answer[:300], "answered": answered,
               "confidence": label, "confidence_score": cscore, "right": s["right"],
               "any_match": s["any_match"], "scale_guessed": s["scale_guessed"],
               "first_figure": s["first_figure"], "seconds": round(secs, 1), "error": err,
               "tokens": (obj or {}).get("tokens_used", 0),
               "cited": bool((obj or {}).get("citations")),
               "engine": (obj or {}).get("engine")}
        # A right figure the verification dropped: the answer states it, but nothing cites
        # it, it is flagged unsupported, or the answer is labelled Low.
        # Compared as written, digits only: a flagged "09" of a date is not the figure
        # "12.0" whose scale prints as "x1e+09".
        def digits(n):
            return re.sub(r"[^0-9.]", "", str(n)).strip(".")
        flagged = {digits(n) for n in (obj or {}).get("unsupported_numbers") or []} - {""}
        row["right_cited"] = bool(s["right"] and row["cited"] and str(label).lower() != "low"
                                  and digits(s.get("first_raw")) not in flagged)
        # The text is read even when the answer counts as unanswered: a right figure the
        # verification left uncited is what this measures.
        stated = score_answer(answer, q) if answer else {"right": False}
        row["right_dropped"] = bool(stated["right"] and not row["right_cited"])
        rows.append(row)
        if not args.quiet:
            mark = "RIGHT" if s["right"] else ("any  " if s["any_match"] else ("unans" if not answered else "wrong"))
            print(f"[{i}/{len(questions)}] {mark} {label or '-':6s} {q['family'][:5]} {q['doc'][:12]} "
                  f"{q['concept']} FY{q['fiscal_year']} gold={q['gold']:.6g} first={s['first_figure']} "
                  f"{('ERR ' + err) if err else ''}", file=sys.stderr, flush=True)
        if args.output and i % 10 == 0:
            json.dump(rows, open(args.output, "w"), indent=1)

    # report
    print()
    print(f"{len(rows)} questions")
    fams = sorted({r["family"] for r in rows})
    print(f"{'family':14s} {'right (first figure)':24s} {'any figure':18s}")
    for f in fams + ["ALL"]:
        rs = [r for r in rows if f == "ALL" or r["family"] == f]
        print(f"{f:14s} {pct(sum(r['right'] for r in rs), len(rs)):24s} {pct(sum(r['any_match'] for r in rs), len(rs)):18s}")
    print()
    print(f"{'kind':14s} {'right':24s} {'any':18s}")
    for k in sorted({r["kind"] for r in rows}):
        rs = [r for r in rows if r["kind"] == k]
        print(f"{k:14s} {pct(sum(r['right'] for r in rs), len(rs)):24s} {pct(sum(r['any_match'] for r in rs), len(rs)):18s}")
    print()
    print("confidence     count  right")
    for lab in sorted({str(r["confidence"]) for r in rows}):
        rs = [r for r in rows if str(r["confidence"]) == lab]
        print(f"{lab:14s} {len(rs):5d}  {pct(sum(r['right'] for r in rs), len(rs))}")
    high = [r for r in rows if str(r["confidence"]).lower() == "high"]
    print(f"HIGH wrong: {sum(not r['right'] for r in high)} of {len(high)}")
    unans = [r for r in rows if not r["answered"]]
    print(f"unanswered: {len(unans)} (errors: {sum(1 for r in rows if r['error'])})")
    print(f"right with a guessed scale: {sum(r['scale_guessed'] for r in rows)}")
    if rows:
        print(f"mean seconds per question: {sum(r['seconds'] for r in rows) / len(rows):.1f}")
        print(f"right and cited: {pct(sum(r['right_cited'] for r in rows), len(rows))}; "
              f"right figures dropped by verification: {sum(r['right_dropped'] for r in rows)}")
        if args.model:
            print(f"mean model tokens per question: {sum(r['tokens'] or 0 for r in rows) / len(rows):.0f}")
    if args.output:
        with open(args.output, "w") as fh:
            json.dump(rows, fh, indent=1)
            fh.write("\n")
        print(f"rows -> {args.output}")
    failed = []
    right_share = sum(r["right"] for r in rows) / len(rows) if rows else 0.0
    if args.min_right is not None and right_share < args.min_right:
        failed.append(f"right {right_share:.2f} < {args.min_right:.2f}")
    high_share = sum(r["right"] for r in high) / len(high) if high else 1.0
    if args.min_high_right is not None and high_share < args.min_high_right:
        failed.append(f"HIGH right {high_share:.2f} < {args.min_high_right:.2f}")
    if args.min_right is not None or args.min_high_right is not None:
        print("floor: " + ("BELOW (" + "; ".join(failed) + ")" if failed else "held"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
