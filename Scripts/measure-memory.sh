#!/usr/bin/env bash
# Peak memory of importing and replaying a huge trace, per million fixes: a seeded 1 Hz
# drive is written in each canonical format (TraceSim CSV, JSON Lines, GPX 1.1), and
# `tracesim track` imports and replays each under /usr/bin/time -v. Then `tracesim matrix
# --format jsonl --jobs 1` replays the CSV drive through every preset: the single-trace
# bound the streaming matrix keeps per worker, however many traces follow (the fleet suite,
# Scripts/run-fleet-benchmark.sh, measures that part). The bound is 100 MB of peak resident
# memory per million fixes; the run fails above it.
#
#   Scripts/measure-memory.sh              ten million fixes (about 5 GB of files, 6 minutes)
#   Scripts/measure-memory.sh 1000000      one million
#
# The generated files stay in .build/memory and are reused by later runs.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

fixes="${1:-10000000}"
case "$fixes" in
'' | *[!0-9]*)
    echo "usage: Scripts/measure-memory.sh [FIXES]" >&2
    exit 64
    ;;
esac
limit_per_million=100

[ -x /usr/bin/time ] || tracesim_apt_install time
swift build -c release --product tracesim >&2
tracesim_build_benchmarks

work=.build/memory
mkdir -p "$work"
status=0
# measure LABEL TRACE TRACESIM-ARGUMENTS...: one table row, the peak against the bound.
measure() {
    local label=$1 trace=$2
    shift 2
    /usr/bin/time -v .build/release/tracesim "$@" >/dev/null 2>"$work/time-$label.txt" || {
        echo "tracesim $1 failed on $trace:" >&2
        cat "$work/time-$label.txt" >&2
        exit 1
    }
    local peak_kb wall row
    peak_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time-$label.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time-$label.txt")
    row=$(awk -v kb="$peak_kb" -v n="$fixes" -v size="$(wc -c <"$trace")" -v wall="$wall" \
        -v limit="$limit_per_million" -v format="$label" 'BEGIN {
            count = split(wall, part, ":"); seconds = 0
            for (i = 1; i <= count; i++) seconds = seconds * 60 + part[i]
            peak = kb / 1024; per = peak / (n / 1e6)
            printf "%-6s %10.0f %9.1f %10.0f %16.1f%s", format, size / 1048576, seconds, peak, per,
                (per > limit ? "  OVER THE BOUND" : "")
        }')
    echo "$row"
    case "$row" in *"OVER THE BOUND"*) status=1 ;; esac
}
printf '%-6s %10s %9s %10s %16s\n' format "file MB" "seconds" "peak MB" "MB per M fixes"
for format in csv jsonl gpx; do
    trace="$work/drive-$fixes.$format"
    if [ ! -s "$trace" ]; then
        echo "== writing $fixes fixes as $format" >&2
        Benchmarks/.build/release/tracesim-bench generate "$format" "$fixes" "$trace.partial"
        mv "$trace.partial" "$trace"
    fi
    measure "$format" "$trace" track "$trace"
done
measure matrix "$work/drive-$fixes.csv" matrix --format jsonl --jobs 1 "$work/drive-$fixes.csv"
if [ "$status" -ne 0 ]; then
    echo "memory: over $limit_per_million MB per million fixes" >&2
    exit 1
fi
echo "memory: within $limit_per_million MB per million fixes"
