#!/usr/bin/env python3
"""A tracking engine in Python, replayed by TraceSim through the simulated iPhone.

Run it with:

    tracesim matrix Traces/... --engine-command "python3 Examples/python/engine.py"

TraceSim writes one JSON message per line on standard input and waits, after each event,
for this engine's answer lines on standard output, closed by {"type": "done"}. The protocol
is described in Documentation/Protocol/EngineProtocol.md. Standard library only.

The engine is the kind an app team writes against Core Location:
- at launch it starts standard location updates (allowed in the background) and
  significant-change monitoring, which can relaunch the app after it is terminated;
- it keeps a fix when its accuracy is 100 m or better, and records it when it lies at least
  distanceFilterMeters (10 m) from the last recorded fix (a plain distance filter);
- when the device has stayed within stationaryRadiusMeters (50 m) for stopAfterSeconds (300) it stops
  updates to save battery and monitors a stationary region around where it stopped;
- leaving that region (or a significant change far from it) starts updates again.

Its four thresholds are settings `tracesim tune` can sweep: the hello declares them (protocol
version 2, capability "settings") and every reset carries the value of each for that run:

    tracesim tune Traces/... --engine-command "python3 Examples/python/engine.py" \
        --sweep maxAccuracyMeters=20,50,100 --sweep distanceFilterMeters=0:30:10

It also declares the capability "runs": TraceSim then sends the fixes it would deliver one
message each as one didUpdateLocationRun message, and this engine answers with how many it
consumed (it stops at the first fix that makes it call Core Location). Records are the same
either way. `--no-runs` leaves the capability out, for comparison:

    tracesim matrix Traces/... --engine-command "python3 Examples/python/engine.py --no-runs"
"""

import json
import math
import sys

# The settings this engine declares in its hello: name, kind, range and default.
SETTINGS = [
    {"name": "maxAccuracyMeters", "kind": "number", "min": 1, "max": 1000, "default": 100,
     "summary": "keep a fix only this accurate or better"},
    {"name": "distanceFilterMeters", "kind": "number", "min": 0, "max": 1000, "default": 10,
     "summary": "record a fix only this far from the last recorded"},
    {"name": "stationaryRadiusMeters", "kind": "number", "min": 1, "max": 1000, "default": 50,
     "summary": "staying within this radius counts as stopped"},
    {"name": "stopAfterSeconds", "kind": "integer", "min": 1, "max": 86400, "default": 300,
     "summary": "stop updates after staying put this long"},
]
REGION_ID = "example.stationary"
UERE_M = 7.5
NS = 1_000_000_000


def distance_m(a, b):
    """Haversine distance in metres between two (latitude, longitude) pairs."""
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(math.sqrt(h))


class Tracker:
    def __init__(self, settings):
        # Every declared setting arrives with each reset: the default or the swept value.
        self.max_accuracy_m = settings["maxAccuracyMeters"]
        self.distance_filter_m = settings["distanceFilterMeters"]
        self.stationary_radius_m = settings["stationaryRadiusMeters"]
        self.stop_after_s = settings["stopAfterSeconds"]
        self.updating = False
        self.last_recorded = None  # (lat, lon)
        self.last_accepted = None  # (lat, lon)
        self.anchor = None  # (lat, lon, timestamp ns): where the device last moved off
        self.odometer = 0.0
        self.state = "moving"

    # Each handler returns the answer messages (dicts) for one event.

    def start(self, message):
        self.updating = True
        return [
            request("startMonitoringSignificantLocationChanges"),
            request("startUpdatingLocation", allowsBackgroundLocationUpdates=True,
                    pausesLocationUpdatesAutomatically=False),
        ]

    def didUpdateLocations(self, message):
        answers = []
        for location in message["locations"]:
            answers += self.location(location)
        return answers

    def didUpdateLocationRun(self, message):
        # The fixes of a run, each as its own didUpdateLocations of one fix would bring it;
        # stop after the first whose answer calls Core Location or arms or cancels a timer:
        # the phone may act differently from then on, and TraceSim sends the rest again.
        answers = []
        consumed = 0
        for location in message["locations"]:
            consumed += 1
            answered = self.location(location)
            answers += answered
            if any(answer["type"] in ("request", "schedule", "cancel") for answer in answered):
                break
        return [{"type": "consumed", "count": consumed}] + answers

    def didReceiveSignificantChange(self, message):
        # A wake-up while parked: far enough from the stationary region means we moved.
        if self.updating:
            return []
        here = (message["location"]["latitude"], message["location"]["longitude"])
        if self.anchor and distance_m(here, self.anchor[:2]) < self.stationary_radius_m:
            return []
        return self.depart()

    def didExitRegion(self, message):
        if message["identifier"] != REGION_ID or self.updating:
            return []
        return self.depart()

    def didLaunch(self, message):
        # Relaunched after termination: Core Location keeps the region and significant
        # changes registered, but standard updates must be started again.
        if self.updating:
            return [request("startUpdatingLocation", allowsBackgroundLocationUpdates=True,
                            pausesLocationUpdatesAutomatically=False)]
        return []

    def location(self, location):
        answers = [record("delivered")]
        accuracy = location.get("horizontalAccuracy")
        if accuracy is None and "horizontalDilution" in location:
            # TraceSim before issue 30 sent an NMEA trace's HDOP, not metres: 7.5 m per unit.
            accuracy = location["horizontalDilution"] * UERE_M
        if accuracy is None or accuracy < 0 or accuracy > self.max_accuracy_m:
            answers.append(record("rejected", reason="lowAccuracy"))
            return answers
        here = (location["latitude"], location["longitude"])
        timestamp = location["timestamp"]
        answers.append(record("accepted", time=timestamp, latitude=here[0], longitude=here[1]))
        if self.last_accepted is not None:
            self.odometer += distance_m(self.last_accepted, here)
            answers.append(record("odometer", meters=self.odometer))
        self.last_accepted = here
        if self.last_recorded is None or distance_m(self.last_recorded, here) >= self.distance_filter_m:
            self.last_recorded = here
            answers.append(record("recorded"))
        if self.anchor is None or distance_m(here, self.anchor[:2]) > self.stationary_radius_m:
            self.anchor = (here[0], here[1], timestamp)
        elif timestamp - self.anchor[2] >= self.stop_after_s * NS and self.updating:
            answers += self.stop(here)
        return answers

    def stop(self, here):
        self.updating = False
        self.state = "stationary"
        return [
            request("stopUpdatingLocation"),
            request("startMonitoring", identifier=REGION_ID, latitude=here[0], longitude=here[1],
                    radius=self.stationary_radius_m),
            record("motion", state="stationary"),
        ]

    def depart(self):
        self.updating = True
        self.state = "moving"
        self.anchor = None
        return [
            request("stopMonitoring", identifier=REGION_ID),
            request("startUpdatingLocation", allowsBackgroundLocationUpdates=True,
                    pausesLocationUpdatesAutomatically=False),
            record("motion", state="moving"),
        ]


def request(call, **arguments):
    return {"type": "request", "call": call, **arguments}


def record(kind, **fields):
    return {"type": "record", "kind": kind, **fields}


def main():
    takes_runs = "--no-runs" not in sys.argv[1:]
    tracker = None
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message["protocolVersion"] != 1:
                sys.exit(f"engine.py speaks protocol version 1, not {message['protocolVersion']}")
            answers = [{"type": "hello", "protocolVersion": 2, "name": "python distance-filter example",
                        "capabilities": ["settings"] + (["runs"] if takes_runs else []),
                        "settings": SETTINGS}]
            out.write("".join(json.dumps(answer) + "\n" for answer in answers))
            out.flush()
            continue
        if kind == "reset":
            tracker = Tracker(message["settings"])
            answers = []
        else:
            # Events this engine does not handle (motion, visits, authorization changes,
            # timers, finish) are answered with done alone.
            handlers = {
                "start": tracker.start,
                "didUpdateLocations": tracker.didUpdateLocations,
                "didUpdateLocationRun": tracker.didUpdateLocationRun,
                "didReceiveSignificantChange": tracker.didReceiveSignificantChange,
                "didExitRegion": tracker.didExitRegion,
                "didLaunch": tracker.didLaunch,
            }
            handler = handlers.get(kind)
            answers = handler(message) if handler else []
        answers.append({"type": "done"})
        out.write("".join(json.dumps(answer) + "\n" for answer in answers))
        out.flush()


if __name__ == "__main__":
    main()
