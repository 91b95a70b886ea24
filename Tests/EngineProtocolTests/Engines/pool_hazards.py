#!/usr/bin/env python3
"""A well-behaved engine that records every delivery, with one hazard for the process pool
chosen by its argument, after its done for finish:

- clean: none (the reference);
- late-log: a log line right after that done, in the same write;
- exit: it exits with status 0."""
import json
import os
import sys

mode = sys.argv[1]
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    out = []
    if kind == "hello":
        out.append({"type": "hello", "protocolVersion": 1, "name": "pool-hazards"})
    elif kind == "start":
        out.append({"type": "request", "call": "startUpdatingLocation"})
    elif kind == "didUpdateLocations":
        for location in message["locations"]:
            out.append({"type": "record", "kind": "delivered"})
            out.append({"type": "record", "kind": "accepted", "time": location["timestamp"],
                        "latitude": location["latitude"], "longitude": location["longitude"]})
    if kind != "hello":
        out.append({"type": "done"})
    if kind == "finish" and mode == "late-log":
        out.append({"type": "log", "message": "written after finish"})
    sys.stdout.write("".join(json.dumps(answer, separators=(",", ":")) + "\n" for answer in out))
    sys.stdout.flush()
    if kind == "finish" and mode == "exit":
        os._exit(0)
