#!/usr/bin/env bash
# Installs what building DocumentIndex needs on a fresh Debian machine (as root); safe to rerun.
set -euo pipefail
need_apt=()
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
if ! command -v cargo >/dev/null 2>&1; then need_apt+=(cargo rustc); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}"
fi
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  if command -v rustup >/dev/null 2>&1; then rustup component add rustfmt clippy; else apt-get install -y -qq rustfmt rust-clippy || true; fi
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/docindex-target}"
