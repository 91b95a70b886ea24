#!/usr/bin/env python3
"""An engine that logs, one way chosen by its argument, at every didUpdateLocations; it starts
updates at start and answers done to everything else.

    distinct     200 distinct messages at the first fix, then "again" at every fix
    long         one message of 3,000 bytes of "é" (two bytes each), at every fix
    control      messages with control characters: ESC sequences, CR, BEL, a newline that
                 forges a report line, DEL, a C1 control and U+2028
"""
import json
import sys

mode = sys.argv[1]
CONTROL = [
    "\x1b[2J\x1b[Hcleared",
    "progress 10%\r100% done",
    "bell\x07",
    "ok\nFAIL always-precise collectionRatio",
    "delete\x7f",
    "next line\x85here",
    "separator\u2028here",
]


def say(*lines):
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


def log(message):
    return json.dumps({"type": "log", "message": message})


fixes = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say('{"type":"hello","protocolVersion":1,"name":"chatty"}')
        continue
    if kind == "reset":
        # A process serves several runs: each starts afresh.
        fixes = 0
    answers = []
    if kind == "start":
        answers.append('{"type":"request","call":"startUpdatingLocation"}')
    if kind == "didUpdateLocations":
        fixes += 1
        if mode == "distinct":
            answers += [log("message %d" % index) for index in range(200)] if fixes == 1 else [log("again")]
        elif mode == "long":
            answers.append(log("é" * 1500))
        elif mode == "control":
            answers += [log(text) for text in CONTROL]
    say(*answers, '{"type":"done"}')
