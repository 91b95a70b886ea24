#!/usr/bin/env python3
"""An engine that breaks the protocol in one way, chosen by its argument, at its first
didUpdateLocations (or at hello, for the modes named hello-... and version). Until then it
starts updates at start and answers done to everything.

Every mode is bounded: nothing sleeps longer than 30 s, and a mode that loops gives up after
100,000 events (exit 9), so a TraceSim that failed to stop it fails its test in seconds."""
import json
import os
import sys
import time

mode = sys.argv[1]
HELLO = {
    "version": '{"type":"hello","protocolVersion":3,"name":"misbehaving"}',
    "hello-v2-without-capabilities": '{"type":"hello","protocolVersion":2,"name":"misbehaving"}',
    "hello-v1-with-capabilities": '{"type":"hello","protocolVersion":1,"name":"misbehaving","capabilities":[]}',
    "hello-capability-twice": '{"type":"hello","protocolVersion":2,"name":"misbehaving","capabilities":["cancel","cancel"]}',
    "cancel-undeclared": '{"type":"hello","protocolVersion":2,"name":"misbehaving","capabilities":["replaceTimers"]}',
}.get(mode, '{"type":"hello","protocolVersion":1,"name":"misbehaving"}')


def say(*lines):
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


if mode == "hello-exit":
    # Says hello before TraceSim's hello arrives, and exits.
    say(HELLO)
    sys.exit(0)

events = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say(HELLO)
        continue
    events += 1
    if events > 100_000:
        sys.exit(9)
    now = message.get("now", 0)
    if mode in ("timer-now", "timer-creep") and kind not in ("reset", "finish"):
        # Every event, its own timer firings included, answered with a timer due at once.
        at = now if mode == "timer-now" else now + 1
        say('{"type":"schedule","timer":"again","at":%d}' % at, '{"type":"done"}')
        continue
    if kind == "start":
        say('{"type":"request","call":"startUpdatingLocation"}')
    if kind == "didUpdateLocations":
        fix = message["locations"][0]
        accepted = '{"type":"record","kind":"accepted","time":%d,"latitude":%r,"longitude":%r}'
        if mode == "not-json":
            say("Traceback (most recent call last):")
        elif mode == "unknown-type":
            say('{"type":"recordd","kind":"delivered"}')
        elif mode == "unknown-type-control":
            # An escape sequence that would clear the terminal the error is printed to.
            say('{"type":"\\u001b[2J\\rFAIL"}')
        elif mode == "missing-done":
            say('{"type":"record","kind":"delivered"}')
            time.sleep(30)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "hang":
            time.sleep(30)
        elif mode == "out-of-order":
            say('{"type":"hello","protocolVersion":1,"name":"again"}')
        elif mode == "extra-done":
            # One write, so the extra line is in the pipe before the next event is sent.
            say('{"type":"done"}', '{"type":"done"}')
            continue
        elif mode == "unknown-member":
            say('{"type":"request","call":"startUpdatingLocation","pausesAutomatically":false}')
        elif mode == "accepted-milliseconds":
            say(accepted % (fix["timestamp"] // 1_000_000, fix["latitude"], fix["longitude"]))
        elif mode == "accepted-far-future":
            say(accepted % (9223372036854775807, fix["latitude"], fix["longitude"]))
        elif mode == "accepted-latitude":
            say(accepted % (fix["timestamp"], 91.0, fix["longitude"]))
        elif mode == "accepted-longitude":
            say(accepted % (fix["timestamp"], fix["latitude"], 1e308))
        elif mode == "accepted-twice":
            say(accepted % (fix["timestamp"], fix["latitude"], fix["longitude"]))
            say(accepted % (fix["timestamp"], fix["latitude"], fix["longitude"]))
        elif mode == "recorded-twice":
            say(accepted % (fix["timestamp"], fix["latitude"], fix["longitude"]))
            say('{"type":"record","kind":"recorded"}', '{"type":"record","kind":"recorded"}')
        elif mode == "heartbeat-far-future":
            say('{"type":"record","kind":"heartbeat","time":9223372036854775807}')
        elif mode == "motion-before-run":
            say('{"type":"record","kind":"motion","state":"moving","time":%d}' % (now - 1))
        elif mode == "geofence-ahead":
            say('{"type":"record","kind":"geofence","identifier":"home","action":"exit","time":%d}'
                % (now + 1_000_000_000))
        elif mode in ("cancel-v1", "cancel-undeclared"):
            say('{"type":"cancel","timer":"t"}')
        elif mode == "answer-flood":
            # More records in one answer than a run of this trace may hold.
            say(*['{"type":"record","kind":"heartbeat"}'] * 70_000)
        elif mode == "fork-exit":
            # A child keeps standard output (and input) open; the engine itself exits.
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            sys.exit(0)
        elif mode == "close-stdin":
            os.close(0)
            time.sleep(30)
            sys.exit(0)
    say('{"type":"done"}')
