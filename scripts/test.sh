#!/usr/bin/env bash
# Sets up and runs the whole test suite: formatting, lints, the web UI's checks and unit
# tests, unit, integration and CLI tests, the desktop app's end-to-end tests in a real
# window (WebKitGTK under Xvfb, driven through tauri-driver), the .deb installed and its app
# opened, and the fuzz targets.
set -euo pipefail
cd "$(dirname "$0")/.."
# Nothing in the suite reads standard input, and cargo's probe of rustc would read the
# caller's (a CI runner's pipe) as a program: every step gets an empty one.
exec </dev/null
source scripts/setup.sh
# Cargo keeps rustc's answers, failures too, in the target directory: one probe that read a
# stray stdin would fail every later run that reuses the directory. Asked again, once.
rm -f "$CARGO_TARGET_DIR/.rustc_info.json"
# Chroma for the shared vector store's tests (pip, about 2 minutes once).
source scripts/chroma.sh
# The WebDriver server for the desktop tests (about 3 minutes to build, once).
command -v tauri-driver >/dev/null 2>&1 || [ -x "$HOME/.cargo/bin/tauri-driver" ] ||
  cargo install tauri-driver --locked --quiet
export PATH="$HOME/.cargo/bin:$PATH"
log=/tmp/docindex-test.log
: > "$log"
cargo fmt --all --check
(cd ui && npm run --silent check && NO_COLOR=1 npx vitest run 2>&1) | tee -a "$log"
cargo clippy --workspace --all-targets -q -- -D warnings
status=0
# cargo-nextest (on the machine, else installed once) runs each test in its own process and
# ends one that hangs (.config/nextest.toml), so a stuck test fails fast instead of
# holding the run. The crates have no doc tests.
command -v cargo-nextest >/dev/null 2>&1 || [ -x "$HOME/.cargo/bin/cargo-nextest" ] ||
  cargo install cargo-nextest --locked --quiet
# The distilled embedding table is made once from the MiniLM weights (about a minute in a
# debug build) before the tests, so they do not each make it at once.
{ cargo test --workspace --no-run -q &&
  "$CARGO_TARGET_DIR/debug/docindex" --library "$(mktemp -d)" embed; } || true
NEXTEST_HIDE_PROGRESS_BAR=1 cargo nextest run --workspace --no-fail-fast 2>&1 | tee -a "$log" || status=1
# The Python package: a wheel of the test build's engine, installed in a fresh virtual
# environment, then its tests (pytest) and its type stubs (mypy --strict on an example).
DOCINDEX_WHEEL_PROFILE=debug bash scripts/python-wheel.sh --test 2>&1 | tee -a "$log" || status=1
# Every question set of tests/eval against its floor, and the question families made from
# the fixture 10-Ks' tagged facts in three wordings (tests/eval/README.md).
bash scripts/eval-floors.sh 2>&1 | tee -a "$log" || status=1
# One automation session at a time: WebKit allows no more. Twenty minutes at most. The
# output goes to a file, not a pipe: a test ended by the timeout leaves its tauri-driver
# behind (its Drop never runs), and a pipe it still holds would keep this script waiting.
e2e_log=$(mktemp)
timeout --kill-after=30 1200 xvfb-run -a cargo test -p docindex-desktop --test e2e --test page_view -- --ignored --test-threads=1 >"$e2e_log" 2>&1 || status=1
pkill -x tauri-driver || true
pkill -x WebKitWebDriver || true
pkill -f '/debug/docindex-desktop' || true
tee -a "$log" <"$e2e_log"
rm -f "$e2e_log"
# The installable package: built from the debug binaries the tests made (a release build
# would add a quarter of an hour), installed, its CLI and app checked, removed.
DOCINDEX_PACKAGE_PROFILE=debug bash scripts/package.sh --check 2>&1 | tee -a "$log" || status=1
# The loaders under coverage-guided fuzzing, a minute per target (FUZZ_SECONDS).
bash scripts/fuzz.sh 2>&1 | tee -a "$log" || status=1
count() { { grep -Eo "$1" "$log" || true; } | awk -v f="$2" '{s+=$f} END {print s+0}'; }
passed=$(($(count "tests run: [0-9]+ passed" 3) + $(count "test result: ok\. [0-9]+ passed" 4)))
ui_passed=$(count "Tests +[0-9]+ passed" 2)
py_passed=$(count "^[0-9]+ passed" 1)
failed=$(count "[0-9]+ failed" 1)
echo "$passed Rust tests, $py_passed Python tests and $ui_passed UI tests passed, $failed failed (screenshots in e2e-artifacts/)"
exit $status
