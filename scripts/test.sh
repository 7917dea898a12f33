#!/usr/bin/env bash
# Sets up and runs the whole test suite: formatting, lints, unit, integration and CLI tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets -q -- -D warnings
cargo test --workspace --no-fail-fast 2>&1 | tee /tmp/docindex-test.log
passed=$(grep -Eo "test result: ok\. [0-9]+ passed" /tmp/docindex-test.log | awk '{s+=$4} END {print s+0}')
failed=$(grep -Eo "[0-9]+ failed" /tmp/docindex-test.log | awk '{s+=$1} END {print s+0}')
echo "$passed passed, $failed failed"
