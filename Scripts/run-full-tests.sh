#!/usr/bin/env bash
# The slow, thorough test run: the whole suite under AddressSanitizer, then under
# ThreadSanitizer (the matrix, tune and ParallelLoop run work on several threads), then once
# more with TRACESIM_LONG_TESTS=1 (hundreds of longer generated cases). Each sanitizer
# builds into its own folder under .build, so they do not disturb the normal build.
#
#   Scripts/run-full-tests.sh                 all three
#   Scripts/run-full-tests.sh address|thread|long
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

runs=("${@:-address thread long}")
status=0
for run in ${runs[*]}; do
    case "$run" in
    address | thread)
        echo "== swift test --sanitize=$run" >&2
        # Stop at the first report, and make leaks fail the run as well as memory errors;
        # the suppressions name leaks inside the toolchain's libraries only.
        if ! ASAN_OPTIONS="halt_on_error=1:detect_leaks=1" TSAN_OPTIONS="halt_on_error=1" \
            LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0" \
            swift test --sanitize="$run" --scratch-path ".build/sanitize-$run"; then
            echo "== $run sanitizer: FAILED" >&2
            status=1
        fi
        ;;
    long)
        echo "== TRACESIM_LONG_TESTS=1 swift test" >&2
        if ! TRACESIM_LONG_TESTS=1 swift test; then
            echo "== long tests: FAILED" >&2
            status=1
        fi
        ;;
    *)
        echo "usage: Scripts/run-full-tests.sh [address|thread|long ...]" >&2
        exit 64
        ;;
    esac
done
[ "$status" -eq 0 ] && echo "full tests: passed"
exit "$status"
