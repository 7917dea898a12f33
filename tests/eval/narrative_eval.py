#!/usr/bin/env python3
"""Narrative and judgment questions answered offline, scored the way an analyst would judge
them (issue 44): does the answer cite the gold evidence (an evidence string inside a cited
excerpt, or, for a PDF, a cited excerpt printed on a gold page), does a judgment state the
verdict, does a list question name the items, and does it refuse only when the gold says the
filing cannot answer.

Usage:
  narrative_eval.py SET.json --docindex BIN --library LIB [--fixtures DIR] [--json OUT]
                    [--min-cited N] [--max-refused N] [--min-verdicts N] [--quiet]
  narrative_eval.py --financebench QUESTIONS.jsonl --pdfs DIR ...   (FinanceBench's own
                    shape, read where it is kept; never copied into the repository)

SET.json is a list of {doc, question, family, evidence, pages?, answer, verdict?, list?,
answerable?}. Documents must already be indexed in LIB (the eval indexes nothing).
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

# The words that state each verdict (the gold's first word picks the row).
VERDICT_WORDS = {
    "yes": ["yes"],
    "no": ["no", "not"],
    "improving": ["improving", "improved", "expanding", "expanded", "rising", "rose", "increasing", "increased", "up"],
    "declining": ["declining", "declined", "deteriorat", "contracting", "contracted", "decreasing", "decreased", "falling", "fell", "down", "compress"],
    "stable": ["stable", "steady", "consistent", "flat", "little changed", "broadly unchanged"],
    "consistent": ["consistent", "stable", "steady", "within"],
    "not consistent": ["not consistent", "inconsistent", "varied", "volatile", "moved", "not stable"],
    "healthy": ["healthy", "strong", "adequate", "comfortable", "solid"],
    "weak": ["weak", "tight", "strained", "below 1", "less than 1"],
    "high": ["high", "capital-intensive", "capital intensive"],
    "low": ["low", "not capital-intensive", "not capital intensive", "asset-light", "asset light"],
    "mixed": ["mixed"],
    "not applicable": ["not applicable", "does not apply", "not meaningful", "not a meaningful", "not relevant", "does not fit", "not useful", "not suited", "not a useful"],
}

REFUSAL = "do not appear to answer"


def fold(text):
    return " ".join(text.split()).lower()


def alnum(text):
    return re.sub(r"[^0-9a-z]", "", text.lower())


def verdict_key(verdict):
    v = verdict.strip().lower()
    for key in sorted(VERDICT_WORDS, key=len, reverse=True):
        if v.startswith(key):
            return key
    return None


def states_verdict(answer_text, verdict):
    key = verdict_key(verdict)
    if key is None:
        return False
    # The verdict leads: it must be in the answer's first two sentences.
    head = " ".join(re.split(r"(?<=[.!?])\s+", answer_text.strip())[:2]).lower()
    for word in VERDICT_WORDS[key]:
        if re.search(r"(?<![a-z])" + re.escape(word), head):
            # "no" must not be the "not" of "not applicable" etc. when the gold is yes
            return True
    return False


class Pages:
    """The text of each page of the PDFs (pdftotext), to say where an excerpt is printed."""

    def __init__(self, dirs):
        self.dirs = dirs
        self.cache = {}

    def of(self, doc):
        if doc in self.cache:
            return self.cache[doc]
        pages = None
        for d in self.dirs:
            path = os.path.join(d, doc)
            if os.path.exists(path) and doc.lower().endswith(".pdf"):
                out = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, text=True)
                pages = [alnum(p) for p in out.stdout.split("\f")]
                break
        self.cache[doc] = pages
        return pages

    def pages_of_excerpt(self, doc, excerpt):
        pages = self.of(doc)
        if not pages:
            return set()
        key = alnum(excerpt)
        found = set()
        for probe in (key[:60], key[-60:], key[len(key) // 2: len(key) // 2 + 60]):
            if len(probe) < 12:
                continue
            for i, p in enumerate(pages):
                if probe in p:
                    found.add(i + 1)
        return found


def ask(binary, library, question, doc):
    out = subprocess.run([binary, "--library", library, "--json", "ask", question, "--doc", doc],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1:] or ["failed"]
    try:
        return json.loads(out.stdout), None
    except json.JSONDecodeError:
        return None, ["not JSON"]


def load_financebench(path):
    out = []
    for line in open(path):
        q = json.loads(line)
        out.append({
            "doc": q["doc_name"] + ".pdf",
            "question": q["question"],
            "family": q["question_type"],
            "evidence": [],
            "pages": sorted({e["evidence_page_num"] + 1 for e in q["evidence"]}),
            "answer": q["answer"],
            # Sets written like FinanceBench's may give a yes/no verdict and questions the
            # filing cannot answer (no evidence).
            "verdict": q.get("verdict"),
            "answerable": bool(q["evidence"]),
        })
    return out


def score(q, answer, pages):
    text = answer.get("answer", "")
    refused = (not answer.get("answered", False)) or REFUSAL in text
    excerpts = [c.get("excerpt", "") for c in answer.get("citations", [])]
    joined = fold(" ".join(excerpts))
    cited = any(fold(e) in joined for e in q.get("evidence", []) if e.strip())
    if not cited and q.get("pages"):
        gold = set(q["pages"])
        for e in excerpts:
            if pages.pages_of_excerpt(q["doc"], e) & gold:
                cited = True
                break
    verdict = None
    if q.get("verdict"):
        verdict = states_verdict(text, q["verdict"])
    listed = None
    if q.get("list"):
        named = sum(1 for item in q["list"] if fold(item) in fold(text))
        listed = named * 2 >= len(q["list"])
    answerable = q.get("answerable", True)
    return {
        "cited": cited,
        "refused": refused,
        "right_refusal": (not answerable) and refused,
        "wrong_refusal": answerable and refused,
        "verdict": verdict,
        "listed": listed,
        "confidence": answer.get("confidence", {}).get("label"),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set", nargs="?")
    ap.add_argument("--financebench")
    ap.add_argument("--pdfs", action="append", default=[])
    ap.add_argument("--docindex", required=True)
    ap.add_argument("--library", required=True)
    ap.add_argument("--fixtures", action="append", default=[])
    ap.add_argument("--json")
    ap.add_argument("--only-family")
    ap.add_argument("--min-cited", type=int)
    ap.add_argument("--max-refused", type=int)
    ap.add_argument("--min-verdicts", type=int)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if args.financebench:
        questions = load_financebench(args.financebench)
        dirs = args.pdfs
    else:
        questions = json.load(open(args.set))
        here = os.path.dirname(os.path.abspath(__file__))
        dirs = args.fixtures or [os.path.join(here, "..", "fixtures"), os.path.join(here, "..", "fixtures", "pdf")]
    if args.only_family:
        questions = [q for q in questions if q.get("family") == args.only_family]
    pages = Pages(dirs)
    rows = []
    for i, q in enumerate(questions):
        answer, err = ask(args.docindex, args.library, q["question"], q["doc"])
        if answer is None:
            row = {"cited": False, "refused": True, "right_refusal": False,
                   "wrong_refusal": q.get("answerable", True), "verdict": False if q.get("verdict") else None,
                   "listed": False if q.get("list") else None, "confidence": None, "error": err}
        else:
            row = score(q, answer, pages)
            row["answer"] = answer.get("answer", "")[:600]
        row.update({"doc": q["doc"], "question": q["question"], "family": q.get("family", "?")})
        rows.append(row)
        if not args.quiet:
            flag = "C" if row["cited"] else ("R" if row["refused"] else "-")
            v = "" if row["verdict"] is None else (" V" if row["verdict"] else " v")
            print(f"[{i + 1}/{len(questions)}] {flag}{v} {row['family']}: {q['question'][:90]}", file=sys.stderr)
    by = defaultdict(list)
    for r in rows:
        by[r["family"]].append(r)
    total = Counter()
    print(f"{'family':14} {'n':>4} {'cited':>6} {'refused':>8} {'verdict':>8} {'list':>6}")
    for fam in sorted(by):
        rs = by[fam]
        c = Counter()
        c["n"] = len(rs)
        c["cited"] = sum(r["cited"] for r in rs)
        c["refused"] = sum(r["wrong_refusal"] for r in rs)
        c["right_refusal"] = sum(r["right_refusal"] for r in rs)
        c["verdicts"] = sum(1 for r in rs if r["verdict"])
        c["verdict_n"] = sum(1 for r in rs if r["verdict"] is not None)
        c["listed"] = sum(1 for r in rs if r["listed"])
        c["list_n"] = sum(1 for r in rs if r["listed"] is not None)
        c["high_wrong"] = sum(1 for r in rs if r["confidence"] == "High" and not r["cited"])
        total.update(c)
        verdict = f"{c['verdicts']}/{c['verdict_n']}" if c["verdict_n"] else "-"
        listed = f"{c['listed']}/{c['list_n']}" if c["list_n"] else "-"
        refused = f"{c['refused']}" + (f" (+{c['right_refusal']} right)" if c["right_refusal"] else "")
        print(f"{fam:14} {c['n']:>4} {c['cited']:>6} {refused:>8} {verdict:>8} {listed:>6}")
    verdict = f"{total['verdicts']}/{total['verdict_n']}" if total["verdict_n"] else "-"
    listed = f"{total['listed']}/{total['list_n']}" if total["list_n"] else "-"
    print(f"{'ALL':14} {total['n']:>4} {total['cited']:>6} {total['refused']:>8} {verdict:>8} {listed:>6}")
    print(f"HIGH without the evidence: {total['high_wrong']}")
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)
    failed = []
    if args.min_cited is not None and total["cited"] < args.min_cited:
        failed.append(f"cited {total['cited']} < {args.min_cited}")
    if args.max_refused is not None and total["refused"] > args.max_refused:
        failed.append(f"refused {total['refused']} > {args.max_refused}")
    if args.min_verdicts is not None and total["verdicts"] < args.min_verdicts:
        failed.append(f"verdicts {total['verdicts']} < {args.min_verdicts}")
    if failed:
        print("floor: FAILED " + "; ".join(failed))
        return 1
    if args.min_cited is not None or args.max_refused is not None or args.min_verdicts is not None:
        print("floor: held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
