#!/bin/sh
# Vendors uPlot (MIT, https://github.com/leeoniya/uPlot) from the npm registry into this folder:
# the interactive HTML report embeds these files, so a page opens with no network.
# Usage: sh sudoku_bench/harness/analysing/assets/update.sh [VERSION]   (needs npm)
set -eu
version="${1:-1.6.31}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "uplot@$version" >/dev/null && tar xzf uplot-*.tgz)
cp "$work/package/dist/uPlot.iife.min.js" "$work/package/dist/uPlot.min.css" "$here/"
cp "$work/package/LICENSE" "$here/uPlot.LICENSE"
echo "$version" > "$here/uPlot.VERSION"
echo "vendored uPlot $version into $here"
