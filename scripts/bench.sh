#!/usr/bin/env bash
# Builds the release app and runs the benchmark (see scripts/bench.mjs for options).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --browser
trunk build --release --offline
node scripts/bench.mjs "$@"
