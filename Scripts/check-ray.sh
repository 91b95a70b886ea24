#!/usr/bin/env bash
# The Ray driver (Integrations/ray) end to end on a local Ray instance with two CPUs:
#   1. the merged JSON Lines of a Ray run over the Traces folder (walked by every task) are
#      the bytes that one `tracesim matrix --format jsonl` over every bundled trace prints,
#      closing record included, and the driver's summary (`tracesim summarize`) is the text
#      `tracesim matrix` prints; every part ends with its closing record, and a part without
#      one (a task stopped before its end) is refused by `tracesim merge`, naming it;
#   2. the same bytes when the first attempt of one task kills its own Ray worker and the
#      first attempt of another kills its tracesim, and Ray runs both again;
#   3. a missing trace fails the Ray run with tracesim's exit code (66) and message, without
#      a retry;
#   4. the README's DuckDB query over the Ray run's JSON Lines gives the `collected` column
#      of the summary;
#   5. the GitHub Actions and Kubernetes examples parse as YAML and keep the shard contract.
# Runs $TRACESIM when it is set (CI's one release build), otherwise builds and runs the debug
# one. Wall times go to standard output. The pinned requirements go into a venv under .build
# (kept while requirements.txt is unchanged); python3-venv is installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bootstrap.sh

python=python3
if command -v python3.11 >/dev/null 2>&1; then python=python3.11; fi
missing=()
command -v "$python" >/dev/null 2>&1 || missing+=(python3)
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then missing+=(python3-venv); fi
if [ "${#missing[@]}" -gt 0 ]; then
    tracesim_log "installing ${missing[*]}"
    tracesim_apt_install "${missing[@]}"
fi
ts=$(tracesim_binary)

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f s", b - a }'; }

# The requirements pin wheels for one Python version; a venv made by another is made again.
requirements=(Integrations/ray/requirements.txt Integrations/ray/requirements-check.txt)
venv=.build/ray-venv
stamp="$(cat "${requirements[@]}" | sha256sum | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.version)')"
start=$(now)
if [ "$(cat "$venv/.requirements" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
        -r "${requirements[0]}" -r "${requirements[1]}" >&2
    printf '%s' "$stamp" >"$venv/.requirements"
    echo "venv with Ray $("$venv/bin/python" -c 'import ray; print(ray.__version__)'): installed in $(since "$start")"
else
    echo "venv with Ray $("$venv/bin/python" -c 'import ray; print(ray.__version__)'): reused"
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# No usage reports leave the machine, and no token is written to the home folder: a local
# instance that lives for one run needs neither.
export RAY_USAGE_STATS_ENABLED=0 RAY_AUTH_MODE=disabled
mapfile -t traces < <(find Traces -type f ! -path 'Traces/LICENSES/*' ! -name '*.md' | LC_ALL=C sort)
arguments=(--date 2020-02-07)

start=$(now)
"$ts" matrix "${traces[@]}" "${arguments[@]}" --format jsonl >"$out/single.jsonl"
echo "tracesim matrix --format jsonl, one process: $(since "$start") ($(wc -l <"$out/single.jsonl") lines)"
"$ts" matrix "${traces[@]}" "${arguments[@]}" >"$out/single.txt"

ray_run() { # NAME DRIVER-ARGUMENTS-AND-INPUTS...: the driver on a local two-CPU Ray instance
    local name=$1 status=0
    shift
    "$venv/bin/python" Integrations/ray/tracesim_ray.py --tracesim "$ts" --num-cpus 2 --object-store-mb 256 \
        --output "$out/$name.jsonl" "$@" -- "${arguments[@]}" >"$out/$name.txt" 2>"$out/$name.err" ||
        status=$?
    if [ "$status" -ne 0 ] && [ "$name" != refused ]; then
        echo "error: the Ray run ($name) exited $status" >&2
        cat "$out/$name.err" >&2
    fi
    return "$status"
}

same() { # NAME: the Ray run's merged runs and summary against the single process
    local name=$1
    if ! cmp -s "$out/single.jsonl" "$out/$name.jsonl"; then
        echo "error: the Ray run's runs ($name) differ from one tracesim matrix --format jsonl" >&2
        cat "$out/$name.err" >&2
        diff "$out/single.jsonl" "$out/$name.jsonl" | head -10 >&2 || true
        exit 1
    fi
    if ! cmp -s "$out/single.txt" "$out/$name.txt"; then
        echo "error: tracesim summarize of the Ray run ($name) differs from tracesim matrix's text" >&2
        cat "$out/$name.err" >&2
        diff "$out/single.txt" "$out/$name.txt" | head -10 >&2 || true
        exit 1
    fi
}

# The folder, walked by every task, gives the same runs as the files listed one by one.
start=$(now)
ray_run ray --parts-dir "$out/parts" Traces
same ray
shards=$(find "$out/parts" -name 'part-*' | wc -l)
echo "Ray, $shards tasks on 2 CPUs: same runs and summary in $(since "$start")" \
    "($(grep '^tracesim_ray:' "$out/ray.err"))"

closing() { # FILE: whether its last line is a closing record
    tail -n 1 "$1" | grep -q '^{"kind":"tracesim-runs-end",'
}
# The whole run's closing record accounts for every bundled trace, each read (all are dated).
"$venv/bin/python" - "$out/ray.jsonl" "${#traces[@]}" <<'PYTHON'
import json
import sys

with open(sys.argv[1], "rb") as runs:
    record = json.loads(runs.read().rstrip(b"\n").rsplit(b"\n", 1)[-1])
count = int(sys.argv[2])
expected = {"kind": "tracesim-runs-end", "inputs": count, "read": count, "skipped": [], "failed": []}
if any(record.get(key) != value for key, value in expected.items()):
    sys.exit(f"error: the Ray run's closing record does not account for all {count} inputs as read: {record}")
PYTHON
mapfile -t parts < <(find "$out/parts" -name 'part-*' | LC_ALL=C sort)
for part in "${parts[@]}"; do
    closing "$part" || { echo "error: $part does not end with its closing record" >&2; exit 1; }
done
# A part stopped before its end: its runs, without the closing record.
head -n -1 "${parts[0]}" >"$out/stopped.jsonl"
status=0
"$ts" merge "$out/stopped.jsonl" "${parts[@]:1}" >/dev/null 2>"$out/stopped.err" || status=$?
if [ "$status" -ne 65 ] || ! grep -q "^error: $out/stopped.jsonl: ends at line .* without the closing record" \
    "$out/stopped.err"; then
    echo "error: merge should refuse a part without its closing record with 65, naming it; got $status:" >&2
    cat "$out/stopped.err" >&2
    exit 1
fi
echo "every part ends with its closing record; one stopped before it is refused by merge (65)"

start=$(now)
# The parts go straight to the folder here, so a killed attempt's half-written part is
# on disk when the retry writes its own.
ray_run retried --parts-dir "$out/retried" --shared-parts \
    --test-kill-first-attempt 1:worker --test-kill-first-attempt 2:tracesim "${traces[@]}"
same retried
if [ "$(find "$out/retried" -name 'part-*' | wc -l)" -ne 2 ]; then
    echo "error: a killed attempt left a part behind:" $(ls "$out/retried") >&2
    exit 1
fi
for part in "$out"/retried/part-*; do
    closing "$part" || { echo "error: the retried $part does not end with its closing record" >&2; exit 1; }
done
for marker in killed-1 killed-2; do
    if [ ! -e "$out/retried/$marker" ]; then
        echo "error: the first attempt that should have been killed ($marker) never ran" >&2
        exit 1
    fi
done
echo "Ray with task 1's worker and task 2's tracesim killed on their first attempts, both retried:" \
    "same runs and summary in $(since "$start")"

start=$(now)
status=0
ray_run refused --shards 2 Traces/missing.nmea "${traces[@]}" || status=$?
if [ "$status" -ne 66 ] || ! grep -q 'Traces/missing.nmea' "$out/refused.err"; then
    echo "error: a missing trace should fail the Ray run with 66 and name the file; got $status:" >&2
    cat "$out/refused.err" >&2
    exit 1
fi
if grep -q 'will be retried' "$out/refused.err"; then
    echo "error: Ray retried a task that tracesim refused:" >&2
    cat "$out/refused.err" >&2
    exit 1
fi
echo "a missing trace: the Ray run exits 66 naming it, without a retry, in $(since "$start")"

# The README's query, run on the Ray run's output, against the table's `collected` column
# (the scenario rows: the ideal rows are not runs).
"$venv/bin/python" - "$out/ray.jsonl" "$out/ray.txt" <<'PYTHON'
import sys

import duckdb

rows = duckdb.sql(f"""SELECT scenario, sum(metrics.acceptedFixes) / sum(metrics.idealAcceptedFixes) AS collected
    FROM read_json_auto('{sys.argv[1]}') WHERE scenario IS NOT NULL GROUP BY scenario ORDER BY collected""").fetchall()
table = {}
for line in open(sys.argv[2]).read().split("\n\n")[0].splitlines()[3:]:
    words = line.split()
    table[words[0]] = " ".join(words[1:3])
wrong = [(name, f"{100 * collected:.1f} %", table.get(name)) for name, collected in rows
         if f"{100 * collected:.1f} %" != table.get(name)]
if not rows or wrong:
    sys.exit(f"error: the README's DuckDB query disagrees with the summary's collected column: {wrong or 'no rows'}")
print(f"DuckDB over the Ray run's runs.jsonl: the collected share of all {len(rows)} scenarios, as the summary prints")
PYTHON

examples=(Integrations/github-actions/matrix.yml Integrations/kubernetes/{indexed-job,ray-job}.yaml)
"$venv/bin/python" - "${examples[@]}" <<'PYTHON'
"""The examples keep the shard contract: every shard K of N runs, and a merge follows."""
import re
import sys

import yaml

workflow = yaml.safe_load(open(sys.argv[1]))
jobs = workflow["jobs"]
shard_jobs = [job for job in jobs.values() if "shard" in job.get("strategy", {}).get("matrix", {})]
assert len(shard_jobs) == 1, "one job with a matrix of shards"
shard_steps = " ".join(step.get("run", "") for step in shard_jobs[0]["steps"])
assert "--shard ${{ matrix.shard }}/" in shard_steps and "--format jsonl" in shard_steps, shard_steps
merge_steps = " ".join(step.get("run", "") for job in jobs.values() for step in job.get("steps", []))
assert "tracesim merge" in merge_steps and "tracesim summarize" in merge_steps, "a merge job"

documents = [document for document in yaml.safe_load_all(open(sys.argv[2])) if document]
indexed = [d for d in documents if d["kind"] == "Job" and d["spec"].get("completionMode") == "Indexed"]
assert len(indexed) == 1, "one Indexed Job"
spec = indexed[0]["spec"]
command = " ".join(" ".join(c.get("command", []) + c.get("args", [])) for c in spec["template"]["spec"]["containers"])
count = re.search(r"--shard \"?\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/(\d+)", command)
assert count and int(count.group(1)) == spec["completions"], f"--shard K/{spec['completions']} in {command}"
merges = [d for d in documents if d["kind"] == "Job" and d is not indexed[0]]
assert any("tracesim merge" in str(d["spec"]["template"]) for d in merges), "a merge Job"

[ray_job] = yaml.safe_load_all(open(sys.argv[3]))
assert ray_job["kind"] == "RayJob" and "tracesim_ray.py" in ray_job["spec"]["entrypoint"], "a RayJob running the driver"
print(f"examples: the workflow's shard matrix and merge job, the Indexed Job's {spec['completions']} shards and"
      " merge Job, the RayJob")
PYTHON
