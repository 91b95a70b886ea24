#!/usr/bin/env python3
"""An engine that will not finish its run, one way chosen by its first argument, so a test can
stop TraceSim under it. It writes its process group and id to DIR (the second argument) as it
starts, answers like an engine until its first fix, and then:

    busy          spins on the CPU; on SIGTERM it writes DIR/terminated-PID and exits
    ignore-term   ignores SIGTERM and sleeps
    hang          sleeps (run it as "stubborn.py hang DIR; sleep 30" for an engine whose
                  command goes on after it)

Nothing runs longer than 30 s, so an engine TraceSim failed to end goes away by itself."""
import os
import signal
import sys
import time

mode, folder = sys.argv[1], sys.argv[2]
open(os.path.join(folder, "group-%d-%d" % (os.getpgrp(), os.getpid())), "w").close()
if mode == "busy":
    def terminated(number, frame):
        open(os.path.join(folder, "terminated-%d" % os.getpid()), "w").close()
        sys.exit(0)
    signal.signal(signal.SIGTERM, terminated)
elif mode == "ignore-term":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

deadline = time.monotonic() + 30
for line in sys.stdin:
    if '"type":"hello"' in line:
        print('{"type":"hello","protocolVersion":1,"name":"stubborn"}', flush=True)
        continue
    if '"type":"start"' in line:
        print('{"type":"request","call":"startUpdatingLocation"}', flush=True)
    if '"type":"didUpdateLocations"' in line:
        while time.monotonic() < deadline:
            if mode != "busy":
                time.sleep(0.05)
        sys.exit(0)
    print('{"type":"done"}', flush=True)
