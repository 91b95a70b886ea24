#!/usr/bin/env python3
"""An engine that breaks the protocol in one way, chosen by its argument, at its first
didUpdateLocations (or at hello for "version"). Until then it starts updates at start and
answers done to everything."""
import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    if '"type":"hello"' in line:
        version = 3 if mode == "version" else 1
        print('{"type":"hello","protocolVersion":%d,"name":"misbehaving"}' % version, flush=True)
        continue
    if '"type":"start"' in line:
        print('{"type":"request","call":"startUpdatingLocation"}', flush=True)
    if '"type":"didUpdateLocations"' in line:
        if mode == "not-json":
            print("Traceback (most recent call last):", flush=True)
        elif mode == "unknown-type":
            print('{"type":"recordd","kind":"delivered"}', flush=True)
        elif mode == "missing-done":
            print('{"type":"record","kind":"delivered"}', flush=True)
            time.sleep(60)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "hang":
            time.sleep(60)
        elif mode == "out-of-order":
            print('{"type":"hello","protocolVersion":1,"name":"again"}', flush=True)
        elif mode == "extra-done":
            # One write, so the extra line is in the pipe before the next event is sent.
            print('{"type":"done"}\n{"type":"done"}', flush=True)
            continue
        elif mode == "unknown-member":
            print('{"type":"request","call":"startUpdatingLocation","pausesAutomatically":false}', flush=True)
    print('{"type":"done"}', flush=True)
