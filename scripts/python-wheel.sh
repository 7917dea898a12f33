#!/usr/bin/env bash
# Builds the Python package `documentindex` as a wheel (maturin, abi3: one wheel for Python
# 3.9 and later) with what the engine needs offline inside it: the distilled embedding
# table and its tokenizer, and pdfium with its licences. Run after scripts/setup.sh.
#
#   bash scripts/python-wheel.sh           # the wheel, in $CARGO_TARGET_DIR/wheels
#   bash scripts/python-wheel.sh --test    # then a fresh venv: pip install it, pytest, mypy
#
# DOCINDEX_WHEEL_PROFILE=debug builds the engine unoptimised (the test suite's build, reused;
# the release build adds about a quarter of an hour on two cores). Safe to run twice.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${CARGO_TARGET_DIR:-$root/target}
tools=$root/.tools/maturin
if [ ! -x "$tools/bin/maturin" ]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet "maturin==1.16.0"
fi

# What the engine needs offline, copied next to the package (git-ignored).
data=$root/python/documentindex/data
models=$root/models/all-MiniLM-L6-v2
table=$models/distilled-v2.safetensors
[ -f "$table" ] || table=$HOME/.cache/docindex/distilled-v2.safetensors
if [ ! -f "$table" ]; then
  echo "error: no distilled embedding table; run scripts/setup.sh, then 'docindex embed' once" >&2
  exit 1
fi
rm -rf "$data"
mkdir -p "$data/models/all-MiniLM-L6-v2" "$data/pdfium"
cp "$table" "$models/tokenizer.json" "$models/config.json" "$data/models/all-MiniLM-L6-v2/"
cp "$models/README.md" "$data/models/all-MiniLM-L6-v2/" 2>/dev/null || true
cp "$root/pdfium/libpdfium.so" "$data/pdfium/"
cp -r "$root/pdfium/licenses" "$data/pdfium/"

profile=(--release)
[ "${DOCINDEX_WHEEL_PROFILE:-release}" = debug ] && profile=(--profile dev)
rm -f "$target"/wheels/documentindex-*.whl
(cd python && CARGO_TARGET_DIR="$target" "$tools/bin/maturin" build "${profile[@]}" --strip \
  --out "$target/wheels" --quiet)
wheel=$(ls "$target"/wheels/documentindex-*.whl)
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))"

if [ "${1:-}" = --test ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  venv=$scratch/venv
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "$wheel" "pytest==8.4.2" "pytest-asyncio==1.2.0" \
    "mypy==1.18.2" "pandas==2.3.3"
  # Import time of the installed package, cold (a fresh interpreter).
  "$venv/bin/python" -X importtime -c "import documentindex" 2>&1 | tail -1 |
    awk -F'|' '{printf "import documentindex: %.0f ms\n", $2/1000}'
  # The tests read the fixtures of the repository, never ../shared; the package comes from
  # the venv, not the source folder.
  bin=$target/debug/docindex
  [ -x "$bin" ] || bin=$target/release/docindex
  (cd "$root/python/tests" && DOCINDEX_FIXTURES="$root/tests/fixtures" DOCINDEX_BIN="$bin" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider .)
  # The stubs checked against a script that uses the API as the README shows it.
  "$venv/bin/python" -m mypy --strict --no-incremental "$root/python/examples/use_cases.py"
fi
