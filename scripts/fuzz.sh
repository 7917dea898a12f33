#!/usr/bin/env bash
# Run every fuzz target (fuzz/fuzz_targets) for a bounded time from its seeds
# (fuzz/seeds/<target>) and fail on the first crash, leak or timeout. The machine's stable
# toolchain builds with RUSTC_BOOTSTRAP=1 (cargo-fuzz passes sanitizer flags).
#   FUZZ_SECONDS   time per target (default 60)
#   FUZZ_TARGET_DIR  build directory shared between runs (default /var/tmp/docindex-fuzz-target)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
# Cargo asks rustc about the target by handing it a program on standard input, which it
# leaves open: whatever the caller's stdin holds (in CI, another tool's output) became
# rustc's source and failed the build. Nothing here reads stdin.
exec </dev/null
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-/var/tmp/docindex-fuzz-target}"
# A failed probe cargo kept from an earlier run would be replayed: asked again, once.
rm -f "$CARGO_TARGET_DIR/.rustc_info.json"
seconds="${FUZZ_SECONDS:-60}"
cargo fuzz build -O
# The small real filings are seeds too, read from the test fixtures (not copied here).
mkdir -p corpus/html_ingest corpus/text_ingest
cp ../tests/fixtures/buckle_8-K_2024-11-22.html ../tests/fixtures/oracle_8-K_2024-11-14_item5.07.html corpus/html_ingest/
cp ../tests/fixtures/acme_q3_2024_earnings_call.txt corpus/text_ingest/
for target in $(cargo fuzz list); do
    mkdir -p "corpus/$target"
    echo "fuzz: $target for ${seconds}s"
    # -timeout: one input taking over 20 s is a hang; -rss_limit_mb: a blow-up. Leak
    # detection needs ptrace, which sandboxes (and CI) often block: it is off.
    log="$(mktemp)"
    status=0
    ASAN_OPTIONS=detect_leaks=0 cargo fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=262144 \
        -detect_leaks=0 -print_final_stats=1 >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz: $target failed (artifacts in fuzz/artifacts/$target)"
        exit "$status"
    fi
    grep -E "^(Done|stat::number_of_executed_units)" "$log" || true
    rm -f "$log"
done
echo "fuzz: every target ran ${seconds}s without a crash"
