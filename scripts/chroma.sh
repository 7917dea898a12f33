#!/usr/bin/env bash
# Chroma, the optional shared vector store (`--vectors chroma://HOST:PORT`): installs the
# PyPI package chromadb into ./.tools/chroma (a virtualenv, once) and exports
# DOCINDEX_CHROMA, the `chroma` command, for the tests. Safe to rerun.
#   source scripts/chroma.sh              install only (scripts/test.sh does this)
#   bash scripts/chroma.sh serve [PORT]   also serve a store in ./.tools/chroma-data
#                                         (default port 8000) for a library to use
set -euo pipefail
CHROMA_VERSION=1.5.9
chroma_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools"
chroma_env="$chroma_root/chroma"
if [ ! -x "$chroma_env/bin/chroma" ] ||
  ! "$chroma_env/bin/python" -c "import chromadb, sys; sys.exit(chromadb.__version__ != '$CHROMA_VERSION')" 2>/dev/null; then
  python3 -m venv "$chroma_env" 2>/dev/null || {
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq python3-venv
    python3 -m venv "$chroma_env"
  }
  "$chroma_env/bin/pip" install --quiet --disable-pip-version-check "chromadb==$CHROMA_VERSION"
  echo "chroma $CHROMA_VERSION installed in $chroma_env"
fi
export DOCINDEX_CHROMA="$chroma_env/bin/chroma"
if [ "${1:-}" = "serve" ]; then
  port="${2:-8000}"
  echo "serving a Chroma store on chroma://127.0.0.1:$port (data in $chroma_root/chroma-data)"
  ANONYMIZED_TELEMETRY=False exec "$DOCINDEX_CHROMA" run --host 127.0.0.1 --port "$port" \
    --path "$chroma_root/chroma-data"
fi
