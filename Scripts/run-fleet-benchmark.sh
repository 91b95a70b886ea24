#!/usr/bin/env bash
# The fleet benchmark (issue 18): the release `tracesim` binary over a generated fleet of
# one-hour 1 Hz drives through every preset, on one and two workers (replayed fixes/s, wall
# time, peak resident memory of the process), then the peak memory of `matrix` over 10, 100
# and 1,000 ten-minute drives, which must stay flat. Not part of CI: it takes about five
# minutes on two cores and its wall times move with whatever else the machine runs.
#
#   Scripts/run-fleet-benchmark.sh                      2,000 drives (the issue's fleet)
#   Scripts/run-fleet-benchmark.sh --fleet-drives 200   a smaller fleet
#   Scripts/run-fleet-benchmark.sh --ray-command '...'  Ray too (Benchmarks/README.md)
#
# Extra arguments go to `tracesim-bench run` (see its --help). The fleets are written once to
# .build/bench-inputs and reused; the report goes to Benchmarks/Results/fleet.md and .json.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

# GNU time measures the peak memory: a child's own wait4 figure includes its parent's peak.
[ -x /usr/bin/time ] || tracesim_apt_install time
swift build -c release --product tracesim >&2
tracesim_build_benchmarks
mkdir -p Benchmarks/Results
# Each case is one long run of a child process: the harness's repeats would multiply minutes.
exec Benchmarks/.build/release/tracesim-bench run --suites fleet --root . --runs 1 --warmups 0 \
    --tracesim .build/release/tracesim --work .build/bench-inputs \
    --json Benchmarks/Results/fleet.json --markdown Benchmarks/Results/fleet.md "$@"
