#!/usr/bin/env bash
# The benchmark gate: counts the instructions (valgrind callgrind) of fixed small
# workloads (import, pipeline, geofencing, config, protocol, facade) and fails when one grows by more than 5 % over
# Benchmarks/Thresholds/instructions.tsv. Instruction counts are repeatable for the same
# binary and inputs whatever else the machine is doing; wall-clock time is not, so it is
# reported by Scripts/run-benchmarks.sh and never gated.
#
#   Scripts/check-benchmarks.sh            compare with the thresholds (CI runs this)
#   Scripts/check-benchmarks.sh --update   write the counts measured now as the thresholds
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

thresholds=Benchmarks/Thresholds/instructions.tsv
limit_percent=5
update=false
case "${1:-}" in
--update) update=true ;;
"") ;;
*) echo "usage: Scripts/check-benchmarks.sh [--update]" >&2; exit 64 ;;
esac

if ! command -v valgrind >/dev/null 2>&1; then
    case "$(uname -s)" in
    Linux) tracesim_log "installing valgrind"; tracesim_apt_install valgrind ;;
    *) echo "error: the instruction-count gate needs valgrind, which runs on Linux only" >&2; exit 1 ;;
    esac
fi

tracesim_build_benchmarks

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Callgrind reads the runner's debug information and gives up on the DWARF 5 that clang writes
# for the project's C target (valgrind 3.19: "unhandled dwarf2 abbrev form code 0x25"). The
# counts need only the symbol table, which a copy without debug information keeps.
bench="$work/tracesim-bench"
objcopy --strip-debug Benchmarks/.build/release/tracesim-bench "$bench"

count() {
    # Only `measuredWorkload` is counted: building the inputs is not. Swift seeds its hash
    # tables per process unless told not to, which would move the count from run to run.
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/$1.out" \
        --toggle-collect='*measuredWorkload*' "$bench" workload "$1" >/dev/null 2>"$work/$1.log" || {
        cat "$work/$1.log" >&2
        echo "error: workload $1 failed" >&2
        exit 1
    }
    sed -nE 's/^totals: ([0-9]+).*/\1/p' "$work/$1.out"
}

status=0
printf '%-12s %15s %15s %9s\n' workload threshold measured change
new_thresholds="# workload<TAB>instructions: written by Scripts/check-benchmarks.sh --update"
for workload in import pipeline geofencing config protocol facade; do
    measured=$(count "$workload")
    new_thresholds+=$'\n'"$workload"$'\t'"$measured"
    expected=$(awk -F'\t' -v name="$workload" '$1 == name { print $2 }' "$thresholds" 2>/dev/null || true)
    if [ -z "$expected" ]; then
        printf '%-12s %15s %15s %9s\n' "$workload" "(none)" "$measured" ""
        $update || status=1
        continue
    fi
    change=$(awk -v a="$expected" -v b="$measured" 'BEGIN { printf "%+.2f%%", (b - a) * 100 / a }')
    verdict=""
    if awk -v a="$expected" -v b="$measured" -v p="$limit_percent" 'BEGIN { exit !(b > a * (1 + p / 100)) }'; then
        verdict="  <- more than ${limit_percent}% slower"
        status=1
    elif awk -v a="$expected" -v b="$measured" -v p="$limit_percent" 'BEGIN { exit !(b < a * (1 - p / 100)) }'; then
        verdict="  (faster: run --update to lock the gain in)"
    fi
    printf '%-12s %15s %15s %9s%s\n' "$workload" "$expected" "$measured" "$change" "$verdict"
done

if $update; then
    printf '%s\n' "$new_thresholds" >"$thresholds"
    echo "wrote $thresholds"
    exit 0
fi
if [ "$status" -ne 0 ]; then
    echo "benchmark gate: FAILED (a workload's instruction count grew by more than ${limit_percent}%, or has no threshold)" >&2
else
    echo "benchmark gate: passed"
fi
exit "$status"
