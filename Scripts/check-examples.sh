#!/usr/bin/env bash
# Builds the Examples package (an outside package that embeds TraceSim through public API
# only), runs it over the bundled traces, and checks that what it writes through the library
# is byte for byte what the command line prints for the same work.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh
# SwiftPM keeps its plan of a path dependency: forget it so files added to the root are seen.
rm -f Examples/.build/debug.yaml Examples/.build/debug/description.json
swift build --package-path Examples >&2
swift build --product tracesim >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
Examples/.build/debug/tracesim-example Traces "$out/example" >"$out/example.txt"
ts=.build/debug/tracesim
mapfile -t traces < <(find Traces -type f ! -path 'Traces/LICENSES/*' ! -name '*.md' | LC_ALL=C sort)
first=${traces[0]}
"$ts" replay "$first" --scenario wheninuse-locked --format json >"$out/replay.json"
"$ts" replay "$first" --scenario wheninuse-locked --format html >"$out/replay.html"
# One bundled file has no timed fix without --date: the command line reports it (exit 65)
# and runs the rest, as the example skips it.
for format in json html; do
    status=0
    "$ts" matrix "${traces[@]}" --format "$format" >"$out/matrix.$format" 2>/dev/null || status=$?
    [ "$status" -eq 65 ] || { echo "error: tracesim matrix exited $status, not 65" >&2; exit 1; }
done
for file in replay.json replay.html matrix.json matrix.html; do
    cmp "$out/$file" "$out/example/$file"
done
grep "^custom client" "$out/example.txt"
echo "examples: the library wrote what the command line prints (replay and matrix, JSON and HTML)"
