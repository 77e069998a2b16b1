#!/usr/bin/env bash
# Builds PE Lab and serves it at http://127.0.0.1:8080/ (rebuilds on change).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
exec trunk serve --release --offline "$@"
