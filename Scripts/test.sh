#!/usr/bin/env bash
# The fast tier, and the README's test command. Installs what is missing, then:
#   1. lint (Scripts/lint.sh: swift format and the declared imports);
#   2. builds the package and its tests; a warning in the project's own files fails the tier;
#   3. runs the tests, ending with one `N passed, N failed` line.
# Budget: 6 minutes on a clean clone on two idle cores, build included. Each phase's time is
# printed at the end.
#
# The end-to-end suites run here on two short traces. The slow tier (.ci/run, after this
# script) runs `Scripts/test.sh --slow`: with TRACESIM_SLOW_TESTS=1 the suites that read it
# (TestSupport's `TestTier`) run their full differentials over every bundled trace and preset;
# `--slow` runs only those suites (`slow_suites` below), against the build this tier made.
# A test that takes more than a few seconds belongs in the slow tier: add its suite to
# `slow_suites` and make it read `TestTier`.
#
#   Scripts/test.sh                  the fast tier
#   Scripts/test.sh --filter NMEA    extra arguments go to `swift test`
#   Scripts/test.sh --slow           the slow tier's tests (no lint, no build)
#
# TRACESIM_LONG_TESTS=1 adds hundreds of longer generated cases (Scripts/run-full-tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

# The suites whose size depends on the tier, as a `swift test --filter` pattern.
slow_suites='^(FacadeDifferentialTests\.|EngineProtocolTests\.SubprocessEngineTests/silentEngineFailsFast|EngineProtocolTests\.TuneEngineCommandTests|TraceSimCLITests\.BandedDegradationTableTests|ScenariosTests\.RegionExitExperimentTests|ScenariosTests\.CalibrationTests|TraceSimCLITests\.CalibrateCommandTests|ScenariosTests\.LocationRunReplayTests|EngineTests\.LocationRunTests/everyBundledTrace|EngineProtocolTests\.LocationRunDifferentialTests)'

log=$(mktemp)
phases=()
report_phases() {
    local status=$?
    [ "${#phases[@]}" -eq 0 ] || printf '%s\n' "${phases[@]}" >&2
    return $status
}
trap 'report_phases; rm -f "$log" "$log.warnings"' EXIT
phase() { # NAME STARTED: records a phase's wall time
    phases+=("$(printf 'test.sh %-10s %5d s' "$1" $((SECONDS - $2)))")
}

slow=false
if [ "${1:-}" = --slow ]; then
    slow=true
    shift
fi

if ! $slow; then
    started=$SECONDS
    bash Scripts/lint.sh
    phase lint "$started"

    started=$SECONDS
    set +e
    swift build --build-tests 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    phase build "$started"
    [ "$status" -eq 0 ] || exit "$status"
    # Warnings in the project's own files fail the tier; the toolchain's and the C libraries'
    # do not. (An incremental build prints the warnings of the files it compiled only: a clean
    # clone, as in CI, shows them all.)
    if grep -E "^$PWD/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning: " "$log" >"$log.warnings"; then
        echo "error: the build warns in the project's own files:" >&2
        sort -u "$log.warnings" >&2
        exit 1
    fi
fi

started=$SECONDS
set +e
if $slow; then
    TRACESIM_SLOW_TESTS=1 swift test --skip-build --filter "$slow_suites" "$@" 2>&1 | tee "$log"
else
    swift test --skip-build "$@" 2>&1 | tee "$log"
fi
status=${PIPESTATUS[0]}
set -e
phase tests "$started"

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
