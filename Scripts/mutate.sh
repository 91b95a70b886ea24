#!/usr/bin/env bash
# Mutation testing by hand, made repeatable: applies each mutant of a list, one at a time, to a
# scratch copy of the tree (never the working files), builds it, runs the tests that should
# kill it, and reports per mutant whether they did.
#
#   Scripts/mutate.sh [LIST] [NAME...]
#
# LIST defaults to Scripts/mutants.txt; NAMEs run only those mutants. One mutant per line,
# five fields separated by TABs (so snippets may hold spaces, '|' and quotes):
#
#   name  file  original  replacement  test-filter
#
# `original` must occur exactly once in `file` (a stale or ambiguous mutant is reported as
# such, not silently skipped). `test-filter` goes to `swift test --filter`. '#' starts a
# comment line.
#
# Before any mutant, the unmutated copy must build and pass every filter: a failing baseline
# would make every mutant look killed. A mutant that does not compile is reported as
# `invalid`, one whose tests run past MUTATE_TIMEOUT seconds (600) as killed by timeout.
#
# MUTATE_SCRATCH names a folder to keep the copy and its build in between runs (incremental
# builds); by default a temporary one is made and removed. Exit status: 0 when every mutant is
# killed, 1 when any survives or is invalid, 2 on a bad list or a failing baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh
set +e

list=${1:-Scripts/mutants.txt}
[ $# -gt 0 ] && shift
only=("$@")
timeout_seconds=${MUTATE_TIMEOUT:-600}
if [ ! -f "$list" ]; then
    echo "mutate: no mutant list at $list" >&2
    exit 2
fi

if [ -n "${MUTATE_SCRATCH:-}" ]; then
    scratch=$MUTATE_SCRATCH
    mkdir -p "$scratch"
else
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
fi
tree=$scratch/tree
mkdir -p "$tree"
# A fresh copy of the tracked and new files, keeping an earlier copy's build folder.
find "$tree" -mindepth 1 -maxdepth 1 ! -name .build -exec rm -rf {} +
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$tree"
log=$scratch/log
echo "mutate: scratch copy in $tree" >&2

build() { swift build --build-tests --package-path "$tree" >"$log" 2>&1; }
run_tests() {
    timeout "$timeout_seconds" swift test --skip-build --package-path "$tree" --filter "$1" >"$log" 2>&1
}

# Read the list: name, file, original, replacement, filter.
names=() files=() originals=() replacements=() filters=()
line_number=0
while IFS= read -r line || [ -n "$line" ]; do
    line_number=$((line_number + 1))
    case "$line" in '' | '#'*) continue ;; esac
    IFS=$'\t' read -r name file original replacement filter extra <<<"$line"
    if [ -z "$filter" ] || [ -n "${extra:-}" ]; then
        echo "mutate: $list:$line_number: expected five TAB-separated fields" >&2
        exit 2
    fi
    if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
    names+=("$name") files+=("$file") originals+=("$original") replacements+=("$replacement")
    filters+=("$filter")
done <"$list"
if [ ${#names[@]} -eq 0 ]; then
    echo "mutate: no mutants to run" >&2
    exit 2
fi

echo "mutate: baseline build and tests" >&2
if ! build; then
    tail -n 20 "$log" >&2
    echo "mutate: the unmutated tree does not build" >&2
    exit 2
fi
# A filter that matches no test passes whatever the code does: refuse it.
if ! swift test list --skip-build --package-path "$tree" >"$scratch/tests" 2>"$log"; then
    tail -n 20 "$log" >&2
    echo "mutate: could not list the tests" >&2
    exit 2
fi
for filter in "${filters[@]}"; do
    if ! grep -qE -- "$filter" "$scratch/tests"; then
        echo "mutate: the filter '$filter' matches no test" >&2
        exit 2
    fi
done
all_filters=$(printf '%s\n' "${filters[@]}" | sort -u | paste -sd '|')
if ! run_tests "$all_filters"; then
    grep -E '✘|error:' "$log" | head -n 20 >&2
    echo "mutate: the unmutated tree fails the filters; fix that first" >&2
    exit 2
fi

killed=0 survived=0 invalid=0
printf '%-28s %-9s %s\n' "mutant" "result" "file (tests)"
for index in "${!names[@]}"; do
    name=${names[$index]} file=${files[$index]} original=${originals[$index]}
    replacement=${replacements[$index]} filter=${filters[$index]}
    target=$tree/$file
    result=""
    if [ ! -f "$target" ]; then
        result="invalid" note="no such file"
    else
        content=$(cat "$target"; printf x)
        content=${content%x}
        rest=${content#*"$original"}
        if [ "$rest" = "$content" ]; then
            result="invalid" note="original not found"
        elif [[ "$rest" == *"$original"* ]]; then
            result="invalid" note="original occurs more than once"
        fi
    fi
    if [ -z "$result" ]; then
        cp "$target" "$scratch/original"
        printf '%s' "${content/"$original"/"$replacement"}" >"$target"
        if ! build; then
            result="invalid" note="does not compile"
        elif run_tests "$filter"; then
            result="survived" note=""
        else
            status=$?
            result="killed" note=""
            [ "$status" -eq 124 ] && note="timeout"
        fi
        # Restored with a new modification time, so the next build sees the change back.
        cat "$scratch/original" >"$target"
    fi
    case "$result" in
    killed) killed=$((killed + 1)) ;;
    survived) survived=$((survived + 1)) ;;
    *) invalid=$((invalid + 1)) ;;
    esac
    printf '%-28s %-9s %s (%s)%s\n' "$name" "$result" "$file" "$filter" "${note:+: $note}"
done
total=${#names[@]}
echo "$total mutants: $killed killed, $survived survived, $invalid invalid"
[ "$survived" -eq 0 ] && [ "$invalid" -eq 0 ]
