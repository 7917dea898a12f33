#!/usr/bin/env bash
# Sets up, builds and runs DocumentIndex. Where a display exists it opens the desktop app
# (its first screen offers to index the bundled sample filing). Without one it indexes the
# sample filing with the CLI, shows its tree and one section, searches it and answers a
# question offline with cited, verified excerpts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  cargo build --release -q -p docindex-desktop
  exec "$CARGO_TARGET_DIR/release/docindex-desktop"
fi
cargo build --release -q -p docindex-cli
bin="$CARGO_TARGET_DIR/release/docindex"
lib="${DOCINDEX_LIBRARY:-$HOME/.local/share/docindex}"
"$bin" --library "$lib" index assets/sample_apple_10-Q_Q3FY2023.html
"$bin" --library "$lib" list
tree=$("$bin" --library "$lib" tree sample_apple_10-Q_Q3FY2023)
echo "$tree"
node=$(echo "$tree" | awk '/Quarterly Highlights/ {print $1; exit}')
echo; echo "--- node $node ---"
"$bin" --library "$lib" show sample_apple_10-Q_Q3FY2023 "$node"
echo; echo "--- search: iPhone net sales ---"
"$bin" --library "$lib" search "iPhone net sales" --doc sample_apple_10-Q_Q3FY2023 --limit 3
echo; echo "--- ask (offline) ---"
"$bin" --library "$lib" ask "What were iPhone net sales in the third quarter of 2023?" --doc sample_apple_10-Q_Q3FY2023
