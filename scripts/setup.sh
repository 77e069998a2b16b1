#!/usr/bin/env bash
# Installs whatever is missing to build, serve and test PE Lab, and does nothing when all is
# there. Sourced by scripts/serve.sh and scripts/test.sh; `--browser` also installs Chromium.
# Everything comes from the package registries (crates.io, npm, Debian): nothing is downloaded
# from GitHub or a CDN, so it works on an offline classroom mirror too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

apt_updated=0
apt_install() {
  if [ "$apt_updated" -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

command -v cargo >/dev/null || { echo "Rust (cargo) is needed: https://rustup.rs" >&2; exit 1; }

# A panic message names its source file; for a crate from the registry that is its full path on
# the building machine (/root/.cargo/registry/src/index.crates.io-…/plotters-0.3.7/src/…). The
# wasm carries about fifty of them: trimmed to `plotters-0.3.7/src/…`, the first download is
# about 120 bytes gzip smaller. Appended to .cargo/config.toml's wasm flags (cargo joins the two
# lists). Builds run by hand (`trunk build`) should export the same, or cargo rebuilds every
# crate when the flags differ.
registry_src="${CARGO_HOME:-$HOME/.cargo}/registry/src"
# On a fresh machine the sources are not there yet: fetch them first, so the first build is
# the same as every later one.
if ! ls -d "$registry_src"/*/ >/dev/null 2>&1; then log "fetching the crates' sources"; cargo fetch --locked; fi
remap=""
for d in "$registry_src"/*/; do
  case "$d" in *" "*) ;; *) [ -d "$d" ] && remap="$remap --remap-path-prefix=$d=" ;; esac
done
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${remap# }"

if ! command -v npm >/dev/null; then log "installing Node.js and npm"; apt_install nodejs npm; fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -q '0\.21\.14'; then
  log "installing trunk 0.21.14 (about 7 minutes on 2 cores)"
  cargo install trunk --version 0.21.14 --locked
fi

# trunk only uses a wasm-bindgen CLI whose version equals the library's in Cargo.lock.
wbg=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " $wbg\$"; then
  log "installing wasm-bindgen-cli $wbg (about 4 minutes)"
  # No --locked: its lock file pins a crate version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "$wbg" --force
fi

# Splits release builds into chunks loaded on demand (scripts/post-build.mjs).
if ! command -v wasm-split-cli >/dev/null \
  || ! cargo install --list | grep -q '^wasm_split_cli_support v0\.2\.4:'; then
  log "installing wasm-split-cli 0.2.4 (about 3 minutes)"
  cargo install wasm_split_cli_support --version 0.2.4 --locked --features build-binary
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] \
  || [ ! -d node_modules/terser ] || [ ! -d node_modules/axe-core ] \
  || [ ! -d node_modules/puppeteer-core ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages (binaryen for wasm-opt, terser, playwright-core, axe-core, puppeteer-core)"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ "${1:-}" = "--browser" ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  log "installing Chromium and ChromeDriver from Debian"
  apt_install chromium chromium-driver
fi

# Firefox ESR, for the specs that run in a second engine (e2e/firefox.test.mjs).
if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/firefox-esr ]; then
  log "installing Firefox ESR from Debian"
  apt_install firefox-esr
fi

# WebKitGTK (Safari's engine): WebKitWebDriver drives its MiniBrowser, which needs an X display;
# Xvfb gives it a virtual one (e2e/engines.mjs starts both).
if [ "${1:-}" = "--browser" ] && { ! command -v WebKitWebDriver >/dev/null || ! command -v Xvfb >/dev/null; }; then
  log "installing WebKitGTK's WebDriver and Xvfb from Debian"
  apt_install webkit2gtk-driver xvfb
fi
