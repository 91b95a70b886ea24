#!/usr/bin/env bash
# TraceSim against its peers, in one run on this machine: builds the benchmark package in
# release mode, makes a Python venv with the peers from PyPI (gpxpy, pandas, shapely, NumPy:
# Benchmarks/peers/requirements.txt), and prints the side-by-side table with ratios. Every
# peer's answer is checked against TraceSim's; a wrong answer fails the run.
#
# The report is also written to Benchmarks/Results/latest.md and latest.json. Extra
# arguments go to `tracesim-bench run` (see `--help`), for example `--suites import` or
# `--sizes 10000,100000`. Takes about five minutes with the defaults (the first run also builds and installs the peers).
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

venv=.build/bench-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import gpxpy, pandas, shapely, numpy' 2>/dev/null; then
    tracesim_log "creating $venv with the peers from PyPI"
    if ! python3 -m venv "$venv" 2>/dev/null; then
        # Debian splits venv out of its Python.
        tracesim_apt_install python3-venv python3-pip
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r Benchmarks/peers/requirements.txt
fi

tracesim_build_benchmarks

mkdir -p Benchmarks/Results
exec Benchmarks/.build/release/tracesim-bench run --python "$venv/bin/python" --root . \
    --work .build/bench-inputs --json Benchmarks/Results/latest.json --markdown Benchmarks/Results/latest.md "$@"
