#!/usr/bin/env bash
# Every question set of tests/eval against its floor (tests/eval/floors.toml), and the
# question families made from the fixture 10-Ks' tagged facts in four wordings (the
# generator's own and three held-out sets), with the docindex binary the tests built. A set
# below its floor fails the run. Usage: bash scripts/eval-floors.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/docindex-target}"
bin="${1:-$CARGO_TARGET_DIR/debug/docindex}"
[ -x "$bin" ] || { echo "eval-floors: no docindex binary at $bin (build it first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib="$work/library"
"$bin" --library "$lib" index --jobs 2 tests/fixtures/*.html tests/fixtures/*.htm \
  tests/fixtures/pdf/AMCOR_2022_8K_dated-2022-07-01.pdf tests/fixtures/pdf/JPMORGAN_2023Q2_10Q.pdf \
  tests/fixtures/pdf/MGMRESORTS_2023Q2_10Q.pdf tests/fixtures/pdf/MICROSOFT_2023_10K.pdf \
  tests/fixtures/pdf/NIKE_2023_10K.pdf >"$work/index.log" 2>&1 ||
  { tail -20 "$work/index.log"; exit 1; }
status=0
for set in tests/eval/questions.json tests/eval/analyst-*.json; do
  code=0
  "$bin" --library "$lib" eval "$set" --skip-minilm --floors tests/eval/floors.toml \
    >"$work/eval.out" 2>/dev/null || code=$?
  summary=$(grep -E "^  Ours |answers cite|^floor" "$work/eval.out" | tr -s ' ' | paste -sd ';' -)
  echo "$(basename "$set"): $summary"
  [ "$code" -eq 0 ] || status=1
done
# Narrative and judgment questions (issue 44): citing the evidence, refusing only what the
# filing cannot answer, judgments' verdicts.
floor() { python3 -c "import tomllib,sys;print(tomllib.load(open('tests/eval/floors.toml','rb'))['narrative-dev.json'][sys.argv[1]])" "$1"; }
code=0
python3 tests/eval/narrative_eval.py tests/eval/narrative-dev.json --docindex "$bin" --library "$lib" \
  --quiet --min-cited "$(floor cited)" --max-refused "$(floor refused)" \
  --min-verdicts "$(floor verdicts)" >"$work/narrative.out" 2>&1 || code=$?
echo "narrative-dev.json: $(grep -E "^ALL|^HIGH|^floor" "$work/narrative.out" | tr -s ' ' | paste -sd ';' -)"
[ "$code" -eq 0 ] || status=1
# Questions from the tagged facts of the two fixture 10-Ks (Apple FY2024, Tesla FY2023).
tenks=(tests/fixtures/apple_10-K_FY2024_0000320193-24-000123.html
  tests/fixtures/tesla_10-K_FY2023_0001628280-24-002390.html)
for wording in builtin heldout heldout-b heldout-c; do
  templates=()
  [ "$wording" = builtin ] || templates=(--templates "tests/eval/xbrl-templates-$wording.json")
  python3 tests/eval/xbrl_questions.py "${tenks[@]}" --per-filing 40 --seed 11 \
    "${templates[@]}" -o "$work/xbrl-$wording.json" >/dev/null 2>&1
  code=0
  python3 tests/eval/xbrl_eval.py "$work/xbrl-$wording.json" --docindex "$bin" --library "$lib" \
    --quiet --min-right "$(python3 -c "import tomllib;print(tomllib.load(open('tests/eval/floors.toml','rb'))['xbrl-$wording']['right'])")" \
    --min-high-right 0.85 >"$work/xbrl.out" 2>&1 || code=$?
  echo "xbrl ($wording): $(grep -E "^ALL|^HIGH wrong|^floor" "$work/xbrl.out" | tr -s ' ' | paste -sd ';' -)"
  [ "$code" -eq 0 ] || status=1
done
# The second family (issue 45): line items, changes, averages, metrics and comparisons in
# wordings written by helpers who never saw the engine (tests/eval/xbrl_family2.py), three
# seeds over the fixture 10-Ks. Comparisons are asked library-wide.
for split in dev heldout fresh novel sealed ledger harbor quarry summit tundra ridge canyon; do
  for seed in 11 12 13; do
    python3 tests/eval/xbrl_family2.py --split "$split" --seed "$seed" \
      -o "$work/family2-$split-$seed.json" "${tenks[@]}" >/dev/null 2>&1
  done
  python3 - "$work" "$split" <<'PY'
import json, sys
work, split = sys.argv[1], sys.argv[2]
seen, merged = set(), []
for seed in (11, 12, 13):
    for q in json.load(open(f"{work}/family2-{split}-{seed}.json")):
        if q["question"] not in seen:
            seen.add(q["question"])
            merged.append(q)
json.dump(merged, open(f"{work}/family2-{split}.json", "w"))
PY
  code=0
  python3 tests/eval/xbrl_eval.py "$work/family2-$split.json" --docindex "$bin" --library "$lib" \
    --quiet --jobs 2 \
    --min-right "$(python3 -c "import tomllib;print(tomllib.load(open('tests/eval/floors.toml','rb'))['family2-$split']['right'])")" \
    --min-high-right 0.95 >"$work/family2.out" 2>&1 || code=$?
  echo "family2 ($split): $(grep -E "^ALL|^HIGH wrong|^floor" "$work/family2.out" | tr -s ' ' | paste -sd ';' -)"
  [ "$code" -eq 0 ] || status=1
done
exit $status
