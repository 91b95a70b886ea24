#!/usr/bin/env python3
"""The least a protocol engine can do: say hello, start location updates at launch, and
answer every other message with done. The protocol benchmark's engine: what it measures is
the cost of one lock-step round trip, not an engine's work.

It declares the capability "runs" (protocol version 2) unless given --no-runs: a run of
locations then comes in one didUpdateLocationRun message, and the engine consumes all of
them, reading only the "count" TraceSim writes first, never parsing the locations."""
import sys

RUN_PREFIX = '{"type":"didUpdateLocationRun","count":'
takes_runs = "--no-runs" not in sys.argv[1:]
hello = ('{"type":"hello","protocolVersion":2,"name":"trivial","capabilities":["runs"]}\n' if takes_runs
         else '{"type":"hello","protocolVersion":1,"name":"trivial"}\n')
out = sys.stdout
prefix_length = len(RUN_PREFIX)
for line in sys.stdin:
    if line.startswith(RUN_PREFIX):
        count = line[prefix_length:line.index(",", prefix_length)]
        out.write('{"type":"consumed","count":' + count + '}\n{"type":"done"}\n')
    elif line.startswith('{"type":"hello"'):
        out.write(hello)
    elif line.startswith('{"type":"start"'):
        out.write('{"type":"request","call":"startUpdatingLocation"}\n{"type":"done"}\n')
    else:
        out.write('{"type":"done"}\n')
    out.flush()
