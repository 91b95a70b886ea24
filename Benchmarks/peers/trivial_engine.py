#!/usr/bin/env python3
"""The least a protocol engine can do: say hello, start location updates at launch, and
answer every other message with done. The protocol benchmark's engine: what it measures is
the cost of one lock-step round trip, not an engine's work."""
import sys

out = sys.stdout
for line in sys.stdin:
    if line.startswith('{"type":"hello"'):
        out.write('{"type":"hello","protocolVersion":1,"name":"trivial"}\n')
    elif line.startswith('{"type":"start"'):
        out.write('{"type":"request","call":"startUpdatingLocation"}\n{"type":"done"}\n')
    else:
        out.write('{"type":"done"}\n')
    out.flush()
