#!/usr/bin/env bash
# Runs every check CI runs, in CI's order: format, lints, native tests, browser tests
# (wasm-bindgen-test in headless Chromium), the release build, and the end-to-end specs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --browser

step() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "clippy (native and wasm32), warnings denied"
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo clippy --workspace --target wasm32-unknown-unknown --lib --bins --tests --quiet -- -D warnings
# Release builds split the views into chunks (feature `split`): lint that configuration too.
cargo clippy --target wasm32-unknown-unknown --lib --bins --features split --quiet -- -D warnings

step "native tests"
cargo test --workspace --quiet

step "browser tests (wasm-bindgen-test, headless Chromium)"
CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web

step "release build"
trunk build --release --offline

step "package (the site archive of ./scripts/package.sh)"
./scripts/package.sh --no-build
listing=$(tar -tzf target/pe-lab-site.tar.gz)
for f in ./index.html ./HOSTING.md ./examples/course-page.html ./sw.js ./lessons/seed.json; do
  grep -qxF "$f" <<<"$listing" || { echo "the archive lacks $f" >&2; exit 1; }
done

step "end-to-end specs (Chromium; e2e/engines.test.mjs also in Firefox ESR and WebKit, e2e/deploy.test.mjs in Firefox)"
node --test --test-concurrency=1 e2e/
