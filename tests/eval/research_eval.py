#!/usr/bin/env python3
"""Score library-wide answers on tests/eval/research.json through the CLI.

usage: research_eval.py DOCINDEX LIBRARY [QUESTIONS.json] [extra docindex args...]

A question counts when, for every expected company, the answer cites that company's
filing (the expected document) and the figure appears in the answer or in a citation of
that document; when no citation comes from a company the question does not name; when a
`difference` is given, the answer's comparison works it out; when `expect_docs` are given
(a listing question), each is cited and no `not_docs` one is; and when every absent
company is said to have no filing (and, if nothing else is asked, the answer cites
nothing)."""
import json, re, subprocess, sys

def compact(s):
    return re.sub(r"[^0-9a-z]", "", s.lower())

def main():
    docindex, library = sys.argv[1], sys.argv[2]
    path = sys.argv[3] if len(sys.argv) > 3 else "tests/eval/research.json"
    extra = sys.argv[4:]
    questions = json.load(open(path))["questions"]
    listed = json.loads(subprocess.run([docindex, "--library", library, "--json", "list"],
                                       capture_output=True, text=True, check=True).stdout)
    company_of = {d["doc_id"]: compact(d.get("company_name") or "") for d in listed}
    passed = cited_pairs = pairs = wrong_company = 0
    for q in questions:
        out = subprocess.run([docindex, "--library", library, *extra, "--json", "ask", q["question"]],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{q['id']} ERROR {out.stderr.strip()[:200]}")
            continue
        answer = json.loads(out.stdout)
        cites = answer.get("citations", [])
        ok = True
        notes = []
        for e in q["expect"]:
            pairs += 1
            from_doc = [c for c in cites if c["doc_name"].rsplit(".", 1)[0] == e["doc"]]
            text = answer["answer"] + " ".join(c["excerpt"] for c in from_doc)
            hit = bool(from_doc) and e["figure"] in text
            cited_pairs += hit
            if not hit:
                ok = False
                notes.append(f"{e['company']}: {'no citation' if not from_doc else 'figure ' + e['figure'] + ' missing'}")
        named = [compact(e["company"]) for e in q["expect"]]
        strays = {c["doc_name"] for c in cites
                  if named and not any(n[:4] in company_of.get(c["doc_id"], "") for n in named)}
        if strays:
            ok = False
            wrong_company += 1
            notes.append("cites other companies: " + ", ".join(sorted(strays)))
        if q.get("difference"):
            diffs = [d["shown"] for d in (answer.get("comparison") or {}).get("differences", [])]
            if q["difference"] not in diffs:
                ok = False
                notes.append(f"difference {q['difference']} not worked out ({', '.join(diffs) or 'none'})")
        cited_docs = {c["doc_name"].rsplit(".", 1)[0] for c in cites}
        for doc in q.get("expect_docs", []):
            if doc not in cited_docs:
                ok = False
                notes.append(f"{doc} not listed with a citation")
        for doc in q.get("not_docs", []):
            if doc in cited_docs:
                ok = False
                notes.append(f"{doc} listed but does not mention it")
        for a in q.get("absent", []):
            if "no filing" not in answer["answer"].lower() or a.lower().replace("'", "") not in answer["answer"].lower().replace("'", "").replace("’", ""):
                ok = False
                notes.append(f"does not say {a} is missing")
        if not q["expect"] and not q.get("expect_docs") and cites:
            ok = False
        passed += ok
        print(f"{q['id']} {'ok ' if ok else 'MISS'} [{answer['confidence']['label']}] {q['question']}" + ("" if ok else "  — " + "; ".join(notes)))
    print(f"\nquestions answered in full: {passed}/{len(questions)}")
    print(f"company figures cited from the company's own filing: {cited_pairs}/{pairs}")
    print(f"answers citing a company the question does not name: {wrong_company}")

main()
