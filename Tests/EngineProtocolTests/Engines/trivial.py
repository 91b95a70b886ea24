#!/usr/bin/env python3
"""The least an engine can do: say hello, then answer every message with done. The
benchmark's peer for the cost of one lock-step round trip."""
import sys

out = sys.stdout
for line in sys.stdin:
    if line.startswith('{"type":"hello"'):
        out.write('{"type":"hello","protocolVersion":1,"name":"trivial"}\n')
    else:
        out.write('{"type":"done"}\n')
    out.flush()
