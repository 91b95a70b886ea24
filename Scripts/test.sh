#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite.
# Extra arguments go to `swift test` (for example `--filter NMEA`).
# Set TRACESIM_LONG_TESTS=1 to include the slow tests.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# One plain closing line, whatever mix of Swift Testing and XCTest ran.
summary=$(grep -E '^. Test run with [0-9]+ tests? ' "$log" | tail -n 1 || true)
passed=$(printf '%s' "$summary" | sed -nE 's/.*Test run with ([0-9]+) tests?.* passed.*/\1/p')
failed=$(grep -cE '^✘ Test .* failed' "$log" || true)
if [ "$status" -eq 0 ] && [ -n "$passed" ]; then
    echo "${passed} passed, 0 failed"
elif [ "$status" -eq 0 ]; then
    echo "error: swift test exited 0 but reported no test run" >&2
    exit 1
else
    echo "${passed:-0} passed, ${failed:-1} failed"
fi
exit "$status"
