#!/usr/bin/env bash
# Builds the installable DocumentIndex: a .deb holding the desktop app, the `docindex` CLI
# beside it, pdfium and the local embedding model as resources, a desktop entry and an
# icon. The Tauri bundler reads the root tauri.conf.json (the app's own configuration) and
# merges on top of it the packaging settings written below. Safe to rerun.
#
#   bash scripts/package.sh            # build dist/DocumentIndex_<version>_amd64.deb
#   bash scripts/package.sh --check    # and install it, smoke-test it, remove it
#
# DOCINDEX_PACKAGE_PROFILE=debug packages the debug build the tests already made (CI does,
# to stay within its time); the default is the release build users install.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
repo_root="$PWD"
profile="${DOCINDEX_PACKAGE_PROFILE:-release}"
case "$profile" in
  release) cargo build --release -q -p docindex-desktop -p docindex-cli ;;
  debug) cargo build -q -p docindex-desktop -p docindex-cli ;;
  *) echo "DOCINDEX_PACKAGE_PROFILE is release or debug, not '$profile'" >&2; exit 1 ;;
esac
bin_dir="$CARGO_TARGET_DIR/$profile"

# The distilled embedding table ships made, without the MiniLM weights it is made from
# (91 MB that only `--embedder minilm` would use): the installed app embeds with the table.
if [ ! -s "$DOCINDEX_MODEL_DIR/distilled-v2.safetensors" ]; then
  "$bin_dir/docindex" --library "$(mktemp -d)" embed >/dev/null
fi

# Packaging settings, merged over tauri.conf.json: absolute paths, so written here.
conf="$(mktemp --suffix=.json)"
stage="$(mktemp -d)"
python3 - "$conf" "$repo_root" "$stage" <<'PY'
import json, sys
conf, root, stage = sys.argv[1:]
json.dump({
    "bundle": {
        "active": True,
        "targets": ["deb"],
        "icon": [f"{root}/src-tauri/icons/icon.png"],
        "category": "Finance",
        "shortDescription": "Financial filings as trees of sections, with cited answers",
        "longDescription": "DocumentIndex turns long financial filings into a tree of "
            "sections mapped to exact text spans, answers questions with verified "
            "citations, extracts every piece of evidence on a topic and searches a whole "
            "library of filings, offline.",
        "resources": {
            f"{root}/pdfium/libpdfium.so": "pdfium/libpdfium.so",
            f"{root}/pdfium/licenses/": "pdfium/licenses/",
            f"{root}/models/all-MiniLM-L6-v2/config.json": "models/all-MiniLM-L6-v2/config.json",
            f"{root}/models/all-MiniLM-L6-v2/tokenizer.json": "models/all-MiniLM-L6-v2/tokenizer.json",
            f"{root}/models/all-MiniLM-L6-v2/distilled-v2.safetensors": "models/all-MiniLM-L6-v2/distilled-v2.safetensors",
            f"{root}/models/all-MiniLM-L6-v2/README.md": "models/all-MiniLM-L6-v2/README.md",
        },
        "linux": {
            "deb": {
                "files": {"/usr/bin/docindex": f"{stage}/docindex"},
            }
        },
    }
}, open(conf, "w"), indent=2)
PY

# The bundler finds the app's crate in src-tauri/ and its configuration at the root.
# The Tauri CLI from the npm registry (a prebuilt binary), once, into .tools/.
TAURI_CLI_VERSION=2.12.5
tauri="$repo_root/.tools/tauri-cli/node_modules/.bin/tauri"
if ! "$tauri" --version 2>/dev/null | grep -q "$TAURI_CLI_VERSION"; then
  npm install --prefix "$repo_root/.tools/tauri-cli" --no-save --no-audit --no-fund \
    --loglevel=error "@tauri-apps/cli@$TAURI_CLI_VERSION"
fi
# The bundler wants a configuration in the app's crate folder: it is pointed at the root
# file by a link that lives only while it runs (the build itself reads the root file
# through build.rs).
bundle_args=(bundle --bundles deb --config "$conf")
[ "$profile" = debug ] && bundle_args+=(--debug)
rm -rf "$bin_dir/bundle/deb"
# Debug info stays out of the package: the CLI is copied, the app stripped in place.
cp "$bin_dir/docindex" "$stage/docindex"
strip --strip-debug "$stage/docindex" "$bin_dir/docindex-desktop"
ln -sfn ../tauri.conf.json src-tauri/tauri.conf.json
trap 'rm -f "$repo_root/src-tauri/tauri.conf.json"' EXIT
(cd src-tauri && TAURI_APP_PATH="$repo_root/src-tauri" "$tauri" "${bundle_args[@]}")
rm -f src-tauri/tauri.conf.json "$conf"
trap - EXIT
deb="$(ls "$bin_dir"/bundle/deb/*.deb)"
mkdir -p dist
cp "$deb" dist/
deb="dist/$(basename "$deb")"
installed_kb="$(dpkg-deb -f "$deb" Installed-Size)"
echo "package: $deb, $(du -h "$deb" | cut -f1) (installed $((installed_kb / 1024)) MB)"

if [ "${1:-}" = "--check" ]; then
  package="$(dpkg-deb -f "$deb" Package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "$PWD/$deb" >/dev/null
  trap 'apt-get remove -y -qq "$package" >/dev/null' EXIT
  # The installed CLI, away from the repository, with none of the set-up's variables: it
  # must find pdfium and the model in the package.
  (cd / && env -u DOCINDEX_PDFIUM -u DOCINDEX_MODEL_DIR /usr/bin/docindex --version)
  check_lib="$(mktemp -d)"
  (cd / && env -u DOCINDEX_PDFIUM -u DOCINDEX_MODEL_DIR HOME="$check_lib" /usr/bin/docindex \
    --library "$check_lib/lib" index "$repo_root/tests/fixtures/pdf/AMCOR_2022_8K_dated-2022-07-01.pdf" \
    "$repo_root/assets/sample_apple_10-Q_Q3FY2023.html")
  (cd / && env -u DOCINDEX_PDFIUM -u DOCINDEX_MODEL_DIR HOME="$check_lib" /usr/bin/docindex \
    --library "$check_lib/lib" search "iPhone net sales" --limit 1)
  # The installed app in a real window: its title and first screen.
  env -u DOCINDEX_PDFIUM -u DOCINDEX_MODEL_DIR DOCINDEX_INSTALLED_APP=/usr/bin/docindex-desktop \
    timeout 600 xvfb-run -a \
    cargo test -q -p docindex-desktop --test installed -- --ignored
  echo "installed, checked and removed $package"
fi
