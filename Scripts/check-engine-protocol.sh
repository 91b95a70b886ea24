#!/usr/bin/env bash
# The engine protocol end to end (Documentation/Protocol/EngineProtocol.md):
#   1. the differential test: the built-in engine in-process and behind
#      `tracesim serve-engine` print the same bytes from `matrix` over every bundled trace in
#      every format, from `replay --format json` and from `check`, in protocol version 2
#      (timers replaced) and, held to it with `--protocol 1`, in version 1;
#   2. every message of a real run, both ways and in both versions, validates against the
#      JSON Schema;
#   3. the Python example engine runs the bundled MTV drive with pinned counts.
# Installs python3 and python3-jsonschema when missing (CI is a clean Debian container).
# Runs $TRACESIM when it is set (CI's one release build), otherwise builds and runs the debug one.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh
missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then missing+=(python3-jsonschema); fi
if [ "${#missing[@]}" -gt 0 ]; then
    tracesim_log "installing ${missing[*]}"
    tracesim_apt_install "${missing[@]}"
fi
ts=$(tracesim_binary)
serve="$ts serve-engine"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mapfile -t traces < <(find Traces -type f ! -path 'Traces/LICENSES/*' ! -name '*.md' | LC_ALL=C sort)

same() { # NAME ARGS...: the command's stdout and exit status, built-in against $engine
    local name=$1 status=0 served=0
    shift
    "$ts" "$@" >"$out/$name.builtin" 2>/dev/null || status=$?
    "$ts" "$@" --engine-command "$engine" >"$out/$name.served" 2>/dev/null || served=$?
    if [ "$status" -ne "$served" ] || ! cmp -s "$out/$name.builtin" "$out/$name.served"; then
        echo "error: $name differs through serve-engine (exit $status against $served)" >&2
        diff "$out/$name.builtin" "$out/$name.served" | head -20 >&2 || true
        exit 1
    fi
    echo "same bytes: $name ($(wc -c <"$out/$name.builtin") bytes, exit $status)"
}

engine=$serve
for format in text json csv markdown; do
    same "matrix-$format" matrix "${traces[@]}" --date 2020-02-07 --format "$format"
done
same replay-json replay "${traces[0]}" --scenario wheninuse-locked --date 2020-02-07 --format json
same check check "${traces[@]}" --expect Documentation/Examples/expectations.json --date 2020-02-07
# Version 1, where every timer the engine schedules fires: the same bytes again.
engine="$serve --protocol 1"
for format in json csv; do
    same "matrix-$format-version-1" matrix "${traces[@]}" --date 2020-02-07 --format "$format"
done
same check-version-1 check "${traces[@]}" --expect Documentation/Examples/expectations.json --date 2020-02-07

# jsonschema checks a line in about a millisecond: the short walk through every scenario, and
# the drive through the scenario with a force-quit and relaunches.
proxy="python3 Tests/EngineProtocolTests/Engines/validating_proxy.py Documentation/Protocol/engine-protocol.schema.json"
mtv=Traces/gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga
for run in "2 Traces/gnss_lib_py/pixel6.nmea --scenarios all" "2 $mtv --scenarios always-force-quit" \
    "1 Traces/gnss_lib_py/pixel6.nmea --scenarios all"; do
    read -r -a words <<<"$run"
    "$ts" matrix "${words[@]:1}" --date 2020-02-07 --format csv >"$out/schema.builtin"
    "$ts" matrix "${words[@]:1}" --date 2020-02-07 --format csv \
        --engine-command "$proxy $serve --protocol ${words[0]}" >"$out/schema.checked"
    cmp "$out/schema.builtin" "$out/schema.checked"
done
echo "every message of the pixel 6 matrix (versions 2 and 1) and the MTV force-quit run validates against the schema"

"$ts" matrix "$mtv" --date 2020-02-07 --scenarios always-precise,wheninuse-force-quit --format csv \
    --engine-command "python3 Examples/python/engine.py" >"$out/python.csv"
# scenario, recordedFixes, deliveredFixes, acceptedFixes
counts=$(tail -n +2 "$out/python.csv" | cut -d, -f2,4,5,6)
expected=$'always-precise,578,1748,1633\nwheninuse-force-quit,82,437,433'
if [ "$counts" != "$expected" ]; then
    printf 'error: the Python example engine recorded\n%s\nnot\n%s\n' "$counts" "$expected" >&2
    exit 1
fi
echo "python example engine: recorded 578 fixes (always-precise) and 82 (wheninuse-force-quit) on the MTV drive"
