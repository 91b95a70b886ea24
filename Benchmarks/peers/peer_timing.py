"""Timing shared by the peer scripts: the same plan as the Swift harness (warm-up runs, then
timed runs of the work alone, setup outside), and one JSON object on standard output that
tracesim-bench reads and checks against its own answer."""

import argparse
import json
import sys
import time


def arguments(description, *inputs):
    parser = argparse.ArgumentParser(description=description)
    for name in inputs:
        parser.add_argument(name)
    parser.add_argument("--warmups", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    return parser.parse_args()


def measure(options, setup, body):
    """Runs body(setup()) warm-up plus timed times; returns (seconds per run, last answer)."""
    answer = None
    for _ in range(options.warmups):
        body(setup())
    seconds = []
    for _ in range(max(1, options.runs)):
        work = setup()
        start = time.perf_counter()
        answer = body(work)
        seconds.append(time.perf_counter() - start)
    return seconds, answer


def emit(peer, version, seconds, answer):
    json.dump({"peer": peer, "version": version, "seconds": seconds, "answer": answer}, sys.stdout)
    sys.stdout.write("\n")
