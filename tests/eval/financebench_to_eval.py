#!/usr/bin/env python3
"""Turn the FinanceBench development set (kept outside the repository, no licence) into the
two question files our measurements read, written to a scratch folder, never committed:

  fb-answers.json    numeric questions for xbrl_eval.py (gold from the analysts' answers)
  fb-retrieval.json  every question with its evidence pages, for `docindex eval`

Usage: python3 tests/eval/financebench_to_eval.py ../shared/financebench-dev/questions.jsonl OUT_DIR
"""
import json
import os
import re
import sys

SCALES = [("thousand", 1e3), ("million", 1e6), ("billion", 1e9)]


def gold_of(question, answer):
    """(gold, kind, asked_scale, decimals) for a numeric answer, else None."""
    text = answer.strip()
    m = re.fullmatch(r"(-?)\$?(-?[\d,]*\.?\d+)\s*(%?)", text)
    if not m:
        return None
    value = float(m.group(2).replace(",", ""))
    if m.group(1):
        value = -value
    lower = question.lower()
    decimals = None
    for word, d in (("one decimal", 1), ("two decimal", 2), ("three decimal", 3)):
        if word in lower:
            decimals = d
    if m.group(3):
        return value, "percent", None, decimals
    if "$" in text:
        for word, factor in SCALES:
            if f"usd {word}" in lower or f"in {word}" in lower:
                return value * factor, "usd", word + "s", decimals
        return value, "usd", None, decimals
    return value, "ratio", None, decimals


def main():
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    answers, retrieval = [], []
    for line in open(source):
        q = json.loads(line)
        doc = q["doc_name"] + ".pdf"
        pages = sorted({e["evidence_page_num"] + 1 for e in q["evidence"]})
        retrieval.append({"doc": doc, "question": q["question"], "evidence": [], "pages": pages})
        gold = gold_of(q["question"], q["answer"])
        if q["question_type"] == "metrics-generated" and gold:
            value, kind, scale, decimals = gold
            answers.append({"doc": doc, "question": q["question"], "family": "financebench", "fiscal_year": None,
                            "concept": q["financebench_id"], "gold": value, "kind": kind,
                            "asked_scale": scale, "decimals": decimals, "evidence": []})
    json.dump(answers, open(os.path.join(out, "fb-answers.json"), "w"), indent=1)
    json.dump(retrieval, open(os.path.join(out, "fb-retrieval.json"), "w"), indent=1)
    print(f"{len(answers)} numeric questions, {len(retrieval)} with evidence pages -> {out}")


if __name__ == "__main__":
    main()
