#!/usr/bin/env bash
# Builds the release and packs it for any static host: target/pe-lab-site.tar.gz holds the site
# (dist/, relative URLs: any host, any sub-path), HOSTING.md (how to host it) and the example
# course page (examples/course-page.html, at examples/ in the site).
#   ./scripts/package.sh             build, then pack
#   ./scripts/package.sh --no-build  pack the dist/ already built (the test command does this)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ "${1:-}" != "--no-build" ]]; then
  ./scripts/build.sh
fi
[[ -f dist/index.html ]] || { echo "package.sh: no dist/index.html; run ./scripts/build.sh first" >&2; exit 1; }

mkdir -p dist/examples
cp examples/course-page.html dist/examples/
cat > dist/HOSTING.md <<'TEXT'
# Hosting PE Lab

This folder is the whole app: static files with relative URLs, no server code, no request to
another origin. Copy it to any static host, at any path (for example
`https://example.edu/courses/nlp/pe-lab/`), and open that address.

- **MIME types.** `.wasm` files must be served as `application/wasm`: the views, the Share
  dialog and the lessons are separate `.wasm` files, compiled only when served with that type.
  `.js` as `text/javascript`, `.webmanifest` as `application/manifest+json`. Most hosts do this
  already (recent nginx versions too); otherwise add `application/wasm wasm;` to nginx's
  `mime.types`, or `AddType application/wasm .wasm` for Apache.
- **Compression.** Serve with gzip or brotli if the host can: the first page is about 235 kB
  gzipped, 610 kB without.
- **Caching.** Let the host revalidate every file (the default of most static hosts): some
  files keep their names from one build to the next. The service worker keeps this build for
  offline use; after a deploy the next visit runs the new build, and a page of the old one
  still open keeps its own files until reloaded (the worker keeps the newest two builds).
- **Embedding in a sandboxed frame** (`sandbox="allow-scripts"`) needs the header
  `Access-Control-Allow-Origin: *` (GitHub Pages sends it). Any frame needs a host that allows
  framing (no `X-Frame-Options: DENY`, no CSP `frame-ancestors` that leaves the course site out).
- **Offline.** After one visit the app works without the network (a service worker caches
  this build; a new deploy is served on the next visit). It needs HTTPS, or localhost.
- **A course page.** `examples/course-page.html` embeds three panels and a lesson step. Served
  from this folder it finds PE Lab one folder up; elsewhere, change the `PE_LAB` line in it.
TEXT

archive=target/pe-lab-site.tar.gz
mkdir -p target
tar -czf "$archive" -C dist .
echo "package.sh: $archive ($(du -k "$archive" | cut -f1) KB): the site, HOSTING.md and examples/course-page.html"
