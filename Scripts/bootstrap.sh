#!/usr/bin/env bash
# Installs what TraceSim needs to build and test, and only what is missing:
#   - a Swift 6 toolchain (found on PATH or in /opt/swift; never downloaded from elsewhere),
#   - libgeos-dev (geofence geometry), libxml2-dev (GPX/TCX/KML), zlib1g-dev (gzip input),
#     pkg-config.
# Debian and Ubuntu use apt-get (as root, or through sudo); macOS uses Homebrew.
# Source it (`. Scripts/bootstrap.sh`) or run it; it changes nothing that is already there.
# Strict mode only when run as a script: sourced, it must not change the caller's shell.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then set -euo pipefail; fi

tracesim_log() { printf 'bootstrap: %s\n' "$*" >&2; }

tracesim_find_swift() {
    if command -v swift >/dev/null 2>&1; then return 0; fi
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin "$HOME/.swiftly/bin" "$HOME/.local/share/swiftly/bin"; do
        if [ -x "$candidate/swift" ]; then
            export PATH="$candidate:$PATH"
            return 0
        fi
    done
    return 1
}

tracesim_apt_install() {
    local runner=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then runner=(sudo); else
            tracesim_log "need root or sudo to install: $*"
            return 1
        fi
    fi
    # A fresh machine has no package lists yet; refresh them once before installing.
    if [ -z "${TRACESIM_APT_UPDATED:-}" ]; then
        "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        export TRACESIM_APT_UPDATED=1
    fi
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# Builds the benchmark runner in release mode. SwiftPM plans a path dependency's sources
# once, so the plan is forgotten first: files added to the root package since the last
# benchmark build are then seen.
tracesim_build_benchmarks() {
    rm -f Benchmarks/.build/release.yaml Benchmarks/.build/release/description.json
    swift build -c release --package-path Benchmarks --product tracesim-bench >&2
}

# Prints the path of the `tracesim` the check scripts run: $TRACESIM when it is set (CI's slow
# tier builds one release binary and passes it to every script), otherwise the debug build,
# built now.
tracesim_binary() {
    if [ -n "${TRACESIM:-}" ]; then
        if [ ! -x "$TRACESIM" ]; then
            tracesim_log "TRACESIM=$TRACESIM is not an executable"
            return 1
        fi
        # Absolute, so that a script that changes folder, or hands it to Ray's workers, still finds it.
        case "$TRACESIM" in
        /*) printf '%s\n' "$TRACESIM" ;;
        *) printf '%s\n' "$PWD/$TRACESIM" ;;
        esac
        return 0
    fi
    swift build --product tracesim >&2
    printf '%s\n' "$PWD/.build/debug/tracesim"
}

tracesim_bootstrap() {
    case "$(uname -s)" in
    Darwin)
        if ! command -v brew >/dev/null 2>&1; then
            tracesim_log "Homebrew is needed on macOS: https://brew.sh, then rerun."
            return 1
        fi
        for formula in geos libxml2 zlib pkg-config; do
            brew list --versions "$formula" >/dev/null 2>&1 || brew install "$formula"
        done
        # Homebrew keeps libxml2 and zlib keg-only: point pkg-config at them.
        export PKG_CONFIG_PATH="$(brew --prefix libxml2)/lib/pkgconfig:$(brew --prefix zlib)/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
        ;;
    Linux)
        local missing=()
        command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
        pkg-config --exists geos 2>/dev/null || missing+=(libgeos-dev)
        pkg-config --exists libxml-2.0 2>/dev/null || missing+=(libxml2-dev)
        pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
        if [ "${#missing[@]}" -gt 0 ]; then
            tracesim_log "installing ${missing[*]}"
            tracesim_apt_install "${missing[@]}"
        fi
        ;;
    esac

    if ! tracesim_find_swift; then
        # Debian 13 and Ubuntu 24.04+ package the toolchain as swiftlang.
        if command -v apt-cache >/dev/null 2>&1 && apt-cache show swiftlang >/dev/null 2>&1; then
            tracesim_log "installing swiftlang"
            tracesim_apt_install swiftlang
        fi
    fi
    if ! tracesim_find_swift; then
        tracesim_log "no Swift toolchain found. Install Swift 6 from https://www.swift.org/install and rerun."
        return 1
    fi
    local version
    version=$(swift --version 2>/dev/null | head -n 1)
    case "$version" in
    *"version 6."*) ;;
    *) tracesim_log "warning: TraceSim needs Swift 6; found: $version" ;;
    esac
}

tracesim_bootstrap
