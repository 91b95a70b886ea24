#!/usr/bin/env python3
"""Runs a TraceSim matrix on a Ray cluster: one Ray task per shard of the trace inputs.

    python tracesim_ray.py --tracesim /opt/tracesim/bin/tracesim --output runs.jsonl \\
        fleet/ -- --date 2020-02-07

Every task runs `tracesim matrix --traces-from - --shard K/N --format jsonl` on the same
input list (sent on its standard input) and hands its JSON Lines back; this driver writes the
parts to a folder, joins them with `tracesim merge` into exactly what one unsharded
`matrix --format jsonl` prints, and prints `tracesim summarize` of the result. Each part ends
with the closing record tracesim writes once its run finished; merge refuses a part without
one, so a part cut short never passes for whole.

Ray places the tasks and retries them: a task whose worker or node dies, or whose tracesim
is killed by a signal (the kernel's OOM killer sends SIGKILL; tracesim dies of SIGINT or
SIGTERM too, once it ended its engines) or exits 130 or 143 (a shell's report of those two),
runs again, up to --max-retries times. A tracesim that refuses its input (exit 64 usage, 65 invalid content or
an input with no timed fix, 66 missing file) or whose engine fails (70) fails the whole run at
once with its message: running it again would fail again. There is no scheduler here.

Every node runs tracesim from the same path and reads the traces from the same paths, as
the driver sees them (relative paths resolve against --workdir): keep them on storage that
every node mounts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# tracesim's exit codes (sysexits.h).
EXIT_USAGE = 64
EXIT_DATA = 65
EXIT_NO_INPUT = 66
EXIT_IO = 74
# 128 + SIGINT or SIGTERM: how a shell between the driver and tracesim reports tracesim's
# death by those signals, and what tracesim exits with if the signal somehow left it alive.
EXIT_INTERRUPTED = (128 + signal.SIGINT, 128 + signal.SIGTERM)
# What the driver itself exits with when Ray gave up on a task (its worker or node died
# on every attempt): a temporary failure, worth running again.
EXIT_TEMPORARY = 75


class TraceSimRefused(Exception):
    """tracesim exited with an error that another attempt would repeat (bad input, usage)."""

    def __init__(self, shard: str, status: int, stderr: str) -> None:
        super().__init__(shard, status, stderr)
        self.shard, self.status, self.stderr = shard, status, stderr

    def __str__(self) -> str:
        return f"shard {self.shard}: tracesim exited with {self.status}\n{self.stderr}"


class TraceSimInterrupted(Exception):
    """tracesim was stopped by a signal or could not write its output: Ray runs the task again."""

    def __init__(self, shard: str, status: int, stderr: str) -> None:
        super().__init__(shard, status, stderr)
        self.shard, self.status, self.stderr = shard, status, stderr

    def __str__(self) -> str:
        how = f"signal {-self.status}" if self.status < 0 else f"exit {self.status}"
        return f"shard {self.shard}: tracesim stopped by {how}\n{self.stderr}"


@dataclass(frozen=True)
class Fault:
    """A fault injected into the first attempt of one shard, to test Ray's retries.

    `kind` is "worker" (the task SIGKILLs its own Ray worker process, as a lost node would
    end it) or "tracesim" (the task SIGKILLs its tracesim child, as the OOM killer would).
    The marker file records that the first attempt happened, so the retry runs normally;
    it must be on storage the retry can see.
    """

    shard: int
    kind: str
    marker: str


def run_shard(
    tracesim: str,
    workdir: str,
    inputs: bytes,
    shard: int,
    count: int,
    matrix_arguments: list[str],
    part_path: str | None,
    faults: list[Fault],
) -> tuple[bytes, bytes]:
    """One Ray task: tracesim on shard `shard` of `count`; returns its (stdout, stderr).

    With `part_path`, tracesim writes the part straight to that file (on shared storage) and
    the task returns no stdout: the part is never held in memory nor sent through Ray. It is
    written under a name of its own first and renamed when tracesim succeeds, so an attempt
    that dies leaves no part that looks whole.
    """
    name = f"{shard}/{count}"
    fault = next((fault for fault in faults if fault.shard == shard), None)
    injected = fault is not None and not os.path.exists(fault.marker)
    if injected:
        Path(fault.marker).touch()
        if fault.kind == "worker":
            os.kill(os.getpid(), signal.SIGKILL)
    command = [tracesim, "matrix", "--traces-from", "-", "--shard", name, "--format", "jsonl", *matrix_arguments]
    attempt = f"{part_path}.{socket.gethostname()}-{os.getpid()}.tmp" if part_path is not None else None
    try:
        part = open(attempt, "wb") if attempt is not None else subprocess.PIPE
        process = subprocess.Popen(command, cwd=workdir, stdin=subprocess.PIPE, stdout=part, stderr=subprocess.PIPE)
    except OSError as error:
        # The same image and mounts on every node: a node without them is a setup error.
        raise TraceSimRefused(name, EXIT_NO_INPUT, f"cannot run {tracesim} in {workdir}: {error}\n") from None
    if injected:
        process.kill()
    try:
        stdout, stderr = process.communicate(inputs)
    except BrokenPipeError:
        # The child died before reading its input; its exit status says why.
        stderr = process.stderr.read()
        stdout = process.stdout.read() if process.stdout is not None else b""
        process.wait()
    if attempt is not None:
        part.close()
        if process.returncode == 0:
            os.replace(attempt, part_path)
        else:
            os.unlink(attempt)
    if process.returncode == 0:
        return stdout or b"", stderr
    message = stderr.decode("utf-8", "replace")
    if process.returncode < 0 or process.returncode == EXIT_IO or process.returncode in EXIT_INTERRUPTED:
        raise TraceSimInterrupted(name, process.returncode, message)
    raise TraceSimRefused(name, process.returncode, message)


def read_inputs(arguments: argparse.Namespace) -> list[str]:
    """The inputs in tracesim's order: positionals, then the lines of --traces-from."""
    inputs = list(arguments.inputs)
    if arguments.traces_from is not None:
        if arguments.traces_from == "-":
            text = sys.stdin.read()
        else:
            text = Path(arguments.traces_from).read_text(encoding="utf-8")
        # tracesim skips these lines too; leaving them out keeps the input count right.
        inputs += [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return inputs


def count_files(inputs: list[str], workdir: str) -> int:
    """How many trace files the inputs can give at most: a folder gives each file under it.

    tracesim skips hidden entries and files no importer recognises; this count skips the
    hidden ones only, so it can be higher than the number of inputs tracesim runs, never lower.
    """
    total = 0
    for entry in inputs:
        path = Path(workdir, entry)
        if not path.is_dir():
            total += 1
            continue
        for folder, folders, files in os.walk(path):
            folders[:] = [name for name in folders if not name.startswith(".")]
            total += sum(1 for name in files if not name.startswith(".") and Path(folder, name).is_file())
    return total


class ArgumentParser(argparse.ArgumentParser):
    """Exits 64 on a usage error, as tracesim does, rather than argparse's 2."""

    def error(self, message: str) -> None:
        self.print_usage(sys.stderr)
        print(f"tracesim_ray: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def parse_arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    if "--" in argv:
        split = argv.index("--")
        argv, extra = argv[:split], argv[split + 1:]
    else:
        extra = []
    parser = ArgumentParser(
        description="Run `tracesim matrix` on a Ray cluster, one task per shard of the inputs, and merge the parts.",
        epilog="Arguments after -- go to every `tracesim matrix` (for example --date 2020-02-07 --fences F).")
    parser.add_argument("inputs", nargs="*", help="trace files and folders, as `tracesim matrix` takes them")
    parser.add_argument("--traces-from", metavar="FILE", help="more inputs, one path per line ('-': standard input)")
    parser.add_argument("--tracesim", default="tracesim", help="the tracesim binary, at this path on every node")
    parser.add_argument("--output", "-o", required=True, help="where the merged JSON Lines go")
    parser.add_argument("--shards", type=int,
                        help="tasks to split the inputs into (default: one per CPU, at most one per input)")
    parser.add_argument("--scenarios", help="passed to `tracesim matrix --scenarios`")
    parser.add_argument("--seed", help="passed to `tracesim matrix --seed`")
    parser.add_argument("--summary-format", default="text", choices=["text", "markdown", "csv", "html"],
                        help="the format `tracesim summarize` prints (default text)")
    parser.add_argument("--workdir", default=os.getcwd(),
                        help="where tracesim runs on every node; relative inputs resolve here (default: this folder)")
    parser.add_argument("--parts-dir", help="keep the parts in this folder (default: a temporary one, removed)")
    parser.add_argument("--shared-parts", action="store_true",
                        help="tasks write their parts straight into --parts-dir, which every node must see, "
                             "instead of sending them through Ray's object store")
    parser.add_argument("--cpus-per-task", type=int, default=1,
                        help="CPUs Ray reserves for a task, and tracesim's --jobs (default 1)")
    parser.add_argument("--memory-per-task-mb", type=int,
                        help="memory Ray reserves for a task (about 100 MB per million fixes of the largest trace)")
    parser.add_argument("--max-retries", type=int, default=3,
                        help="attempts after the first for a task whose worker, node or tracesim was killed "
                             "(default 3)")
    parser.add_argument("--address", help="the Ray cluster to join (default: RAY_ADDRESS, else a local instance)")
    parser.add_argument("--num-cpus", type=int, help="CPUs of a local Ray instance (default: every core)")
    parser.add_argument("--object-store-mb", type=int, help="object store of a local Ray instance")
    parser.add_argument("--test-kill-first-attempt", metavar="K:worker|K:tracesim", action="append", default=[],
                        help="testing Ray's retries: the first attempt of shard K kills its worker or its tracesim "
                             "(repeatable; the markers go to the parts folder)")
    return parser.parse_args(argv), extra


def main(argv: list[str]) -> int:
    arguments, extra = parse_arguments(argv)
    started = time.monotonic()
    workdir = os.path.abspath(arguments.workdir)
    tracesim = shutil.which(arguments.tracesim) or arguments.tracesim
    tracesim = os.path.abspath(tracesim) if os.sep in tracesim else tracesim
    try:
        inputs = read_inputs(arguments)
    except OSError as error:
        print(f"tracesim_ray: {arguments.traces_from}: {error.strerror}", file=sys.stderr)
        return EXIT_NO_INPUT
    if not inputs:
        print("tracesim_ray: no inputs: give trace files or folders, or --traces-from FILE", file=sys.stderr)
        return EXIT_USAGE
    if arguments.shared_parts and arguments.parts_dir is None:
        print("tracesim_ray: --shared-parts needs --parts-dir, a folder every node sees", file=sys.stderr)
        return EXIT_USAGE
    if arguments.shards is not None and arguments.shards < 1:
        print(f"tracesim_ray: --shards must be at least 1, not {arguments.shards}", file=sys.stderr)
        return EXIT_USAGE
    if os.sep in tracesim and not os.access(tracesim, os.X_OK):
        print(f"tracesim_ray: {tracesim}: not an executable file (--tracesim)", file=sys.stderr)
        return EXIT_NO_INPUT
    if not os.path.isdir(os.path.dirname(os.path.abspath(arguments.output))):
        print(f"tracesim_ray: {arguments.output}: its folder does not exist (--output)", file=sys.stderr)
        return EXIT_NO_INPUT
    matrix_arguments = ["--jobs", str(arguments.cpus_per_task)]
    if arguments.scenarios is not None:
        matrix_arguments += ["--scenarios", arguments.scenarios]
    if arguments.seed is not None:
        matrix_arguments += ["--seed", arguments.seed]
    matrix_arguments += extra

    # Ray prints its workers' and its own messages on standard output; they go to standard
    # error, so that standard output carries the summary alone and can be redirected.
    summary_output = os.dup(sys.stdout.fileno())
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    # Imported here so that --help and usage errors do not pay for Ray's import.
    import ray

    init: dict = {"include_dashboard": False, "logging_level": "WARNING"}
    if arguments.address is not None:
        init["address"] = arguments.address
    if arguments.num_cpus is not None:
        init["num_cpus"] = arguments.num_cpus
    if arguments.object_store_mb is not None:
        init["object_store_memory"] = arguments.object_store_mb * 1024 * 1024
    for attempt in (1, 2):
        try:
            ray.init(**init)
            break
        # Ray raises a bare Exception when its daemons do not register within its fixed 30 s,
        # which a loaded machine can take; a local instance is worth one more start.
        except Exception as error:
            if arguments.address is not None or attempt == 2:
                raise
            print(f"tracesim_ray: the local Ray instance did not start ({error}); starting it again", file=sys.stderr)
            ray.shutdown()
    ray_started = time.monotonic()
    parts_dir = arguments.parts_dir or tempfile.mkdtemp(prefix="tracesim-ray-")
    os.makedirs(parts_dir, exist_ok=True)
    try:
        return run(arguments, ray, tracesim, workdir, inputs, matrix_arguments, parts_dir, summary_output, started,
                   ray_started)
    finally:
        if arguments.parts_dir is None:
            shutil.rmtree(parts_dir, ignore_errors=True)
        ray.shutdown()


def run(arguments, ray, tracesim, workdir, inputs, matrix_arguments, parts_dir, summary_output, started,
        ray_started) -> int:
    cpus = int(ray.cluster_resources().get("CPU", 1))
    files = count_files(inputs, workdir)
    count = arguments.shards or max(1, min(cpus // max(1, arguments.cpus_per_task), files))
    faults = []
    for text in arguments.test_kill_first_attempt:
        shard, _, kind = text.partition(":")
        if not shard.isdigit() or not 1 <= int(shard) <= count or kind not in ("worker", "tracesim"):
            print(f"tracesim_ray: --test-kill-first-attempt takes K:worker or K:tracesim with K in 1...{count}, "
                  f"not '{text}'", file=sys.stderr)
            return EXIT_USAGE
        faults.append(Fault(int(shard), kind, os.path.join(parts_dir, f"killed-{shard}")))

    options: dict = {
        "num_cpus": arguments.cpus_per_task,
        "max_retries": arguments.max_retries,
        # Only a killed tracesim is worth another attempt; a refusal is final.
        "retry_exceptions": [TraceSimInterrupted],
    }
    if arguments.memory_per_task_mb is not None:
        options["memory"] = arguments.memory_per_task_mb * 1024 * 1024
    task = ray.remote(run_shard).options(**options)
    listed = "".join(f"{entry}\n" for entry in inputs).encode("utf-8")
    width = len(str(count))
    parts = {k: os.path.join(parts_dir, f"part-{k:0{width}d}-of-{count}.jsonl") for k in range(1, count + 1)}
    shared = arguments.shared_parts
    pending = {
        task.remote(tracesim, workdir, listed, shard, count, matrix_arguments, parts[shard] if shared else None,
                    faults): shard
        for shard in range(1, count + 1)
    }
    notes: set[str] = set()
    while pending:
        [done], _ = ray.wait(list(pending), num_returns=1)
        shard = pending.pop(done)
        try:
            stdout, stderr = ray.get(done)
        except ray.exceptions.RayTaskError as error:
            for other in pending:
                ray.cancel(other, force=True)
            cause = error.cause
            if isinstance(cause, (TraceSimRefused, TraceSimInterrupted)):
                sys.stderr.write(cause.stderr)
                how = f"exited with {cause.status}" if cause.status > 0 else f"was killed by signal {-cause.status}"
                print(f"tracesim_ray: shard {cause.shard} failed: tracesim {how}", file=sys.stderr)
                return cause.status if cause.status > 0 else EXIT_TEMPORARY
            print(f"tracesim_ray: shard {shard}/{count} failed: {error}", file=sys.stderr)
            return EXIT_TEMPORARY
        except ray.exceptions.RayError as error:
            for other in pending:
                ray.cancel(other, force=True)
            print(f"tracesim_ray: shard {shard}/{count} failed after {arguments.max_retries} retries: {error}",
                  file=sys.stderr)
            return EXIT_TEMPORARY
        if not shared:
            with open(parts[shard], "wb") as part:
                part.write(stdout)
        # Every shard walks the same folders and says the same notes: print each once.
        for line in stderr.decode("utf-8", "replace").splitlines():
            if line not in notes:
                notes.add(line)
                print(line, file=sys.stderr)
    tasks_done = time.monotonic()

    output = os.path.abspath(arguments.output)
    with open(output, "wb") as merged:
        merge = subprocess.run([tracesim, "merge", *(parts[k] for k in sorted(parts))], stdout=merged,
                               stderr=subprocess.PIPE)
    if merge.returncode != 0:
        os.unlink(output)
        sys.stderr.write(merge.stderr.decode("utf-8", "replace"))
        print(f"tracesim_ray: tracesim merge refused the parts (exit {merge.returncode})", file=sys.stderr)
        return merge.returncode
    merged_at = time.monotonic()
    summary = subprocess.run([tracesim, "summarize", output, "--format", arguments.summary_format],
                             stdout=summary_output)
    finished = time.monotonic()
    print(
        f"tracesim_ray: {count} shards on {cpus} CPUs; Ray start {ray_started - started:.2f} s, "
        f"tasks {tasks_done - ray_started:.2f} s, merge {merged_at - tasks_done:.2f} s, "
        f"summarize {finished - merged_at:.2f} s",
        file=sys.stderr)
    return summary.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
