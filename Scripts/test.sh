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
summary=$(grep -E 'Test run with [0-9]+ tests? ' "$log" | tail -n 1 || true)
total=$(printf '%s' "$summary" | sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p')
failed=$(grep -cE '^[^ ]+ Test ".*" failed' "$log" || true)
if [ -z "$total" ]; then
    echo "error: swift test reported no test run" >&2
    [ "$status" -eq 0 ] && status=1
elif [ "$status" -eq 0 ]; then
    echo "${total} passed, 0 failed"
else
    [ "${failed:-0}" -gt 0 ] || failed=1
    echo "$((total - failed)) passed, ${failed} failed"
fi
exit "$status"
