#!/usr/bin/env python3
"""A test engine that declares two settings and notes, per run, the values TraceSim sent.

Usage: settings_engine.py NOTES_FILE

It records the first `keep` fixes delivered in each run, so the swept value moves
recordedFixes; every reset's `settings` is appended to NOTES_FILE as one JSON line.
"""
import json
import sys

SETTINGS = [
    {"name": "keep", "kind": "integer", "min": 0, "max": 100000, "default": 5},
    {"name": "label", "kind": "choice", "choices": ["a", "b"], "default": "a", "summary": "ignored"},
]


def main():
    notes = open(sys.argv[1], "a")
    kept = 0
    settings = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        answers = []
        if kind == "hello":
            hello = {"type": "hello", "protocolVersion": 2, "name": "settings test engine",
                     "capabilities": ["settings"], "settings": SETTINGS}
            sys.stdout.write(json.dumps(hello) + "\n")
            sys.stdout.flush()
            continue
        if kind == "reset":
            settings = message["settings"]
            notes.write(json.dumps(settings, sort_keys=True) + "\n")
            notes.flush()
            kept = 0
        elif kind == "start":
            answers.append({"type": "request", "call": "startUpdatingLocation",
                            "allowsBackgroundLocationUpdates": True})
        elif kind == "didUpdateLocations":
            for location in message["locations"]:
                answers.append({"type": "record", "kind": "delivered"})
                if kept < settings["keep"]:
                    kept += 1
                    answers.append({"type": "record", "kind": "accepted", "time": location["timestamp"],
                                    "latitude": location["latitude"], "longitude": location["longitude"]})
                    answers.append({"type": "record", "kind": "recorded"})
        answers.append({"type": "done"})
        sys.stdout.write("".join(json.dumps(answer) + "\n" for answer in answers))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
