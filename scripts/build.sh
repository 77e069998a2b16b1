#!/usr/bin/env bash
# Builds the static site into dist/ (relative URLs: host it under any path).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
trunk build --release --offline "$@"
