#!/usr/bin/env bash
# Coverage-guided fuzzing of every file TraceSim reads from users: each trace importer, format
# detection, a trace file read by path (gzip-compressed or not), the scenario, user-script,
# device, population and expectations files, GeoJSON geofences, the JSON parts `merge` joins,
# whole command lines (run in a scratch folder), and both sides of the engine protocol. One libFuzzer binary (Tests/Fuzzing) is
# built with AddressSanitizer, then each harness runs for SECONDS, as many at once as there
# are cores.
#
#   Scripts/fuzz.sh                 every harness, 60 s each
#   Scripts/fuzz.sh 300 scenario    one harness, five minutes
#   TRACESIM_FUZZ_JOBS=1 Scripts/fuzz.sh 60
#
# Seeds: the bundled traces, the test fixtures, Tests/Fuzzing/Seeds, the example files in
# Documentation/Examples and every earlier finding in Tests/Fuzzing/Regressions. The growing
# corpus and any findings live in .build/fuzz. A finding (crash, hang over 10 s, leak, or more
# than 2 GB of memory) is minimized and the run fails; check the minimized input into
# Tests/Fuzzing/Regressions/<harness>/ so the test suite replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

seconds="${1:-60}"
case "$seconds" in
'' | *[!0-9]*)
    echo "usage: Scripts/fuzz.sh [SECONDS] [HARNESS...]" >&2
    exit 64
    ;;
esac
shift $(($# > 0 ? 1 : 0))

work=.build/fuzz
binary=Tests/Fuzzing/.build/release/tracesim-fuzz
echo "== building the fuzzing harnesses (release, -sanitize=fuzzer,address)" >&2
# SwiftPM plans a path dependency's sources once: forget the plan so new root files are seen.
rm -f Tests/Fuzzing/.build/release.yaml Tests/Fuzzing/.build/release/description.json
swift build --package-path Tests/Fuzzing -c release \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2

if [ "$#" -gt 0 ]; then harnesses=("$@"); else mapfile -t harnesses < <(TRACESIM_FUZZ_HARNESS=list "$binary"); fi
jobs="${TRACESIM_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"

# The seed folder for one harness: files libFuzzer reads but never writes to.
seed_folder() {
    local harness=$1 folder="$work/seeds/$1"
    rm -rf "$folder"
    mkdir -p "$folder"
    case "$harness" in
    detect | import-*)
        find Traces -type f ! -path 'Traces/LICENSES/*' ! -name SOURCES.md -exec cp {} "$folder/" \;
        cp Tests/TracesTests/Fixtures/* Tests/Fuzzing/Seeds/* "$folder/"
        ;;
    # Compressed and plain: a seed each way, so both the inflater and detection get explored.
    file)
        for seed in Tests/Fuzzing/Seeds/* Traces/gpsd/*.log; do
            cp "$seed" "$folder/"
            gzip -c "$seed" >"$folder/$(basename "$seed").gz"
        done
        ;;
    scenario) cp Documentation/Examples/scenario.json "$folder/" ;;
    user-script) cp Documentation/Examples/user.json "$folder/" ;;
    device) cp Documentation/Examples/device.json "$folder/" ;;
    population) cp Documentation/Examples/population.json "$folder/" ;;
    expectations) cp Documentation/Examples/expectations.json "$folder/" ;;
    geojson) cp Documentation/Examples/fences.geojson "$folder/" ;;
    # Argument vectors, the parts of a real sharded matrix, and both sides of a real engine
    # conversation, written by the binary itself so they follow the formats as those change.
    cli | merge | engine | serve-engine)
        ASAN_OPTIONS=detect_leaks=0 TRACESIM_FUZZ_HARNESS="$harness" TRACESIM_FUZZ_WRITE_SEEDS="$folder" \
            "$binary" >/dev/null
        ;;
    esac
    if [ -d "Tests/Fuzzing/Regressions/$harness" ]; then cp "Tests/Fuzzing/Regressions/$harness"/* "$folder/"; fi
    echo "$folder"
}

dictionary_for() {
    case "$1" in
    import-gpx-* | import-tcx | import-kml) echo Tests/Fuzzing/Dictionaries/xml.dict ;;
    import-nmea | import-gnsslogger* | import-columbus-csv | import-70mai | import-tracesim-csv)
        echo Tests/Fuzzing/Dictionaries/text.dict
        ;;
    cli) echo Tests/Fuzzing/Dictionaries/cli.dict ;;
    engine | serve-engine) echo Tests/Fuzzing/Dictionaries/engine.dict ;;
    file) echo Tests/Fuzzing/Dictionaries/text.dict ;;
    *) echo Tests/Fuzzing/Dictionaries/json.dict ;;
    esac
}

run_harness() {
    local harness=$1 seeds corpus findings log
    seeds=$(seed_folder "$harness")
    corpus="$work/corpus/$harness"
    findings="$work/findings/$harness"
    log="$work/logs/$harness.log"
    mkdir -p "$corpus" "$findings" "$(dirname "$log")"
    rm -f "$findings"/*
    # Swift's own crash backtracer would race ASan's report; leaks inside the toolchain's
    # libraries are suppressed exactly as in Scripts/run-full-tests.sh.
    SWIFT_BACKTRACE=enable=no TRACESIM_FUZZ_HARNESS="$harness" \
        ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
        LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0" \
        "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -dict="$(dictionary_for "$harness")" -artifact_prefix="$findings/" \
        "$corpus" "$seeds" >"$log" 2>&1 || true
    for finding in "$findings"/*; do
        [ -f "$finding" ] || continue
        case "$finding" in *minimized*) continue ;; esac
        SWIFT_BACKTRACE=enable=no TRACESIM_FUZZ_HARNESS="$harness" \
            LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0" \
            "$binary" -minimize_crash=1 -runs=20000 -timeout=10 \
            -exact_artifact_path="$finding.minimized" "$finding" >>"$log.minimize" 2>&1 || true
    done
}

echo "== fuzzing ${#harnesses[@]} harnesses for ${seconds} s each, $jobs at a time" >&2
running=0
for harness in "${harnesses[@]}"; do
    run_harness "$harness" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

# One row per harness from libFuzzer's own counters: total executions, their rate, the
# coverage edges and features reached, the corpus kept, and findings.
status=0
printf '%-24s %12s %8s %7s %7s %7s %s\n' harness executions exec/s edges features corpus findings
for harness in "${harnesses[@]}"; do
    log="$work/logs/$harness.log"
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)
    edges=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    features=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
    found=$(find "$work/findings/$harness" -type f ! -name '*.minimized' | wc -l)
    if [ "$found" -gt 0 ] || [ -z "$executions" ]; then status=1; fi
    printf '%-24s %12s %8s %7s %7s %7s %s\n' "$harness" "${executions:-?}" "${rate:-?}" "${edges:-?}" \
        "${features:-?}" "${corpus:-?}" "$found"
done
if [ "$status" -ne 0 ]; then
    echo "fuzz: FINDINGS (or a harness that did not run): see $work/findings and $work/logs" >&2
    exit 1
fi
echo "fuzz: clean"
