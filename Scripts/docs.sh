#!/usr/bin/env bash
# Builds the documentation as one DocC archive, .build/docs/TraceSim.doccarchive: the articles of
# Documentation/TraceSim.docc (the catalogue of the `TraceSim` umbrella) and the API reference of
# every public library module. The toolchain ships `docc` and `swift-symbolgraph-extract` but no
# DocC plugin, so this script extracts the symbol graphs from the debug build itself, converts
# each module on its own (links across catalogues would warn) and merges the archives.
# Any DocC warning fails it. View the result with any static file server, for example
# `python3 -m http.server -d .build/docs/TraceSim.doccarchive` and /documentation/tracesim.
# TRACESIM_DOCS_CONFIGURATION=release reads the modules of a release build instead (CI's slow
# tier has one already); the default is debug, which the fast tier builds.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh
command -v python3 >/dev/null 2>&1 || tracesim_apt_install python3
configuration=${TRACESIM_DOCS_CONFIGURATION:-debug}

started=$SECONDS
out=.build/docs
rm -rf "$out"
mkdir -p "$out/symbol-graphs" "$out/archives" "$out/logs"

swift build -c "$configuration" 2>&1 | tail -n 3
bin=$(swift build -c "$configuration" --show-bin-path)
modules_dir=$bin/Modules
[ -d "$modules_dir" ] || modules_dir=$bin

# The library products' modules and the system libraries' include flags, from the manifest.
swift package dump-package > "$out/package.json"
read -r -a libraries < <(python3 - "$out/package.json" <<'PYTHON'
import json, sys

package = json.load(open(sys.argv[1]))
names = {target for product in package["products"] if "library" in product["type"] for target in product["targets"]}
print(" ".join(sorted(names)))
PYTHON
)
read -r -a include_flags < <(python3 - "$out/package.json" <<'PYTHON'
import json, os, subprocess, sys

package = json.load(open(sys.argv[1]))
flags = []
for target in package["targets"]:
    # A C target with a module map of its own (CWallClock) is found through its include folder.
    own_map = os.path.join(target.get("path") or "Sources/" + target["name"], "include", "module.modulemap")
    if target["type"] == "regular" and os.path.exists(own_map):
        flags += ["-I", os.path.dirname(own_map)]
        continue
    if target["type"] != "system":
        continue
    flags += ["-I", target.get("path") or "Sources/" + target["name"]]
    if target.get("pkgConfig"):
        cflags = subprocess.run(["pkg-config", "--cflags-only-I", target["pkgConfig"]], capture_output=True, text=True).stdout
        for flag in cflags.split():
            flags += ["-Xcc", flag]
print(" ".join(flags))
PYTHON
)

target=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
failed=0
archives=()
for module in "${libraries[@]}"; do
    graphs=$out/symbol-graphs/$module
    mkdir -p "$graphs"
    swift-symbolgraph-extract -module-name "$module" -target "$target" -I "$modules_dir" "${include_flags[@]}" \
        -minimum-access-level public -skip-inherited-docs -output-dir "$graphs"
    log=$out/logs/$module.log
    if [ "$module" = TraceSim ]; then
        catalogue=(Documentation/TraceSim.docc)
    elif ! ls "$graphs"/*@*.symbols.json > /dev/null 2>&1 && grep -q '"symbols":\[\]' "$graphs/$module.symbols.json"; then
        echo "$module: re-exports other modules and declares nothing of its own; no page"
        continue
    else
        catalogue=()
    fi
    if docc convert "${catalogue[@]}" --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.tracesim.$module" \
        --output-path "$out/archives/$module.doccarchive" --warnings-as-errors > "$log" 2>&1 \
        && ! grep -qiE '^(warning|error)' "$log"; then
        archives+=("$out/archives/$module.doccarchive")
    else
        cat "$log" >&2
        echo "error: docc reported problems in $module (above)" >&2
        failed=1
    fi
done
[ "$failed" -eq 0 ] || exit 1

docc merge "${archives[@]}" --synthesized-landing-page-name TraceSim \
    --output-path "$out/TraceSim.doccarchive" > "$out/logs/merge.log" 2>&1 || { cat "$out/logs/merge.log" >&2; exit 1; }
if grep -qiE '^(warning|error)' "$out/logs/merge.log"; then
    cat "$out/logs/merge.log" >&2
    exit 1
fi
echo "documentation: ${#archives[@]} modules, 0 warnings, $out/TraceSim.doccarchive in $((SECONDS - started)) s"
