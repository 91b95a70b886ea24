#!/usr/bin/env python3
"""An engine that uses timers one way, chosen by its argument, and logs every firing as
"fired ID", so a test counts what fired from the run's diagnostics.

    rearm-v1       version 1: re-arms timer "tick" 30 s ahead on every event but its firings
    rearm-v2       the same in version 2 with the capability replaceTimers
    cancel         version 2 with the capability cancel: arms "once" 10 s ahead at start and
                   cancels it at the first fix
    keep           the same in version 1 without the cancel: "once" fires
    unknown        version 2 declaring capabilities this TraceSim does not know
"""
import json
import sys

mode = sys.argv[1]
capabilities = {"rearm-v2": ["replaceTimers"], "cancel": ["cancel"], "unknown": ["batches", "streams"]}.get(mode)


def say(*lines):
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


cancelled = False
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if capabilities is None:
            say('{"type":"hello","protocolVersion":1,"name":"timers"}')
        else:
            say(json.dumps({"type": "hello", "protocolVersion": 2, "name": "timers", "capabilities": capabilities}))
        continue
    if kind == "reset":
        cancelled = False
        say('{"type":"done"}')
        continue
    now = message["now"]
    answers = []
    if kind == "start":
        answers.append('{"type":"request","call":"startUpdatingLocation"}')
        if mode in ("cancel", "keep"):
            answers.append('{"type":"schedule","timer":"once","at":%d}' % (now + 10_000_000_000))
    if kind == "timerFired":
        answers.append(json.dumps({"type": "log", "message": "fired " + message["timer"]}))
    elif kind != "finish" and mode.startswith("rearm"):
        answers.append('{"type":"schedule","timer":"tick","at":%d}' % (now + 30_000_000_000))
    if kind == "didUpdateLocations" and mode == "cancel" and not cancelled:
        cancelled = True
        answers.append('{"type":"cancel","timer":"once"}')
    say(*answers, '{"type":"done"}')
