#!/usr/bin/env bash
# Checks every Swift file the project owns against the committed .swift-format, warnings
# included. `swift format -i FILE` rewrites a file's layout; the rules that need a person
# (documentation, force unwraps) are then left to fix by hand. Then every import is declared
# in Package.swift (Scripts/check-imports.py).
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh
paths=(Package.swift Sources Tests/*Tests Tests/TestSupport Tests/Fuzzing/Package.swift Tests/Fuzzing/Sources
    Benchmarks/Package.swift Benchmarks/Sources)
[ -d Examples ] && paths+=(Examples/Package.swift Examples/Sources)
swift format lint --strict --recursive "${paths[@]}"
echo "swift format lint: clean"
command -v python3 >/dev/null 2>&1 || tracesim_apt_install python3
python3 Scripts/check-imports.py
