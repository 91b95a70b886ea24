#!/usr/bin/env bash
# Writes what every command prints on every bundled trace, preset and example file into one
# folder, so a refactoring can be shown to change no output: run it before and after, then
# `diff -r BEFORE AFTER`. Exit codes are kept next to the output (`*.status`).
#
#     Scripts/snapshot-outputs.sh OUT_DIR [TRACESIM_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: snapshot-outputs.sh OUT_DIR [TRACESIM_BINARY]}
ts=${2:-.build/debug/tracesim}
mkdir -p "$out"
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
for command in inspect convert rules scenarios permissions track replay matrix check merge tune; do
    snap "help.$command" help "$command"
done
# Output names the snapshot folder; write it as OUT so two snapshots compare.
find "$out" -name '*.out' -o -name '*.err' | while read -r file; do
    sed -i "s|$out|OUT|g" "$file"
done
echo "snapshot: $(ls "$out" | wc -l) files in $out" >&2
