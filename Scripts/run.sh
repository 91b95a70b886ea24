#!/usr/bin/env bash
# Installs what is missing, builds TraceSim in release mode, and runs the main job on the
# bundled traces: the permission-level matrix, every trace through every preset scenario,
# compared with the ideal run. Extra arguments go to `tracesim matrix` (for example
# `--format json` or `--scenarios wheninuse-locked,always-force-quit`).
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

swift build -c release --product tracesim >&2

traces=()
while IFS= read -r file; do traces+=("$file"); done < <(
    find Traces -type f ! -path 'Traces/LICENSES/*' ! -name '*.md' | LC_ALL=C sort)

# --date only dates logs that never date themselves: here the NovAtel SPAN reference log,
# whose every RMC fails its checksum. The drive was on 2020-02-07 UTC, as the RMC
# sentences of its u-blox twin record.
exec .build/release/tracesim matrix --date 2020-02-07 "$@" "${traces[@]}"
