#!/usr/bin/env bash
# Writes what every command prints on every bundled trace, preset and example file into one
# folder, so a refactoring can be shown to change no output: run it before and after, then
# `diff -r BEFORE AFTER`. Exit codes are kept next to the output (`*.status`).
#
#     Scripts/snapshot-outputs.sh OUT_DIR [TRACESIM_BINARY [TRIP_TRACKER_BINARY]]
#
# Besides the built-in engine, it runs the Python example engine over the engine protocol,
# the built-in engine behind `serve-engine`, and, when the Examples package's `trip-tracker`
# (a Core Location app through the facade) is built or named, that app.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: snapshot-outputs.sh OUT_DIR [TRACESIM_BINARY [TRIP_TRACKER_BINARY]]}
ts=${2:-.build/debug/tracesim}
tt=${3:-Examples/.build/debug/trip-tracker}
mkdir -p "$out"
out=$(cd "$out" && pwd)
ts=$(cd "$(dirname "$ts")" && pwd)/$(basename "$ts")
mapfile -t traces < <(find Traces -type f ! -path 'Traces/LICENSES/*' ! -name '*.md' | sort)
mapfile -t presets < <("$ts" scenarios --format json | grep -o '"name" *: *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/')
examples=Documentation/Examples
date=2020-02-07

# Runs one command line, saving stdout, stderr and the exit status under NAME.
snap() {
    local name=$1
    shift
    set +e
    "$ts" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.status"
    set -e
}

# `snap` with another program than tracesim.
snap_with() {
    local program=$1 name=$2
    shift 2
    set +e
    "$program" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.status"
    set -e
}

for format in text json markdown; do snap "rules.$format" rules --format "$format"; done
for format in text json; do snap "scenarios.$format" scenarios --format "$format"; done
for sdk in doorstep bggeo airship wizard; do
    for format in text json; do
        snap "permissions.$sdk.$format" permissions --sdk "$sdk" --user "$examples/user.json" \
            --device "$examples/device.json" --format "$format"
    done
done
snap permissions.compare permissions --compare --user "$examples/user.json"
snap permissions.population permissions --compare --population "$examples/population.json" --format json

for trace in "${traces[@]}"; do
    key=$(echo "$trace" | tr '/' '_')
    for format in text json table; do snap "inspect.$key.$format" inspect --date "$date" "$trace" --format "$format"; done
    for ext in csv jsonl gpx; do
        snap "convert.$key.$ext" convert --date "$date" "$trace" "$out/convert.$key.$ext.file.$ext"
    done
    for format in text json; do snap "track.$key.$format" track --date "$date" "$trace" --format "$format"; done
    snap "track.$key.fences" track --date "$date" "$trace" --fences "$examples/fences.geojson" --format json
    for preset in "${presets[@]}"; do
        snap "replay.$key.$preset" replay --date "$date" "$trace" --scenario "$preset" --format json
    done
    for format in text html; do
        snap "replay.$key.$format" replay --date "$date" "$trace" --scenario always-precise --format "$format"
    done
    snap "replay.$key.scenario-file" replay --date "$date" "$trace" --scenario "$examples/scenario.json"
    snap "tune.$key" tune --date "$date" "$trace" --sweep gate.horizontalAccuracy=10:50:20 --format json
done
for format in text json csv markdown html; do
    snap "matrix.$format" matrix --date "$date" "${traces[@]}" --format "$format"
done
snap matrix.fences matrix --date "$date" "${traces[@]}" --fences "$examples/fences.geojson" --format json
snap matrix.jsonl matrix --date "$date" "${traces[@]}" --format jsonl
for format in text csv markdown html; do
    snap "summarize.$format" summarize "$out/matrix.jsonl.out" --format "$format"
done
for k in 1 2 3; do
    snap "matrix.jsonl.shard$k" matrix --date "$date" "${traces[@]}" --shard "$k/3" --format jsonl
done
snap merge.jsonl merge "$out/matrix.jsonl.shard1.out" "$out/matrix.jsonl.shard2.out" "$out/matrix.jsonl.shard3.out"
snap summarize.shards summarize "$out/matrix.jsonl.shard1.out" "$out/matrix.jsonl.shard2.out" \
    "$out/matrix.jsonl.shard3.out" --format markdown
# Engines of the team's own: the Python example over the protocol, and the built-in engine
# behind `serve-engine` (both protocol versions), on every trace and preset.
python=$(command -v python3 || true)
if [ -n "$python" ]; then
    snap matrix.python matrix --date "$date" "${traces[@]}" --format json \
        --engine-command "$python Examples/python/engine.py"
    snap replay.python replay --date "$date" "${traces[0]}" --scenario always-precise --format json \
        --engine-command "$python Examples/python/engine.py"
fi
snap matrix.serve-engine matrix --date "$date" "${traces[@]}" --format json \
    --engine-command "$ts serve-engine"
snap matrix.serve-engine-v1 matrix --date "$date" "${traces[@]}" --format json \
    --engine-command "$ts serve-engine --protocol 1"
if [ -x "$tt" ]; then
    for format in text csv; do
        snap_with "$tt" "trip-tracker.$format" matrix --date "$date" "${traces[@]}" --format "$format"
    done
else
    echo "note: no $tt (swift build --package-path Examples): the facade app is not in this snapshot" >&2
fi
snap matrix.each matrix --date "$date" "${traces[@]}" --tracks each --seed 7 --format csv
for k in 1 2 3; do
    snap "matrix.shard$k" matrix --date "$date" "${traces[@]}" --shard "$k/3" --format json
done
# The parts name the traces by path, so merge reads them from this folder's copies.
snap merge merge "$out/matrix.shard1.out" "$out/matrix.shard2.out" "$out/matrix.shard3.out"
snap check check --date "$date" "${traces[@]}" --expect "$examples/expectations.json" \
    --junit "$out/check.junit.xml" --markdown "$out/check.md"
snap tune.all tune --date "$date" "${traces[@]}" --sweep gate.horizontalAccuracy=10:50:20 \
    --sweep distanceFilter=0:20:10
for command in inspect convert rules scenarios permissions track replay matrix check merge summarize tune \
    serve-engine; do
    snap "help.$command" help "$command"
done
# Output names the snapshot folder; write it as OUT so two snapshots compare.
find "$out" -name '*.out' -o -name '*.err' | while read -r file; do
    sed -i -e "s|$out|OUT|g" -e "s|$ts|TRACESIM|g" "$file"
done
echo "snapshot: $(ls "$out" | wc -l) files in $out" >&2
